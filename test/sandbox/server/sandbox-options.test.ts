/**
 * sandbox/server/sandbox-options.ts: a sandbox's defaults, and a bad option refused before anything listens, naming
 * the option and what it takes.
 */
import { describe, expect, test } from "vitest";
import { checkedOptions } from "../../../sandbox/server/sandbox-options.ts";
import { startSandbox } from "../../../sandbox/server.ts";

describe("checkedOptions", () => {
  test("defaults: seed 7, Strava's limits, 6-hour tokens, 8 s upload processing, the real clock", () => {
    const checked = checkedOptions({});
    expect(checked).toMatchObject({
      seed: 7,
      limits: { overall: [200, 2000], read: [100, 1000] },
      tokenLifetimeSeconds: 21_600,
      uploadProcessingMs: 8_000,
    });
    expect(checked.clock).toBe(Date.now);
  });

  test("takes what it is given", () => {
    const clock = (): number => 5;
    expect(checkedOptions({ clock, seed: 3, rateLimits: { read: [1, 2] }, tokenLifetimeSeconds: 60, uploadProcessingMs: 0 })).toEqual({
      clock,
      seed: 3,
      limits: { overall: [200, 2000], read: [1, 2] },
      tokenLifetimeSeconds: 60,
      uploadProcessingMs: 0,
    });
  });

  test("names the option and what it takes when one is wrong", () => {
    expect(() => checkedOptions({ rateLimits: { overall: [1, -1] } })).toThrow(
      "Sandbox option rateLimits.overall must be [fifteenMinuteLimit, dailyLimit], two integers >= 0; got [1,-1].",
    );
    expect(() => checkedOptions({ rateLimits: { read: [1.5, 2] } })).toThrow(/rateLimits\.read must be/);
    expect(() => checkedOptions({ tokenLifetimeSeconds: 0 })).toThrow("Sandbox option tokenLifetimeSeconds must be a number > 0; got 0.");
    expect(() => checkedOptions({ uploadProcessingMs: -1 })).toThrow("Sandbox option uploadProcessingMs must be a number >= 0; got -1.");
  });

  test("startSandbox refuses a bad option, and an athlete it does not have, before it listens", async () => {
    await expect(startSandbox({ tokenLifetimeSeconds: Number.NaN })).rejects.toThrow(/tokenLifetimeSeconds/);
    await expect(startSandbox({ signInAs: 1 })).rejects.toThrow(
      /The sandbox has no athlete 1; it has 48201735 \(the second one only with secondAthlete/,
    );
    await expect(startSandbox({ keptGrants: [{ athleteId: 2, refreshToken: "r" }] })).rejects.toThrow(/no athlete 2/);
  });
});
