/**
 * intervals.icu's tool dependencies at the network edge (undici's MockAgent under the real HTTP exchange): nothing
 * is sent while they are built; the athlete's today is read once per process from the time zone intervals.icu
 * holds for them; the key's health is unchecked, then refused (with what to do) on a refusal of the key, a 403 on
 * somebody else's record saying nothing of it, then ok again; shutdown has nothing to wait for.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHttpSender } from "../../../common/upstream/http-exchange.ts";
import { silentLogger } from "../../../common/logger.ts";
import { createIntervalsToolDeps } from "../../../tools/runner/intervals-tool-deps.ts";
import { runTool } from "../../../tools/runner/run-tool.ts";
import { intervalsToolTable } from "../../../tools/intervals-icu/table.ts";
import { intervalsApiBase, mockIntervals, type IntervalsMock } from "../../support/intervals-mock.ts";
import { manualClock, testNow } from "../../support/test-clock.ts";

let mock: IntervalsMock;
beforeEach(() => {
  mock = mockIntervals();
});
afterEach(async () => {
  await mock.close();
});

const tool = (name: string) => intervalsToolTable.find((candidate) => candidate.name === name)!;

function deps(clock = manualClock(testNow)) {
  return createIntervalsToolDeps({
    settings: { apiKey: "k".repeat(25), athleteId: "0", apiBase: intervalsApiBase },
    keyAdvice: "intervals.icu refused the API key in INTERVALS_API_KEY: set it and start again.",
    logger: silentLogger,
    http: createHttpSender({ dispatcher: mock.agent }),
    now: clock.now,
  });
}

describe("intervals.icu's tool dependencies", () => {
  it("send nothing while built, and read the athlete's time zone once for every call's today", async () => {
    const built = deps();
    expect(mock.requests()).toBe(0);
    expect(built.log).toBe("intervals.icu");
    mock.intervals.intercept({ path: "/api/v1/athlete/0", method: "GET" }).reply(200, { id: "i1", timezone: "America/Denver" });
    // testNow is 22:37 UTC on 21 November: 15:37 the same day in Denver.
    for (const _ of [1, 2]) {
      mock.intervals
        .intercept({ path: "/api/v1/athlete/0/wellness?oldest=2026-10-25&newest=2026-11-21", method: "GET" })
        .reply(200, [{ id: "2026-11-21" }]);
      const result = await runTool(tool("get_wellness"), {}, built);
      expect(result.isError).toBeUndefined();
    }
    expect(mock.requests()).toBe(3);
  });

  it("say the key is refused on a refusal of it, not on a 403 about one record, and ok again after a success", async () => {
    const built = deps();
    expect(await built.credentials.health()).toMatchObject({ state: "unchecked" });

    mock.intervals.intercept({ path: "/api/v1/activity/i9", method: "GET" }).reply(403, { status: 403, error: "Access denied" });
    expect((await runTool(tool("get_activity_by_id"), { id: "i9" }, built)).isError).toBe(true);
    expect(await built.credentials.health()).toMatchObject({ state: "unchecked" });

    mock.intervals.intercept({ path: "/api/v1/athlete/0", method: "GET" }).reply(403, { status: 403, error: "Access denied" });
    expect((await runTool(tool("get_athlete"), {}, built)).isError).toBe(true);
    expect(await built.credentials.health()).toEqual({
      state: "needs_authorization",
      message: "intervals.icu refused the API key in INTERVALS_API_KEY: set it and start again.",
      since: new Date(testNow).toISOString(),
    });

    mock.intervals.intercept({ path: "/api/v1/athlete/0", method: "GET" }).reply(200, { id: "i1" });
    expect((await runTool(tool("get_athlete"), {}, built)).isError).toBeUndefined();
    expect(await built.credentials.health()).toMatchObject({ state: "ok" });
    expect(await built.credentials.settle()).toEqual({ lost: false });
  });
});
