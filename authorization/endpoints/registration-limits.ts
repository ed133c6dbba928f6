/**
 * How much anonymous registration (`POST /register`) may cost. Registration needs no account, so:
 *
 * - each source may register `perSourcePerHour` clients an hour, counted in the store so every instance
 *   (Lambda included) agrees; past it the answer is 429 with Retry-After. A source is the connection's
 *   address, or, behind a proxy the operator names with MCP_CLIENT_ADDRESS_HEADER, the last address that
 *   proxy put in that header; an IPv6 source counts by its /64 (one customer's network). Only valid
 *   registrations are counted (a mistake costs the caller nothing), in at most `countSlots` counts an hour,
 *   so they take the same room however many sources register (stores/registration-store.ts, `registrationCountSlot`);
 * - registrations that never complete a grant live a day, and at most `unusedCapacity` of them are kept,
 *   shared out by network; one whose sign-in is in progress is not evicted until its authorization
 *   request expires (stores/registration-ring.ts). So a flood neither fills the store nor pushes out a
 *   client that registered moments before the athlete signs in (Claude and ChatGPT register from their
 *   vendors' clouds); when every place a newcomer could take is held by sign-ins in progress, it is told
 *   when to come back (429);
 * - a source this process already saw reach its limit is refused before its body is read or the store is
 *   asked (the store's count can only be higher), so a flood from one source costs a map lookup each.
 */
import { addressSource } from "../../common/address-networks.ts";
import { registrationWindow, type RateVerdict, type RegistrationLimits } from "../stores/registration-store.ts";
import { lifetimeSeconds as authorizationRequestSeconds } from "../tokens/signed-messages.ts";

export const registrationLimits: RegistrationLimits = { perSourcePerHour: 20, unusedCapacity: 1_000, countSlots: 4_096 };

/** How long a registration that never completed a grant is kept. */
export const unusedRegistrationSeconds = 86_400;

/** How long a registration is kept from eviction after its first sign-in starts: as long as that authorization request lives. */
export const signInProtectionSeconds = authorizationRequestSeconds;

/** The source a request is counted against: an IPv4 address, an IPv6 /64, or "unknown". */
export function registrationSource(address: string | undefined): string {
  return addressSource(address);
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
    const { endsMs } = registrationWindow(nowMs);
    if ((this.#current(nowMs).get(source) ?? 0) < this.#limit) return { admitted: true };
    return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((endsMs - nowMs) / 1000)) };
  }

  /** Counts a registration the store counted. */
  count(source: string, nowMs: number): void {
    const seen = this.#current(nowMs);
    seen.set(source, (seen.get(source) ?? 0) + 1);
  }

  #current(nowMs: number): Map<string, number> {
    const { hour } = registrationWindow(nowMs);
    // A new hour, or more sources than a machine's memory should hold (the store still counts them all).
    if (hour !== this.#hour || this.#seen.size >= 100_000) {
      this.#hour = hour;
      this.#seen = new Map();
    }
    return this.#seen;
  }
}
