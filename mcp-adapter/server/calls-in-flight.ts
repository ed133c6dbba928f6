/**
 * Work still running (tool calls over stdio, HTTP exchanges), so that shutdown can let it finish and be
 * answered before anything it needs is closed.
 */
export class CallsInFlight {
  #running = 0;
  #idle: PromiseWithResolvers<void> | undefined;

  get running(): number {
    return this.#running;
  }

  /** Runs `work`, counted until it settles. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.begin();
    try {
      return await work();
    } finally {
      this.end();
    }
  }

  begin(): void {
    this.#running += 1;
  }

  end(): void {
    this.#running -= 1;
    if (this.#running === 0) {
      this.#idle?.resolve();
      this.#idle = undefined;
    }
  }

  /** Resolves true once nothing runs, or false if `graceMs` passes first. */
  async finished(graceMs: number): Promise<boolean> {
    if (this.#running === 0) return true;
    this.#idle ??= Promise.withResolvers<void>();
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), graceMs);
    });
    try {
      return await Promise.race([this.#idle.promise.then(() => true as const), graceOver]);
    } finally {
      clearTimeout(timer);
    }
  }
}
