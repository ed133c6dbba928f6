/**
 * When checks run: a timer set from each check's outcome (the interval, the end of quiet hours, the reset of
 * a read window, a back-off), one check at a time. The first check comes shortly after the gateway starts
 * (channels are still connecting), so activities that arrived while it was down are debriefed without
 * waiting a whole interval. While debriefs are off no list is read: the record alone is looked at again
 * every minute (or interval, if shorter), so the athlete's "on" is taken up even when it was said to
 * another copy of the plugin; a switch said in this process checks at once.
 */
import type { Logger } from "../../common/logger.ts";
import type { CheckOutcome, DebriefWatch } from "./debrief-watch.ts";
import { processWide } from "./process-wide.ts";

/** The wait before the first check after a start (or the interval, if shorter). */
export const firstCheckDelayMs = 30_000;
/** While off: how often the record is read again for the athlete's choice (or the interval, if shorter). */
export const offRecheckMs = 60_000;
/** After a check that could not run to the end (a bug, a full disk): try again this much later. */
const afterErrorMs = 15 * 60_000;

export interface DebriefScheduleDeps {
  watch: DebriefWatch;
  logger: Logger;
  now: () => number;
  /** Each check's outcome (tests and benchmarks watch them). */
  onOutcome?: (outcome: CheckOutcome) => void;
}

export class DebriefSchedule {
  readonly #deps: DebriefScheduleDeps;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;
  /** A check was asked for while one ran: run another right after it. */
  #again = false;
  readonly #switched = (): void => this.poke();

  constructor(deps: DebriefScheduleDeps) {
    this.#deps = deps;
  }

  async start(): Promise<void> {
    this.#stopped = false;
    processWide().switched.add(this.#switched);
    const plan = await this.#deps.watch.plan();
    this.#deps.logger.info(plan.on ? "debriefs_on" : "debriefs_off", { every_ms: plan.intervalMs, decided_by: plan.decidedBy });
    this.#at(this.#deps.now() + Math.min(plan.on ? firstCheckDelayMs : offRecheckMs, plan.intervalMs));
  }

  /** Check now (the athlete turned debriefs on or off). */
  poke(): void {
    if (this.#stopped) return;
    if (this.#running) this.#again = true;
    else this.#at(this.#deps.now());
  }

  /** No further checks; waits for one in progress and its writes. */
  async stop(): Promise<void> {
    this.#stopped = true;
    processWide().switched.delete(this.#switched);
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  #at(atMs: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#run(), Math.max(0, atMs - this.#deps.now()));
    this.#timer.unref();
  }

  #run(): void {
    this.#timer = undefined;
    if (this.#stopped || this.#running) return;
    this.#running = this.#deps.watch
      .check()
      .then((outcome) => {
        this.#deps.onOutcome?.(outcome);
        if (this.#stopped) return;
        if (this.#again) this.#at(this.#deps.now());
        else if (outcome.kind !== "off") this.#at(outcome.nextAtMs);
        else
          void this.#deps.watch
            .plan()
            .then((plan) => this.#stopped || this.#at(this.#deps.now() + Math.min(offRecheckMs, plan.intervalMs)));
      })
      .catch((error: unknown) => {
        this.#deps.logger.error("debrief_check_error", { error });
        if (!this.#stopped) this.#at(this.#deps.now() + afterErrorMs);
      })
      .finally(() => {
        this.#running = undefined;
        this.#again = false;
      });
  }
}
