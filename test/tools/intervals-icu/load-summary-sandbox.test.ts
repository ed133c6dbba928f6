/**
 * get_activities with summary: true on intervals.icu, through the real core against the sandbox's intervals.icu face
 * (the network edge), on the suite's clock: fitness, fatigue and ramp rate are the wellness record of the last date;
 * the days, the trend and form are the records' own; the weeks are the sums of the activities intervals.icu lists;
 * the readiness numbers are their formulas over the wellness answer, skipped days counted; two requests besides
 * the athlete's time zone; the same shape as Strava's answer on the same athlete. The expected values are computed
 * here from intervals.icu's own answers, fetched from the face directly.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIntervalsToolDeps } from "../../../tools/runner/intervals-tool-deps.ts";
import { intervalsToolTable } from "../../../tools/intervals-icu/table.ts";
import { runTool } from "../../../tools/runner/run-tool.ts";
import { silentLogger } from "../../../common/logger.ts";
import type { IntervalsLoadAnswer, StravaLoadAnswer } from "../../../tools/training-load/training-load-answer.ts";
import { fileBackedCore, textOf } from "../../support/core-harness.ts";
import { openSession, type SandboxSession } from "../../sandbox/sandbox-client.ts";
import { manualClock, testNow } from "../../support/test-clock.ts";
import { addDays, daysBetween, mondayOf } from "../../support/training-load-reference.ts";

/** testNow is Saturday 2026-11-21, 15:37 in Boulder. */
const today = "2026-11-21";
const clock = manualClock(testNow);
let session: SandboxSession;
type Wellness = Record<string, number | string | null | undefined> & { id: string };
type Listed = Record<string, unknown> & { id: string; start_date_local: string };

const call = async (args: Record<string, unknown>) => {
  const deps = createIntervalsToolDeps({
    settings: { apiKey: session.sandbox.intervalsApiKey, athleteId: "0", apiBase: session.sandbox.intervalsApiBase },
    keyAdvice: "set INTERVALS_API_KEY",
    logger: silentLogger,
    now: clock.now,
  });
  session.sandbox.resetCounters();
  const result = await runTool(
    intervalsToolTable.find((tool) => tool.name === "get_activities")!,
    args,
    deps,
  );
  return { result, requests: session.sandbox.counters().byRoute };
};

