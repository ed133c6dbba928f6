/**
 * intervals.icu's rate limit, "10/s per IP with a short burst" (its founder, on its forum): a token bucket per
 * client address that holds `burst` requests and refills `perSecond` a second; a request that finds it empty
 * is answered 429 and, unlike Strava's, does not count. It runs on real time (performance.now), not the
 * sandbox's clock: tests pin that clock to a fixed day, and a second must still pass for the bucket to refill.
 */
export interface AddressRateLimitSettings {
  perSecond: number;
  burst: number;
}

export const intervalsDefaultRateLimit: AddressRateLimitSettings = { perSecond: 10, burst: 20 };

export class AddressRateLimit {
  readonly #settings: AddressRateLimitSettings;
  readonly #now: () => number;
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(settings: AddressRateLimitSettings, now: () => number = () => performance.now()) {
    this.#settings = settings;
    this.#now = now;
  }

  /** Takes one request from `address`'s bucket; false when it is empty. */
  admit(address: string): boolean {
    const now = this.#now();
    const bucket = this.#buckets.get(address) ?? { tokens: this.#settings.burst, at: now };
    bucket.tokens = Math.min(this.#settings.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.#settings.perSecond);
    bucket.at = now;
    this.#buckets.set(address, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
