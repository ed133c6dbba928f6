/**
 * How a client's address is grouped for the limits anonymous callers are held to. An IPv4 address is one
 * source, but an IPv6 host usually has a whole /64 to pick addresses from, so an IPv6 source is its /64.
 * Someone with more than one source is still on a few networks: an IPv4 /24, an IPv6 /48 (a site) or /32
 * (what a provider or a cloud region hands out), so shares are also held per network.
 */
import { isIP } from "node:net";

/** The source an address counts as: an IPv4 address, an IPv6 /64 ("2001:db8:1:2::/64"), or "unknown". */
export function addressSource(address: string | undefined): string {
  if (address === undefined || address === "") return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return mapped;
  if (isIP(address) !== 6) return address;
  return `${ipv6Groups(address).slice(0, 4).join(":")}::/64`;
}

/** A network a source belongs to, and how wide it is. */
export interface SourceNetwork {
  /** "203.0.113.0/24", "2001:db8:1::/48", or the source itself when it is not an address ("unknown"). */
  network: string;
  /** "IPv4 /24", "IPv6 /64", "IPv6 /48", "IPv6 /32", or "unknown". */
  width: NetworkWidth;
}

export type NetworkWidth = "IPv4 /24" | "IPv6 /64" | "IPv6 /48" | "IPv6 /32" | "unknown";

/** The networks of a source (as `addressSource` gives it), narrowest first. */
export function sourceNetworks(source: string): SourceNetwork[] {
  if (isIP(source) === 4) return [{ network: `${source.split(".").slice(0, 3).join(".")}.0/24`, width: "IPv4 /24" }];
  const v6 = /^(.*)::\/64$/.exec(source)?.[1];
  if (v6 === undefined || isIP(`${v6}::`) !== 6) return [{ network: source, width: "unknown" }];
  const groups = ipv6Groups(`${v6}::`);
  return [
    { network: source, width: "IPv6 /64" },
    { network: `${groups.slice(0, 3).join(":")}::/48`, width: "IPv6 /48" },
    { network: `${groups.slice(0, 2).join(":")}::/32`, width: "IPv6 /32" },
  ];
}

/** The eight groups of an IPv6 address, lower case without leading zeros. */
function ipv6Groups(address: string): string[] {
  // An IPv4 tail ("64:ff9b::192.0.2.1") is the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    address = `${address.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = address.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array.from({ length: missing }, () => "0"), ...right].map((group) => group.toLowerCase().replace(/^0+(?=.)/, ""));
}
