/**
 * A deadline on every credential store call. The store gets an abort signal (the AWS SDK aborts its
 * request, a lock wait gives up) and the caller stops waiting when the time is up even if the store
 * ignores it (a file system that hangs cannot be interrupted). So a stuck store fails the calls
 * waiting on it with a clear error, and the next call starts afresh instead of queueing behind it.
 */
import { CredentialStoreTimeoutError } from "./credential-store.ts";

export { defaultStoreTimeoutMs } from "../common/settings/credential-variables.ts";

/** How long a store that was told to stop may take to say what it was waiting for. */
const explanationMs = 50;

export function withDeadline<T>(timeoutMs: number, describe: () => string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let timedOut = false;
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      finish();
    };
    let running: Promise<T>;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new CredentialStoreTimeoutError(describe()));
      const late = setTimeout(() => settle(() => reject(new CredentialStoreTimeoutError(describe()))), explanationMs);
      running.then(
        (value) => {
          clearTimeout(late);
          settle(() => resolve(value)); // it answered in the same moment after all
        },
        (error: unknown) => {
          clearTimeout(late);
          // A store that says more than "gave up" (a lock and its holder, say) keeps that in the message.
          const detail = error instanceof Error && !(error instanceof CredentialStoreTimeoutError) ? ` ${error.message}` : "";
          settle(() => reject(new CredentialStoreTimeoutError(`${describe()}${detail}`)));
        },
      );
    }, timeoutMs);
    try {
      running = work(controller.signal);
    } catch (error) {
      settle(() => reject(error as Error));
      return;
    }
    running.then(
      (value) => {
        if (!timedOut) settle(() => resolve(value));
      },
      (error: unknown) => {
        if (!timedOut) settle(() => reject(error as Error));
      },
    );
  });
}
