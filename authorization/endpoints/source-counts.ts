/**
 * How many requests each source made to an endpoint anybody may call, in fixed windows, counted in this
 * process: the Strava sign-in callbacks (each a token request to Strava with the application's secret)
 * and Strava's webhook. A source is what registrations count against (registration-limits.ts): an IPv4
 * address, or an IPv6 /64, since one customer's network holds a whole /64 and could otherwise take a new
 * address for every request.
 *
 * Counted in memory, not in the store: a refusal costs a map lookup, and a flood from one source never
 * reaches the store. Instances count apart (Lambda's included), so the figure holds per instance.
 */
import type { RateVerdict } from "../stores/registration-store.ts";
import { registrationSource } from "./registration-limits.ts";

export class SourceCounts {
  readonly #limit: number;
  readonly #windowMs: number;
  #window = -1;
  #counts = new Map<string, number>();

  constructor(limit: number, windowMs: number) {
    this.#limit = limit;
    this.#windowMs = windowMs;
  }

  /** Counts a request from `address`: refused, with the seconds until the window ends, past the limit. */
  admit(address: string | undefined, nowMs: number): RateVerdict {
    const window = Math.floor(nowMs / this.#windowMs);
    // A new window, or more sources than a machine's memory should hold (every count starts again).
    if (window !== this.#window || this.#counts.size >= 100_000) {
      this.#window = window;
      this.#counts = new Map();
    }
    const source = registrationSource(address);
    const count = (this.#counts.get(source) ?? 0) + 1;
    this.#counts.set(source, count);
    if (count <= this.#limit) return { admitted: true };
    return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil(((window + 1) * this.#windowMs - nowMs) / 1000)) };
  }
}
