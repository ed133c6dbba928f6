/**
 * Request body bytes in memory at once, across every request: bounded.
 *
 * Each POST /mcp reserves its declared Content-Length before a byte of its body is read (a chunked body
 * reserves chunk by chunk as it arrives). While the budget is spent, further bodies wait unread (TCP flow
 * control holds the client back) until earlier ones are answered, and a body still waiting after
 * `maxWaitMs` is refused with 503. Without it, ten clients each sending a 39 MiB upload at once make the
 * server hold all of them (and their decoded copies) together. Requests that fit go ahead of a large
 * one that does not, so everyday calls keep flowing while an upload waits.
 */
import type { IncomingMessage } from "node:http";

/** 40 MiB: a 25 MB file (the upload tool's limit) is about 35 MB as base64, plus the JSON-RPC envelope. */
export const maxRequestBodyBytes = 40 * 1024 * 1024;

/** One largest body plus room for everyday calls beside it. */
export const defaultBodyBudgetBytes = maxRequestBodyBytes + 8 * 1024 * 1024;

export const defaultBodyWaitMs = 30_000;

interface Waiter {
  readonly bytes: number;
  readonly grant: () => void;
}

export class BodyBudget {
  readonly capacity: number;
  readonly maxWaitMs: number;
  #used = 0;
  readonly #waiting = new Set<Waiter>();

  constructor(options: { capacity?: number; maxWaitMs?: number } = {}) {
    this.capacity = options.capacity ?? defaultBodyBudgetBytes;
    this.maxWaitMs = options.maxWaitMs ?? defaultBodyWaitMs;
  }

  /** Bytes reserved right now (for tests and the benchmark). */
  get used(): number {
    return this.#used;
  }

  /**
   * Resolves true once `bytes` are reserved; false when `signal` aborts first (the client left, or the
   * wait ran out). A reservation larger than the whole budget is never granted.
   */
  async reserve(bytes: number, signal: AbortSignal): Promise<boolean> {
    if (this.tryReserve(bytes)) return true;
    if (bytes > this.capacity || signal.aborted) return false;
    const { promise, resolve } = Promise.withResolvers<boolean>();
    const waiter: Waiter = {
      bytes,
      grant: () => {
        signal.removeEventListener("abort", onAbort);
        resolve(true);
      },
    };
    const onAbort = (): void => {
      this.#waiting.delete(waiter);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    this.#waiting.add(waiter);
    this.#grantWaiting();
    return promise;
  }

  /** Reserves `bytes` if they fit now and nobody is waiting; never waits. */
  tryReserve(bytes: number): boolean {
    if (this.#waiting.size > 0 || this.#used + bytes > this.capacity) return false;
    this.#used += bytes;
    return true;
  }

  release(bytes: number): void {
    this.#used -= bytes;
    this.#grantWaiting();
  }

  /** Grants, in arrival order, every waiting reservation that fits. */
  #grantWaiting(): void {
    for (const waiter of this.#waiting) {
      if (this.#used + waiter.bytes > this.capacity) continue;
      this.#waiting.delete(waiter);
      this.#used += waiter.bytes;
      waiter.grant();
    }
  }
}

/**
 * The request as the SDK's Node adapter reads it (`toNodeHandler` takes any async iterable with the
 * request's method, URL and headers), with a chunked body's bytes reserved as they arrive. `release`
 * gives back everything reserved; call it when the exchange ends. Undefined when the budget was not
 * granted (`left` aborted: the client went away, or the wait ran out).
 */
export async function meteredRequest(
  request: IncomingMessage,
  budget: BodyBudget,
  left: AbortSignal,
): Promise<{ request: IncomingMessage; release: () => void } | undefined> {
  const declared = request.headers["content-length"] === undefined ? undefined : Number(request.headers["content-length"]);
  let held = declared ?? 0;
  if (!budget.tryReserve(held) && !(await budget.reserve(held, AbortSignal.any([left, AbortSignal.timeout(budget.maxWaitMs)])))) {
    return undefined;
  }
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    budget.release(held);
  };
  if (declared !== undefined) return { request, release };
  const chunks = request[Symbol.asyncIterator].bind(request);
  const metered = Object.assign(Object.create(request) as IncomingMessage, {
    async *[Symbol.asyncIterator]() {
      for await (const chunk of chunks()) {
        const bytes = (chunk as Buffer).length;
        if (!budget.tryReserve(bytes) && !(await budget.reserve(bytes, left)))
          throw new Error("the client left while its body waited for memory");
        if (released) budget.release(bytes);
        else held += bytes;
        yield chunk;
      }
    },
  });
  return { request: metered, release };
}
