/**
 * get_activities with summary: true on intervals.icu at the network edge with exact answers (undici's MockAgent under
 * the real HTTP exchange): the two requests it sends, word for word; a date without a wellness record (fitness and
 * fatigue carried on by intervals.icu's recurrence, the answer marked incomplete, a note); mornings without a value
 * skipped and counted, and a baseline too thin to measure by; an answer that is not JSON named as intervals.icu's.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHttpSender } from "../../../common/upstream/http-exchange.ts";
import { silentLogger } from "../../../common/logger.ts";
import { createIntervalsToolDeps } from "../../../tools/runner/intervals-tool-deps.ts";
import { runTool } from "../../../tools/runner/run-tool.ts";
import { intervalsToolTable } from "../../../tools/intervals-icu/table.ts";
import type { IntervalsLoadAnswer } from "../../../tools/training-load/training-load-answer.ts";
import { intervalsApiBase, mockIntervals, type IntervalsMock } from "../../support/intervals-mock.ts";
import { manualClock, testNow } from "../../support/test-clock.ts";
import { addDays } from "../../support/training-load-reference.ts";

/** testNow is 15:37 on Saturday 21 November in Denver. */
const today = "2026-11-21";
const activityFields = "id,start_date_local,type,source,distance,moving_time,total_elevation_gain,icu_training_load";
const wellnessFields = "id,ctl,atl,rampRate,ctlLoad,hrv,restingHR,sleepSecs";

let mock: IntervalsMock;
beforeEach(() => {
  mock = mockIntervals();
  mock.intervals.intercept({ path: "/api/v1/athlete/0", method: "GET" }).reply(200, { id: "i1", timezone: "America/Denver" });
});
afterEach(async () => {
  await mock.close();
});

async function summary(args: Record<string, unknown>) {
  const deps = createIntervalsToolDeps({
    settings: { apiKey: "k".repeat(25), athleteId: "0", apiBase: intervalsApiBase },
    keyAdvice: "set INTERVALS_API_KEY",
    logger: silentLogger,
    http: createHttpSender({ dispatcher: mock.agent }),
    now: manualClock(testNow).now,
  });
  const result = await runTool(
    intervalsToolTable.find((tool) => tool.name === "get_activities")!,
    { summary: true, ...args },
    deps,
  );
  return { result, text: result.content[0].text };
}

/** A quiet athlete: one ride a day at load 50, fitness and fatigue settled at 50, mornings alike but for a little spread. */
function record(date: string, index: number): Record<string, unknown> {
  return {
    id: date,
    ctl: 50,
    atl: 50,
    rampRate: 0,
    ctlLoad: 50,
    hrv: 60 + (index % 3),
    restingHR: 50 + (index % 2),
    sleepSecs: 27_000 + 600 * (index % 4),
  };
}
const ride = (date: string, id: number) => ({
  id: `i${id}`,
  start_date_local: `${date}T07:00:00`,
  type: "Ride",
  source: "GARMIN_CONNECT",
  distance: 30_000,
  moving_time: 3600,
  total_elevation_gain: 200,
  icu_training_load: 50,
});

describe("the requests", () => {
  it("are the window's activities with the weeks' fields, then its wellness from 28 dates before it, in one request each", async () => {
    const first = addDays(today, -13);
    mock.intervals
      .intercept({ path: `/api/v1/athlete/0/activities?oldest=${first}&newest=${today}T23:59:59&fields=${activityFields}`, method: "GET" })
      .reply(200, [ride(today, 1)]);
    const dates = Array.from({ length: 14 + 28 }, (_, index) => addDays(first, index - 28));
    mock.intervals
      .intercept({
        path: `/api/v1/athlete/0/wellness?oldest=${addDays(first, -28)}&newest=${today}&fields=${wellnessFields}`,
        method: "GET",
      })
      .reply(200, dates.map(record));
    const { result, text } = await summary({ oldest: first });
    expect(result.isError, text).toBeUndefined();
    // The athlete's time zone, the activities, the wellness: nothing else.
    expect(mock.requests()).toBe(3);
    const answer = JSON.parse(text) as IntervalsLoadAnswer;
    expect(answer.window).toMatchObject({ first, last: today, history_from: addDays(first, -28), upstream_requests: 2, complete: true });
    expect(answer.load).toMatchObject({ fitness: 50, fatigue: 50, form: 0, form_percent: 0, ramp_rate: 0, acute_chronic_ratio: 1 });
  });
});

