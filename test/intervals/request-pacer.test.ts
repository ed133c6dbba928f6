/**
 * The pacer keeps intervals.icu's stated limit, 10 requests a second from one address: a burst of ten starts at
 * once, the eleventh a second after the first, in the order asked, on the test's own clock (no waiting).
 */
import { describe, expect, it } from "vitest";
import { RequestPacer } from "../../intervals/request-pacer.ts";
import { CallCancelledError } from "../../common/upstream/upstream-errors.ts";
import { manualClock } from "../support/test-clock.ts";

function pacedClock() {
  const clock = manualClock();
  const sleeps: number[] = [];
  const pacer = new RequestPacer({
    now: clock.now,
    // The wait ends on a later turn of the event loop, as a timer would: what started before it has run first.
    sleep: (ms) =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          sleeps.push(ms);
          clock.advance(ms);
          resolve();
        }),
      ),
  });
  return { clock, sleeps, pacer };
}

describe("the request pacer", () => {
  it("starts ten at once and the eleventh one second after the first, in order", async () => {
    const { clock, pacer } = pacedClock();
    const start = clock.now();
    const started: Array<{ call: number; at: number }> = [];
    await Promise.all(Array.from({ length: 11 }, (_, call) => pacer.turn().then(() => started.push({ call, at: clock.now() - start }))));
    expect(started.map((entry) => entry.call)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(started.slice(0, 10).every((entry) => entry.at === 0)).toBe(true);
    expect(started[10]!.at).toBe(1000);
  });

  it("never lets more than ten start within any second over a long run", async () => {
    const { clock, pacer } = pacedClock();
    const starts: number[] = [];
    await Promise.all(Array.from({ length: 95 }, () => pacer.turn().then(() => starts.push(clock.now()))));
    for (const at of starts) expect(starts.filter((other) => other >= at && other < at + 1000).length).toBeLessThanOrEqual(10);
    expect(starts.at(-1)! - starts[0]!).toBe(9000);
  });

  it("lets a caller that gives up leave the queue without a turn, and the next one takes its place", async () => {
    const { clock, pacer } = pacedClock();
    await Promise.all(Array.from({ length: 10 }, () => pacer.turn()));
    const controller = new AbortController();
    const abandoned = pacer.turn(controller.signal);
    controller.abort();
    await expect(abandoned).rejects.toThrow(CallCancelledError);
    await expect(abandoned).rejects.toThrow("cancelled while it waited its turn under intervals.icu's rate limit; nothing was sent");
    const before = clock.now();
    await pacer.turn();
    expect(clock.now() - before).toBe(1000);
  });

  it("refuses at once a caller already cancelled", async () => {
    const { pacer } = pacedClock();
    await expect(pacer.turn(AbortSignal.abort())).rejects.toThrow(CallCancelledError);
  });
});
