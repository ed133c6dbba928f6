/**
 * A deadline on every credential store call. The store gets an abort signal (the AWS SDK aborts its
 * request, a lock wait gives up) and the caller stops waiting when the time is up even if the store
 * ignores it (a file system that hangs cannot be interrupted). So a stuck store fails the calls
 * waiting on it with a clear error, and the next call starts afresh instead of queueing behind it.
 */
import { CredentialStoreTimeoutError } from "./credentials.ts";

export const defaultStoreTimeoutMs = 5_000;

export function withDeadline<T>(
  timeoutMs: number,
  describe: () => string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<T> | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort(new CredentialStoreTimeoutError(describe()));
      // A store that honours the signal says what it was waiting for (a lock and its holder, say): keep that.
      const said = running?.then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error.message : undefined),
      );
      void Promise.race([said, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 50))]).then((detail) => {
        reject(new CredentialStoreTimeoutError(detail ? `${describe()} ${detail}` : describe()));
      });
    }, timeoutMs);
  });
  expired.catch(() => {});
  try {
    running = work(controller.signal);
  } catch (error) {
    clearTimeout(timer);
    return Promise.reject(error as Error);
  }
  // When the deadline wins, the abandoned call may still fail later: that must not surface anywhere.
  running.catch(() => {});
  return Promise.race([running, expired]).finally(() => clearTimeout(timer));
}
