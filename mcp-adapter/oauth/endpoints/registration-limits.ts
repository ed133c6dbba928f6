/**
 * How much anonymous registration (`POST /register`) may cost. Registration needs no account, so:
 *
 * - each source may register `perSourcePerHour` clients an hour, counted in the store so every instance
 *   (Lambda included) agrees; past it the answer is 429 with Retry-After. A source is the connection's
 *   address, or, behind a proxy the operator names with MCP_CLIENT_ADDRESS_HEADER, the last address that
 *   proxy put in that header; an IPv6 source counts by its /64 (one customer's network);
 * - registrations that never complete a grant live a day, and at most `unusedCapacity` of them are kept:
 *   the oldest is evicted to make room, so a flood cannot fill the store and never locks out a real new
 *   client (Claude and ChatGPT register from their vendors' clouds, moments before the athlete signs in);
 * - a source this process already saw past its limit is refused before its body is read or the store is
 *   asked (the store's count can only be higher), so a flood from one source costs a map lookup each.
 */
import { isIP } from "node:net";
import { registrationWindow, type RateVerdict, type RegistrationLimits } from "../stores/oauth-store.ts";

export const registrationLimits: RegistrationLimits = { perSourcePerHour: 20, unusedCapacity: 1_000 };

/** How long a registration that never completed a grant is kept. */
export const unusedRegistrationSeconds = 86_400;

/** The source a request is counted against: an IPv4 address, an IPv6 /64, or "unknown". */
export function registrationSource(address: string | undefined): string {
  if (address === undefined || address === "") return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return mapped;
  if (isIP(address) !== 6) return address;
  const groups = expandIpv6(address);
  return `${groups.slice(0, 4).join(":")}::/64`;
}

function expandIpv6(address: string): string[] {
  const [head = "", tail] = address.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array.from({ length: missing }, () => "0"), ...right].map((group) => group.toLowerCase().replace(/^0+(?=.)/, ""));
}

/** This process's view of each source's count in the current hour: a refusal it can give without the store. */
export class RegistrationPrecheck {
  readonly #limit: number;
  #hour = "";
  #seen = new Map<string, number>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Refused when this process alone already counted `limit` registrations of the source this hour. */
  check(source: string, nowMs: number): RateVerdict {
    const { hour, endsMs } = registrationWindow(nowMs);
    // A new hour, or more sources than a machine's memory should hold (the store still counts them all).
    if (hour !== this.#hour || this.#seen.size >= 100_000) {
      this.#hour = hour;
      this.#seen = new Map();
    }
    const seen = this.#seen.get(source) ?? 0;
    if (seen >= this.#limit) return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((endsMs - nowMs) / 1000)) };
    this.#seen.set(source, seen + 1);
    return { admitted: true };
  }
}
