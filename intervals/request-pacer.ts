/**
 * Keeps requests to intervals.icu under its rate limit, "10/s per IP with a short burst" (its founder, on its
 * forum): at most `maxPerWindow` requests start in any `windowMs`, in the order they asked; the rest wait their
 * turn. A burst of up to ten goes out at once, the eleventh one second after the first.
 *
 * Our own small pacer rather than a library: p-limit (in package.json, used for Strava's calls in flight)
 * bounds how many run at once, not how many start per second, and a rate limiter package would be a new
 * dependency for twenty lines. The clock and the wait are injected, so tests move time instead of waiting.
 */
import { CallCancelledError } from "../common/upstream/upstream-errors.ts";

export interface PacerOptions {
  /** Requests that may start within one window (default 10). */
  maxPerWindow?: number;
  /** The window, in milliseconds (default 1000). */
  windowMs?: number;
  /** Epoch milliseconds (tests pass a manual clock). */
  now?: () => number;
  /** Waits `ms` (tests pass one that moves their manual clock). */
  sleep?: (ms: number) => Promise<void>;
}

interface Waiter {
  start: () => void;
}

export class RequestPacer {
  readonly maxPerWindow: number;
  readonly windowMs: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  /** When the requests of the current window started, oldest first. */
  readonly #starts: number[] = [];
  readonly #waiting: Waiter[] = [];
  #sleeping = false;

  constructor(options: PacerOptions = {}) {
    this.maxPerWindow = options.maxPerWindow ?? 10;
    this.windowMs = options.windowMs ?? 1000;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Resolves when the caller may send; rejects with `CallCancelledError` (nothing sent) if `signal` fires first. */
  turn(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(cancelled());
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.#waiting.indexOf(waiter);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(cancelled());
      };
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(waiter);
      this.#startWhatMay();
    });
  }

  /** Starts waiters while the window has room; otherwise sleeps until its oldest start leaves it. */
  #startWhatMay(): void {
    if (this.#sleeping) return;
    while (this.#waiting.length > 0) {
      const now = this.#now();
      while (this.#starts.length > 0 && this.#starts[0]! <= now - this.windowMs) this.#starts.shift();
      if (this.#starts.length < this.maxPerWindow) {
        this.#starts.push(now);
        this.#waiting.shift()!.start();
        continue;
      }
      this.#sleeping = true;
      const wake = (): void => {
        this.#sleeping = false;
        this.#startWhatMay();
      };
      void this.#sleep(this.#starts[0]! + this.windowMs - now).then(wake, wake);
      return;
    }
  }
}

function cancelled(): CallCancelledError {
  return new CallCancelledError("The call was cancelled while it waited its turn under intervals.icu's rate limit; nothing was sent.");
}