/** intervals.icu's own answer, from the face directly (not through the tools). */
async function face<T>(path: string): Promise<T> {
  const response = await fetch(`${session.sandbox.intervalsApiBase}${path}`, {
    headers: { authorization: `Basic ${Buffer.from(`API_KEY:${session.sandbox.intervalsApiKey}`).toString("base64")}` },
  });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

let twelve: IntervalsLoadAnswer;
let twelveText: string;
let twelveRequests: Record<string, number>;
let week: IntervalsLoadAnswer;
let wellness: Map<string, Wellness>;
let listed: Listed[];
let strava: StravaLoadAnswer;

beforeAll(async () => {
  session = await openSession({ clock: clock.now, rotateRefreshTokens: false });
  const twelveCall = await call({ summary: true });
  expect(twelveCall.result.isError, textOf(twelveCall.result)).toBeUndefined();
  twelveText = textOf(twelveCall.result);
  twelve = JSON.parse(twelveText) as IntervalsLoadAnswer;
  twelveRequests = twelveCall.requests;
  week = JSON.parse(textOf((await call({ summary: true, oldest: addDays(today, -6) })).result)) as IntervalsLoadAnswer;
  const records = await face<Wellness[]>(`/athlete/0/wellness?oldest=${addDays(today, -200)}&newest=${today}`);
  wellness = new Map(records.map((record) => [record.id, record]));
  listed = await face<Listed[]>(`/athlete/0/activities?oldest=${twelve.window.first}&newest=${today}T23:59:59`);

  const core = await fileBackedCore({
    credentials: {
      client_id: session.sandbox.clientId,
      client_secret: session.sandbox.clientSecret,
      refresh_token: session.sandbox.refreshToken(),
    },
    settings: { apiBase: session.sandbox.apiBase, tokenUrl: session.sandbox.tokenUrl },
    now: clock.now,
  });
  strava = JSON.parse(textOf(await core.call("get_activities", { summary: true }))) as StravaLoadAnswer;
  await core.cleanup();
});
afterAll(async () => {
  await session?.sandbox.close();
});

const record = (date: string): Wellness => {
  const found = wellness.get(date);
  expect(found, `a wellness record for ${date}`).toBeDefined();
  return found!;
};
const num = (value: unknown): number => {
  expect(typeof value).toBe("number");
  return value as number;
};
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits + 0;

describe("the default window on intervals.icu", () => {
  it("is the twelve calendar weeks to the athlete's today, from two requests besides the athlete's time zone", () => {
    expect(twelve.window).toMatchObject({
      first: "2026-08-31",
      last: today,
      time_zone: "America/Denver",
      history_from: addDays("2026-08-31", -28),
      upstream_requests: 2,
      complete: true,
    });
    expect(twelveRequests).toEqual({
      "intervals.icu GET /athlete/{id}": 1,
      "intervals.icu GET /athlete/{id}/activities": 1,
      "intervals.icu GET /athlete/{id}/wellness": 1,
    });
    expect(twelve.weeks).toHaveLength(12);
    expect(twelveText).not.toMatch(/\n/);
  });

  it("reports intervals.icu's own fitness, fatigue and ramp rate: the wellness record of the last date", () => {
    const last = record(today);
    expect(twelve.load.fitness).toBe(round(num(last["ctl"]), 1));
    expect(twelve.load.fatigue).toBe(round(num(last["atl"]), 1));
    expect(twelve.load.ramp_rate).toBe(round(num(last["rampRate"]), 1));
    // Not the athlete's own 1-4 fatigue score of that morning.
    expect(twelve.load.fatigue).toBeGreaterThan(4);
    expect(twelve.load_source).toEqual({
      log: "intervals.icu",
      icu_training_load: listed.filter((item) => item["source"] !== "STRAVA" && typeof item["icu_training_load"] === "number").length,
      without_load: listed.filter((item) => item["source"] !== "STRAVA" && typeof item["icu_training_load"] !== "number").length,
      strava_stubs: listed.filter((item) => item["source"] === "STRAVA").length,
      wellness_days: {
        with_record: daysBetween(twelve.window.history_from, today) + 1,
        of: daysBetween(twelve.window.history_from, today) + 1,
      },
    });
    expect(twelve.load_source.strava_stubs).toBeGreaterThan(0);
  });

  it("days are each date's ctlLoad; the trend, form and form percent are the records' ctl and atl by the answer's formulas", () => {
    twelve.days.loads.forEach((load, index) =>
      expect(load, addDays(twelve.days.first, index)).toBe(num(record(addDays(twelve.days.first, index))["ctlLoad"])),
    );
    const ctl = (date: string) => num(record(date)["ctl"]);
    const atl = (date: string) => num(record(date)["atl"]);
    const dates = Array.from({ length: 28 }, (_, index) => addDays(today, index - 27));
    expect(twelve.trend.first).toBe(dates[0]);
    expect(twelve.trend.fitness).toEqual(dates.map((date) => Math.round(ctl(date)) + 0));
    expect(twelve.trend.fatigue).toEqual(dates.map((date) => Math.round(atl(date)) + 0));
    expect(twelve.trend.form).toEqual(dates.map((date) => Math.round(ctl(addDays(date, -1)) - atl(addDays(date, -1))) + 0));
    expect(twelve.trend.start).toEqual({
      fitness: round(ctl(addDays(twelve.window.first, -1)), 1),
      fatigue: round(atl(addDays(twelve.window.first, -1)), 1),
    });
    const yesterday = addDays(today, -1);
    expect(twelve.load.form).toBe(round(ctl(yesterday) - atl(yesterday), 1));
    expect(twelve.load.form_percent).toBe(Math.round(((ctl(yesterday) - atl(yesterday)) / ctl(yesterday)) * 100));
    // The ratio over the ctlLoads of the last 7 and 28 dates.
    const loads = (count: number) => Array.from({ length: count }, (_, index) => num(record(addDays(today, -index))["ctlLoad"]));
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    expect(twelve.load.acute_chronic_ratio).toBe(round(sum(loads(7)) / 7 / (sum(loads(28)) / 28), 2));
  });

  it("weeks are the sums of the activities intervals.icu lists, per type; its Strava stubs are counted, not summed", () => {
    const whole = listed.filter((item) => item["source"] !== "STRAVA");
    expect(twelve.window.activities).toBe(listed.length);
    for (const summary of twelve.weeks) {
      const inWeek = whole.filter((item) => mondayOf(item.start_date_local.slice(0, 10)) === summary.week);
      const totals = (items: Listed[]) => ({
        count: items.length,
        distance: Math.round(items.reduce((s, item) => s + Math.round(num(item["distance"] ?? 0) * 10), 0) / 10),
        moving_time: items.reduce((s, item) => s + num(item["moving_time"] ?? 0), 0),
        elevation_gain: Math.round(items.reduce((s, item) => s + Math.round(num(item["total_elevation_gain"] ?? 0) * 10), 0) / 10),
        load: items.reduce((s, item) => s + num(item["icu_training_load"] ?? 0), 0),
      });
      expect(summary.total, summary.week).toEqual(totals(inWeek));
      for (const [type, columns] of Object.entries(summary.sports)) {
        const expected = totals(inWeek.filter((item) => item["type"] === type));
        expect(columns, `${summary.week} ${type}`).toEqual(twelve.sport_columns.map((key) => expected[key]));
      }
      // A day with only a stub on it was a training day, not a rest day.
      const trained = new Set(
        listed
          .filter((item) => mondayOf(item.start_date_local.slice(0, 10)) === summary.week)
          .map((item) => item.start_date_local.slice(0, 10)),
      );
      expect(summary.rest_days, summary.week).toBe(summary.days - trained.size);
    }
    expect(twelve.notes.join(" ")).toContain(
      `${twelve.load_source.strava_stubs} of the window's activities reached intervals.icu from Strava`,
    );
  });
});

describe("readiness_trend on intervals.icu", () => {
  /** The formulas, over the wellness answer: means of the dates with a value, the sample deviation of the baseline's. */
  function expected(field: string, lastDate: string) {
    const values = (from: number, count: number) =>
      Array.from({ length: count }, (_, index) => record(addDays(lastDate, from + index))[field]).filter(
        (value): value is number => typeof value === "number",
      );
    const recent = values(-6, 7);
    const baseline = values(-34, 28);
    const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
    const sd = Math.sqrt(baseline.reduce((s, value) => s + (value - mean(baseline)) ** 2, 0) / (baseline.length - 1));
    return { recent, baseline, mean7: mean(recent), mean28: mean(baseline), sd, difference: (mean(recent) - mean(baseline)) / sd };
  }

  it("gives each signal's 7-day mean, the 28-day mean and deviation before it and the difference in deviations: their formulas", () => {
    const trend = twelve.readiness_trend;
    expect(trend.last_7d).toEqual({ first: addDays(today, -6), last: today });
    expect(trend.baseline_28d).toEqual({ first: addDays(today, -34), last: addDays(today, -7) });
    for (const [field, digits] of [
      ["hrv", 1],
      ["restingHR", 1],
      ["sleepSecs", 0],
    ] as const) {
      const want = expected(field, today);
      expect(trend[field], field).toEqual({
        mean_7d: round(want.mean7, digits),
        skipped_7d: 7 - want.recent.length,
        mean_28d: round(want.mean28, digits),
        sd_28d: round(want.sd, digits),
        skipped_28d: 28 - want.baseline.length,
        difference_sd: round(want.difference, 2),
      });
    }
  });

  it("skips the mornings the watch recorded nothing, and counts them", () => {
    const trend = twelve.readiness_trend;
    const missing = Array.from({ length: 28 }, (_, index) => addDays(today, -34 + index)).filter((date) => record(date)["hrv"] === null);
    // The sandbox leaves a few mornings without watch data, as real logs have them: the count must be theirs, and not 0.
    expect(missing.length).toBeGreaterThan(0);
    expect(trend.hrv.skipped_28d).toBe(missing.length);
    expect(trend.restingHR.skipped_28d).toBe(missing.length);
  });

  it("shows the sandbox's spike in the mornings: HRV below the athlete's usual, resting heart rate above it", () => {
    expect(twelve.readiness_trend.hrv.difference_sd!).toBeLessThan(-0.5);
    expect(twelve.readiness_trend.restingHR.difference_sd!).toBeGreaterThan(0.5);
  });

  it("is the same for a one-week window, whose wellness request reaches back to the baseline's first date", () => {
    expect(week.window).toMatchObject({ first: addDays(today, -6), last: today, history_from: addDays(today, -34), upstream_requests: 2 });
    expect(week.readiness_trend).toEqual(twelve.readiness_trend);
    const { longest_run_without_rest: _a, ...weekNumbers } = week.load;
    const { longest_run_without_rest: _b, ...twelveNumbers } = twelve.load;
    expect(weekNumbers).toEqual(twelveNumbers);
    expect(week.trend).toMatchObject({ first: twelve.trend.first, fitness: twelve.trend.fitness, form: twelve.trend.form });
    expect(week.days.loads).toEqual(twelve.days.loads.slice(daysBetween(twelve.days.first, week.days.first)));
  });
});

describe("the same shape as Strava's answer", () => {
  const shape = (value: unknown): unknown =>
    Array.isArray(value)
      ? "array"
      : typeof value === "object" && value !== null
        ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shape(inner)]))
        : value === null
          ? "number"
          : typeof value;

  it("has every key Strava's has, in the same order, each of the same kind (load_source aside), and readiness_trend beside them", () => {
    const { readiness_trend: readiness, load_source: icuSource, ...icu } = twelve;
    const { load_source: stravaSource, ...onStrava } = strava;
    expect(shape(icu)).toEqual(shape(onStrava));
    expect(Object.keys(twelve)).toEqual([...Object.keys(strava).slice(0, -1), "readiness_trend", "notes"]);
    expect(readiness).toBeDefined();
    expect(icuSource).toMatchObject({ log: "intervals.icu" });
    expect("log" in stravaSource).toBe(false);
    expect(twelve.sport_columns).toEqual(strava.sport_columns);
  });
});

describe("arguments on intervals.icu", () => {
  it("refuses limit and fields with summary, a window that has not begun, and more than 366 days, before anything is sent", async () => {
    for (const [args, message] of [
      [{ summary: true, limit: 5 }, "limit does not apply with summary: true"],
      [{ summary: true, fields: ["id"] }, "fields does not apply with summary: true"],
      [{ summary: true, oldest: addDays(today, 1) }, `oldest (${addDays(today, 1)}) is after the athlete's today (${today})`],
      [{ summary: true, oldest: addDays(today, -366) }, "The dates span 367 days"],
    ] as const) {
      const { result, requests } = await call(args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(result)).toContain(message);
      // The athlete's time zone may be read for today; nothing of the log's activities or wellness is.
      expect(Object.keys(requests).filter((route) => !route.endsWith("GET /athlete/{id}"))).toEqual([]);
    }
  });

  it("ends the window at the athlete's today when newest is later", async () => {
    const { result } = await call({ summary: true, oldest: addDays(today, -13), newest: addDays(today, 5) });
    expect((JSON.parse(textOf(result)) as IntervalsLoadAnswer).window).toMatchObject({ first: addDays(today, -13), last: today });
  });
});