describe("gaps in intervals.icu's records", () => {
  it("carries fitness and fatigue over a date without a record by intervals.icu's recurrence with that date's listed load, and says so", async () => {
    const first = addDays(today, -6);
    const gap = addDays(today, -2);
    mock.intervals
      .intercept({ path: `/api/v1/athlete/0/activities?oldest=${first}&newest=${today}T23:59:59&fields=${activityFields}`, method: "GET" })
      .reply(200, [ride(gap, 7), { ...ride(gap, 8), icu_training_load: 70 }]);
    const dates = Array.from({ length: 35 }, (_, index) => addDays(today, index - 34));
    mock.intervals
      .intercept({ path: `/api/v1/athlete/0/wellness?oldest=${dates[0]}&newest=${today}&fields=${wellnessFields}`, method: "GET" })
      .reply(
        200,
        dates.map(record).filter((item) => item["id"] !== gap),
      );
    const answer = JSON.parse((await summary({ oldest: first })).text) as IntervalsLoadAnswer;
    expect(answer.window.complete).toBe(false);
    expect(answer.load_source.wellness_days).toEqual({ with_record: 34, of: 35 });
    // The gap's load is the two rides listed that day, 120; fitness and fatigue step from 50 by 1 - e^(-1/k).
    expect(answer.days.loads[answer.days.loads.length - 3]).toBe(120);
    expect(answer.trend.fitness.at(-3)).toBe(Math.round(50 + 70 * (1 - Math.exp(-1 / 42))));
    expect(answer.trend.fatigue.at(-3)).toBe(Math.round(50 + 70 * (1 - Math.exp(-1 / 7))));
    // The next date has its record again: intervals.icu's own numbers.
    expect(answer.trend.fitness.at(-2)).toBe(50);
    expect(answer.notes).toContain(
      `1 of the 35 dates from ${dates[0]} have no wellness record with fitness and fatigue; those dates carry them on by intervals.icu's recurrence from the day before, with the load of the activities listed that day.`,
    );
  });

  it("skips mornings without a value and counts them; a baseline with one value gives no deviation, and a note says why", async () => {
    const dates = Array.from({ length: 35 }, (_, index) => addDays(today, index - 34));
    mock.intervals
      .intercept({
        path: `/api/v1/athlete/0/activities?oldest=${addDays(today, -6)}&newest=${today}T23:59:59&fields=${activityFields}`,
        method: "GET",
      })
      .reply(200, []);
    mock.intervals
      .intercept({ path: `/api/v1/athlete/0/wellness?oldest=${dates[0]}&newest=${today}&fields=${wellnessFields}`, method: "GET" })
      .reply(
        200,
        dates.map((date, index) => {
          const item = record(date, index);
          // intervals.icu leaves empty values out when fields are named: no HRV on two of the last 7 mornings, and
          // resting heart rate on only one morning of the baseline.
          if (index === 30 || index === 33) delete item["hrv"];
          if (index !== 3 && index < 28) delete item["restingHR"];
          return item;
        }),
      );
    const answer = JSON.parse((await summary({ oldest: addDays(today, -6) })).text) as IntervalsLoadAnswer;
    const recentHrv = [28, 29, 31, 32, 34].map((index) => 60 + (index % 3));
    expect(answer.readiness_trend.hrv).toMatchObject({
      mean_7d: Math.round((recentHrv.reduce((a, b) => a + b, 0) / 5) * 10) / 10,
      skipped_7d: 2,
      skipped_28d: 0,
    });
    expect(answer.readiness_trend.restingHR).toEqual({
      mean_7d: expect.any(Number),
      skipped_7d: 0,
      mean_28d: 51,
      sd_28d: null,
      skipped_28d: 27,
      difference_sd: null,
    });
    expect(answer.notes).toContain("readiness_trend.restingHR: 1 values in the 28 dates before them; a baseline needs at least 2.");
  });
});

describe("an answer that is not intervals.icu's JSON", () => {
  it("is an error naming intervals.icu and the request, not Strava", async () => {
    mock.intervals
      .intercept({
        path: `/api/v1/athlete/0/activities?oldest=${addDays(today, -6)}&newest=${today}T23:59:59&fields=${activityFields}`,
        method: "GET",
      })
      .reply(200, "<html>Service unavailable</html>", { headers: { "content-type": "application/json" } });
    const { result, text } = await summary({ oldest: addDays(today, -6) });
    expect(result.isError).toBe(true);
    expect(text).toBe(
      "Error: intervals.icu answered GET /athlete/0/activities with 200, but the body is not complete JSON (cut off, or an error page). Nothing was changed by reading it; try again.",
    );
  });
});
