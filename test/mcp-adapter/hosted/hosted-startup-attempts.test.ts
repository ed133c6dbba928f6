/**
 * The hosted function's start-up attempts (mcp-adapter/hosted/startup-attempts.ts) on the suite's manual
 * clock: a failure is tried again only after 30 s, however many requests come meanwhile; requests during
 * an attempt share it; a success is kept.
 */
import { describe, expect, it } from "vitest";
import { createStartupAttempts } from "../../../mcp-adapter/hosted/startup-attempts.ts";
import { manualClock } from "../../support/test-clock.ts";

describe("start-up attempts of the hosted function", () => {
  it("a failed start-up is tried again at most once per 30 s, and a success is kept", async () => {
    const clock = manualClock();
    let attempts = 0;
    let healthy = false;
    const failures: unknown[] = [];
    const startup = createStartupAttempts({
      start: async () => {
        attempts++;
        if (!healthy) throw new Error("ResourceNotFoundException: Secrets Manager can't find the specified secret.");
        return "handler";
      },
      retryAfterMs: 30_000,
      now: clock.now,
      onFailure: (error) => failures.push(error),
    });

    // Requests arriving together share one attempt.
    expect(await Promise.all([startup.ready(), startup.ready(), startup.ready()])).toEqual([undefined, undefined, undefined]);
    expect(attempts).toBe(1);
    expect(failures).toHaveLength(1);
    expect(startup.secondsUntilRetry()).toBe(30);

    for (let request = 0; request < 50; request++) {
      clock.advance(500);
      expect(await startup.ready()).toBeUndefined();
    }
    expect(attempts).toBe(1);
    expect(startup.secondsUntilRetry()).toBe(5);

    healthy = true;
    clock.advance(4_999);
    expect(await startup.ready()).toBeUndefined();
    expect(attempts).toBe(1);
    clock.advance(1);
    expect(await startup.ready()).toBe("handler");
    expect(attempts).toBe(2);
    healthy = false;
    clock.advance(3_600_000);
    expect(await startup.ready()).toBe("handler");
    expect(attempts).toBe(2);
    expect(failures).toHaveLength(1);
  });
});
