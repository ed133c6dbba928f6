/**
 * Whether an IP address is one anybody on the Internet could reach: the test the metadata-document fetch
 * applies to every address it would connect to (client-metadata-document.ts), since whoever sends an
 * authorization request chooses the host.
 *
 * It allows, rather than refuses, so that a range nobody listed is never reachable by default:
 *
 * - IPv6: only global unicast, 2000::/3, minus the blocks inside it that IANA's IPv6 Special-Purpose Address
 *   Registry marks not globally reachable (2001::/23 with Teredo, benchmarking and ORCHID; documentation
 *   2001:db8::/32 and 3fff::/20; 6to4 2002::/16, which carries an IPv4 address of any kind). Everything
 *   outside 2000::/3 is refused with it: loopback, IPv4-compatible `::/96`, NAT64 `64:ff9b::/96` and
 *   `64:ff9b:1::/48` (which reach IPv4 addresses through a translator), discard-only, unique local,
 *   site-local `fec0::/10`, link-local, multicast and SRv6 `5f00::/16`.
 * - IPv4-mapped IPv6 addresses (`::ffff:a.b.c.d`) are judged as the IPv4 address they carry.
 * - IPv4: every block of IANA's IPv4 Special-Purpose Address Registry that is not globally reachable (this
 *   network, private, shared CGNAT, loopback, link-local, IETF protocol assignments, the three TEST-NETs, the
 *   6to4 relay anycast, benchmarking, reserved 240/4 with the limited broadcast), and multicast.
 *
 * The few globally reachable protocol anycast assignments inside 192.0.0.0/24 and 2001::/23 are refused
 * with their blocks: they are never a web server.
 */
import { BlockList, isIP } from "node:net";

const refusedIpv4 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  refusedIpv4.addSubnet(network, prefix, "ipv4");
}

const globalUnicastIpv6 = new BlockList();
globalUnicastIpv6.addSubnet("2000::", 3, "ipv6");

const nonGlobalIpv6 = new BlockList();
for (const [network, prefix] of [
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["3fff::", 20],
  ["5f00::", 16],
] as const) {
  nonGlobalIpv6.addSubnet(network, prefix, "ipv6");
}

const loopbackIpv4 = new BlockList();
loopbackIpv4.addSubnet("127.0.0.0", 8, "ipv4");

/** Whether `address` (an IPv4 or IPv6 address as text) is globally reachable; loopback too when `allowLoopback`. */
export function isPublicAddress(address: string, allowLoopback: boolean): boolean {
  const family = isIP(address);
  if (family === 4) return (allowLoopback && loopbackIpv4.check(address, "ipv4")) || !refusedIpv4.check(address, "ipv4");
  if (family !== 6) return false;
  const canonical = canonicalIpv6(address);
  if (canonical === undefined) return false;
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (mapped) return isPublicAddress(ipv4From(mapped[1] as string, mapped[2] as string), allowLoopback);
  if (canonical === "::1") return allowLoopback;
  return globalUnicastIpv6.check(canonical, "ipv6") && !nonGlobalIpv6.check(canonical, "ipv6");
}

/** The address as WHATWG URL writes it (lower case, compressed, no dotted quad, no zone), or undefined. */
function canonicalIpv6(address: string): string | undefined {
  if (address.includes("%")) return undefined;
  return URL.parse(`http://[${address}]/`)?.hostname.slice(1, -1);
}

function ipv4From(high: string, low: string): string {
  const word = (Number.parseInt(high, 16) << 16) | Number.parseInt(low, 16);
  return [24, 16, 8, 0].map((shift) => (word >>> shift) & 255).join(".");
}
