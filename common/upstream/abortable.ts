/** Waiting for shared work (one refresh, one athlete lookup) with one caller's cancellation. */
import { CallCancelledError } from "./upstream-errors.ts";

/** Waits for `promise`, or rejects as soon as `signal` fires (the promise itself keeps running). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new CallCancelledError("The call was cancelled before it finished."));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new CallCancelledError("The call was cancelled before it finished."));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
