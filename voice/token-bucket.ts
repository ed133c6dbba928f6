/**
 * A token bucket, the algorithm API Gateway throttles with: `burst` requests at once, refilled at
 * `ratePerSecond`. The local gateway uses it to answer 429 the way the deployed stage does (10/s, burst 20).
 */

export interface TokenBucketOptions {
  ratePerSecond: number;
  burst: number;
  /** Milliseconds clock; injectable so tests need no timing. */
  now?: () => number;
}

export class TokenBucket {
  readonly #ratePerMs: number;
  readonly #burst: number;
  readonly #now: () => number;
  #tokens: number;
  #last: number;

  constructor(options: TokenBucketOptions) {
    if (options.ratePerSecond <= 0 || options.burst < 1)
      throw new RangeError("a token bucket needs a positive rate and a burst of at least 1");
    this.#ratePerMs = options.ratePerSecond / 1000;
    this.#burst = options.burst;
    this.#now = options.now ?? (() => performance.now());
    this.#tokens = options.burst;
    this.#last = this.#now();
  }

  /** Takes one token if there is one; false means the request is over the limit. */
  tryTake(): boolean {
    const now = this.#now();
    this.#tokens = Math.min(this.#burst, this.#tokens + (now - this.#last) * this.#ratePerMs);
    this.#last = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}
