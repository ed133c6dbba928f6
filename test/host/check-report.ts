/**
 * Pass/fail bookkeeping for the host checks: one line per check on standard output, with its time,
 * and a summary. A check is an async function that throws (an `assert` failure or any error) to fail.
 */
export interface CheckOutcome {
  name: string;
  passed: boolean;
  ms: number;
  detail?: string;
}

export class CheckReport {
  readonly outcomes: CheckOutcome[] = [];

  /** Runs one check and records it; never throws. Returns whether it passed. */
  async check(name: string, body: () => Promise<string | void>): Promise<boolean> {
    const started = performance.now();
    try {
      const detail = await body();
      this.record({ name, passed: true, ms: performance.now() - started, ...(detail ? { detail } : {}) });
      return true;
    } catch (error) {
      this.record({ name, passed: false, ms: performance.now() - started, detail: describe(error) });
      return false;
    }
  }

  /** A check that could not run because an earlier one it depends on failed. */
  blocked(name: string, because: string): void {
    this.record({ name, passed: false, ms: 0, detail: `not run: ${because}` });
  }

  note(line: string): void {
    console.log(`      ${line}`);
  }

  get failed(): number {
    return this.outcomes.filter((outcome) => !outcome.passed).length;
  }

  summary(totalMs: number): string {
    const passed = this.outcomes.length - this.failed;
    return `${this.failed === 0 ? "PASS" : "FAIL"}: ${passed} of ${this.outcomes.length} host checks passed in ${(totalMs / 1000).toFixed(1)} s`;
  }

  private record(outcome: CheckOutcome): void {
    this.outcomes.push(outcome);
    const time = `(${(outcome.ms / 1000).toFixed(1)} s)`;
    const detail = outcome.detail ? `\n      ${outcome.detail.split("\n").join("\n      ")}` : "";
    console.log(`${outcome.passed ? "PASS" : "FAIL"}  ${outcome.name} ${time}${detail}`);
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // assert's messages already say what differed; keep them, drop stacks.
  return error.message.length > 2000 ? `${error.message.slice(0, 2000)} ...` : error.message;
}
