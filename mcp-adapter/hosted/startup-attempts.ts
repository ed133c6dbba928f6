/**
 * The hosted function's start-up (reading its secrets and settings, lambda-handler.ts), run on an
 * instance's first request and kept once it succeeds. A failed start-up is tried again at most once per
 * `retryAfterMs`, not on every request: anybody can call the function, and each attempt is a Secrets
 * Manager call that an anonymous flood would otherwise multiply (cost, and the account's API quota).
 * Requests that arrive while an attempt is under way wait for it.
 */
export interface StartupAttempts<T> {
  /** The started value, or undefined when the start-up failed (now, or less than `retryAfterMs` ago). */
  ready(): Promise<T | undefined>;
  /** Seconds until the next attempt may be made (for Retry-After); 0 when one may be made now. */
  secondsUntilRetry(): number;
}

export function createStartupAttempts<T>(options: {
  start: () => Promise<T>;
  retryAfterMs: number;
  now: () => number;
  /** Called once per failed attempt, with what failed (for the log). */
  onFailure: (error: unknown) => void;
}): StartupAttempts<T> {
  let started: T | undefined;
  let attempt: Promise<T | undefined> | undefined;
  let failedAtMs: number | undefined;

  const secondsUntilRetry = (): number =>
    failedAtMs === undefined ? 0 : Math.max(0, Math.ceil((failedAtMs + options.retryAfterMs - options.now()) / 1000));

  return {
    ready: () => {
      if (started !== undefined) return Promise.resolve(started);
      if (attempt !== undefined) return attempt;
      if (secondsUntilRetry() > 0) return Promise.resolve(undefined);
      attempt = options.start().then(
        (value) => {
          started = value;
          failedAtMs = undefined;
          attempt = undefined;
          return value;
        },
        (error: unknown) => {
          failedAtMs = options.now();
          attempt = undefined;
          options.onFailure(error);
          return undefined;
        },
      );
      return attempt;
    },
    secondsUntilRetry,
  };
}
