/**
 * get_activities with summary: true against the sandbox athlete (a year of training), through the real core:
 * the default twelve weeks, one week and 366 days, each checked against the activities the list tool returns
 * and against the formulas recomputed from the answers' own days (test/support/training-load-reference.ts):
 * fitness and fatigue from the whole history read, one load per activity whatever the window, the trend and
 * the ramp, and the three kinds of estimate. The sandbox and the core read the suite's pinned clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileBackedCore, textOf, type FileBackedCore } from "../support/core-harness.ts";
import { openSession, type SandboxSession } from "../sandbox/sandbox-client.ts";
import { manualClock, testNow } from "../support/test-clock.ts";
import {
  addDays,
  daysBetween,
  familyOf,
  mondayOf,
  referenceActivityLoads,
  referenceLoad,
  type AthleteSettings,
  type ListedActivity,
} from "../support/training-load-reference.ts";
import type { StravaLoadAnswer } from "../../tools/training-load/training-load-answer.ts";

/** testNow is Saturday 2026-11-21, 15:37 in Boulder. */
const today = "2026-11-21";
const clock = manualClock(testNow);
let session: SandboxSession;
let core: FileBackedCore;
let settings: AthleteSettings;
/** Every activity of the athlete's, as the list tool returns them (newest first). */
let all: Array<
  ListedActivity & { distance: number; total_elevation_gain: number; has_heartrate: boolean; manual: boolean } & Record<string, unknown>
>;
const summaries: Record<"week" | "twelve" | "year", { answer: StravaLoadAnswer; text: string; requests: Record<string, number> }> =
  {} as never;

beforeAll(async () => {
  session = await openSession({ clock: clock.now, rotateRefreshTokens: false });
  core = await fileBackedCore({
    credentials: {
      client_id: session.sandbox.clientId,
      client_secret: session.sandbox.clientSecret,
      refresh_token: session.sandbox.refreshToken(),
    },
    settings: { apiBase: session.sandbox.apiBase, tokenUrl: session.sandbox.tokenUrl },
    now: clock.now,
  });
  await core.call("get_athlete"); // the token, fetched before counting
  const now = Math.floor(testNow / 1000);
  const windows = { week: { after: now - 6 * 86_400 }, twelve: {}, year: { after: now - 365 * 86_400 } };
  for (const [name, args] of Object.entries(windows) as Array<[keyof typeof summaries, Record<string, number>]>) {
    session.sandbox.resetCounters();
    const result = await core.call("get_activities", { summary: true, ...args });
    expect(result.isError, textOf(result)).toBeUndefined();
    summaries[name] = {
      text: textOf(result),
      answer: JSON.parse(textOf(result)) as StravaLoadAnswer,
      requests: session.sandbox.counters().byRoute,
    };
  }
  all = JSON.parse(textOf(await core.call("get_activities", { per_page: 200 }))) as typeof all;
  const zones = session.json<{ heart_rate: { zones: Array<{ min: number; max: number }> } }>(await session.get("/athlete/zones")).heart_rate
    .zones;
  const ftp = session.json<{ ftp: number }>(await session.get("/athlete")).ftp;
  settings = { today, ftp, zones };
});
afterAll(async () => {
  await core?.cleanup();
  await session?.sandbox.close();
});

const dateOf = (activity: { start_date_local: string }): string => activity.start_date_local.slice(0, 10);

/** The listed activities from `from` to `to`, with their loads and sources by the reference page's rules. */
function referenceLoads(from: string, to: string) {
  const loads = referenceActivityLoads(all, settings);
  return all
    .map((activity, i) => ({ activity, ...loads[i]! }))
    .filter(({ activity }) => dateOf(activity) >= from && dateOf(activity) <= to);
}

/** Daily loads from `from` to `to` by the reference page's rules. */
function referenceDays(from: string, to: string): number[] {
  const days = new Array<number>(daysBetween(from, to) + 1).fill(0);
  for (const { activity, load } of referenceLoads(from, to)) days[daysBetween(from, dateOf(activity))]! += load;
  return days;
}

describe("the sandbox athlete's year", () => {
  it("is one page of the list: about 180 activities over the last 365 days, every one recorded before now", () => {
    expect(all.length).toBeGreaterThan(150);
    expect(all.length).toBeLessThan(200);
    expect(dateOf(all.at(-1)!) >= addDays(today, -365)).toBe(true);
  });
});

describe("the default window: twelve calendar weeks", () => {
  it("to today in the athlete's zone, with the year before it as history: one page, the FTP and the zones, under 12 KB", () => {
    const { answer, text, requests } = summaries.twelve;
    // The one page read reaches back past the 126 days the plan needs, to the first activity: all of it is history.
    expect(answer.window).toMatchObject({
      first: "2026-08-31",
      last: today,
      time_zone: "America/Denver",
      history_from: dateOf(all.at(-1)!),
      upstream_requests: 3,
      complete: true,
    });
    // The zones for the base period's Zwift rides, which have heart rate but neither Relative Effort nor device power.
    expect(requests).toEqual({ "GET /athlete/activities": 1, "GET /athlete": 1, "GET /athlete/zones": 1 });
    expect(answer.weeks).toHaveLength(12);
    expect(answer.weeks.at(-1)).toMatchObject({ week: "2026-11-16", partial: true, days: 6 });
    expect(answer.weeks.slice(0, -1).every((week) => !week.partial && week.days === 7)).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThan(12_000);
    expect(text).not.toMatch(/\n/);
    expect(answer.notes.some((note) => /history/.test(note))).toBe(false);
  });

  it("weekly totals are the sums of the listed activities, per sport and per week; rest days are the days without one", () => {
    const { answer } = summaries.twelve;
    const listed = referenceLoads(answer.window.first, answer.window.last);
    expect(answer.window.activities).toBe(listed.length);
    for (const week of answer.weeks) {
      const inWeek = listed.filter(({ activity }) => mondayOf(dateOf(activity)) === week.week);
      const totals = (items: typeof inWeek) => ({
        count: items.length,
        // Exact sums of Strava's decimetres, rounded to whole metres.
        distance: Math.round(items.reduce((s, { activity }) => s + Math.round(activity.distance * 10), 0) / 10),
        moving_time: items.reduce((s, { activity }) => s + activity.moving_time, 0),
        elevation_gain: Math.round(items.reduce((s, { activity }) => s + Math.round(activity.total_elevation_gain * 10), 0) / 10),
        load: items.reduce((s, { load }) => s + load, 0),
      });
      expect(week.total, week.week).toEqual(totals(inWeek));
      const sports = [...new Set(inWeek.map(({ activity }) => activity.sport_type))].sort();
      expect(Object.keys(week.sports)).toEqual(sports);
      for (const sport of sports) {
        // Each sport's totals as an array in sport_columns' order: the keys of the week's total.
        const expected = totals(inWeek.filter(({ activity }) => activity.sport_type === sport));
        expect(week.sports[sport], `${week.week} ${sport}`).toEqual(summaries.twelve.answer.sport_columns.map((key) => expected[key]));
      }
      expect(week.rest_days).toBe(week.days - new Set(inWeek.map(({ activity }) => dateOf(activity))).size);
    }
  });

  it("the change from the week before compares like with like: full weeks whole, the current week with the same weekdays", () => {
    const { answer } = summaries.twelve;
    const weekLoad = (monday: string, days: number) =>
      answer.days.loads
        .slice(daysBetween(answer.days.first, monday), daysBetween(answer.days.first, monday) + days)
        .reduce((a, b) => a + b, 0);
    expect(answer.weeks[0]!.load_change_percent).toBeNull();
    for (const [i, week] of answer.weeks.entries()) {
      if (i === 0) continue;
      const previous = weekLoad(answer.weeks[i - 1]!.week, week.days);
      // Whole percent.
      expect(week.load_change_percent, week.week).toBe(Math.round(((week.total.load - previous) / previous) * 100));
    }
  });

  it("shows the sandbox's spike: the last seven days far above the month, every day active, form well below 0, fitness ramping", () => {
    const { load } = summaries.twelve.answer;
    expect(load.acute_chronic_ratio).toBeGreaterThan(1.5);
    expect(load.monotony).toBeGreaterThan(2);
    expect(load.longest_run_without_rest).toMatchObject({ ends: today });
    expect(load.longest_run_without_rest.days).toBeGreaterThanOrEqual(7);
    expect(load.form).toBeLessThan(-30);
    expect(load.ramp_rate).toBeGreaterThan(8);
  });
});

describe("fitness and fatigue from the whole history read", () => {
  it("the 366-day window reads the year (the list ends at the first activity) in one page, the FTP and the zones", () => {
    const { answer, requests } = summaries.year;
    expect(answer.window).toMatchObject({ first: addDays(today, -365), last: today, complete: true, upstream_requests: 3 });
    expect(requests).toEqual({ "GET /athlete/activities": 1, "GET /athlete": 1, "GET /athlete/zones": 1 });
    // Nothing before the window: the history is empty, and a note says fitness reads low at the start.
    expect(answer.window.history_from).toBe(answer.window.first);
    expect(answer.notes.join(" ")).toMatch(/^Only 0 days of history precede the window \(Strava lists no activity before /);
    expect(answer.days.loads).toEqual(referenceDays(answer.window.first, answer.window.last));
  });

  it("every number on the last date is its formula over the 366-day answer's days, from each answer's history_from", () => {
    const year = summaries.year.answer;
    for (const { answer } of Object.values(summaries)) {
      const from = answer.window.history_from;
      const loads = year.days.loads.slice(daysBetween(year.days.first, from));
      const active = answer.days.loads.map((_, i) => all.some((activity) => dateOf(activity) === addDays(answer.days.first, i)));
      const reference = referenceLoad(loads, from, answer.window.first, active);
      const { load, trend } = answer;
      expect(load.fitness, answer.window.first).toBeCloseTo(reference.fitness, 1);
      expect(load.fatigue).toBeCloseTo(reference.fatigue, 1);
      expect(load.form).toBeCloseTo(reference.form, 1);
      expect(load.form_percent).toBe(reference.form_percent);
      expect(load.ramp_rate).toBeCloseTo(reference.ramp_rate, 1);
      expect(load.acute_chronic_ratio).toBeCloseTo(reference.acute_chronic_ratio!, 2);
      expect(load.monotony).toBeCloseTo(reference.monotony!, 2);
      expect(Math.abs(load.strain! - reference.strain!)).toBeLessThanOrEqual(0.5);
      expect(load.longest_run_without_rest).toEqual(reference.longest_run_without_rest);
      expect(trend.first).toBe(reference.trend.first);
      // Whole numbers, as JSON writes them (no -0).
      const whole = (values: number[]) => values.map((value) => Math.round(value) + 0);
      expect(trend.fitness).toEqual(whole(reference.trend.fitness));
      expect(trend.fatigue).toEqual(whole(reference.trend.fatigue));
      expect(trend.form).toEqual(whole(reference.trend.form));
      expect(trend.start.fitness).toBeCloseTo(reference.start.fitness, 1);
      expect(trend.start.fatigue).toBeCloseTo(reference.start.fatigue, 1);
      expect(trend.form.at(-1)).toBe(Math.round(load.form));
    }
  });

  it("the last date's numbers do not depend on the window: one week, twelve weeks and a year agree", () => {
    const { week, twelve, year } = summaries;
    // One page holds the whole year, so every window's history reaches the first activity.
    expect(week.answer.window).toMatchObject({ first: addDays(today, -6), history_from: dateOf(all.at(-1)!), upstream_requests: 3 });
    for (const other of [twelve, year]) {
      const { longest_run_without_rest: _week, ...weekNumbers } = week.answer.load;
      const { longest_run_without_rest: _other, ...otherNumbers } = other.answer.load;
      expect(weekNumbers).toEqual(otherNumbers);
      expect(week.answer.trend).toMatchObject({
        first: other.answer.trend.first,
        fitness: other.answer.trend.fitness,
        form: other.answer.trend.form,
      });
    }
  });
});

describe("one load per activity", () => {
  it("a day's load is the same in a one-week, a twelve-week and a 366-day window", () => {
    const { week, twelve, year } = summaries;
    const loadOn = (answer: StravaLoadAnswer, date: string) => answer.days.loads[daysBetween(answer.days.first, date)];
    for (let i = 0; i < week.answer.days.loads.length; i++) {
      const date = addDays(week.answer.days.first, i);
      expect([loadOn(week.answer, date), loadOn(twelve.answer, date)], date).toEqual([
        loadOn(year.answer, date),
        loadOn(year.answer, date),
      ]);
    }
    for (let i = 0; i < twelve.answer.days.loads.length; i++) {
      const date = addDays(twelve.answer.days.first, i);
      expect(loadOn(twelve.answer, date), date).toBe(loadOn(year.answer, date));
    }
    // The estimates were fitted on the same span, the 126 dates to today, in all three.
    for (const { answer } of [week, twelve, year])
      expect(answer.load_source.calibration).toEqual({ first: addDays(today, -125), last: today });
  });
});

describe("estimates from the best signal, each labelled and calibrated", () => {
  it("the year holds all three: power for Blue's Zwift rides, heart rate for the base period's, moving time for the hike logged by hand", () => {
    const { answer } = summaries.year;
    const listed = referenceLoads(answer.window.first, answer.window.last);
    const count = (source: string) => listed.filter((item) => item.source === source).length;
    const source = answer.load_source;
    expect(source.suffer_score).toBe(count("suffer_score"));
    expect(source.power_estimate.count).toBe(count("power"));
    expect(source.heart_rate_estimate.count).toBe(count("heart_rate"));
    expect(source.moving_time_estimate.count).toBe(count("moving_time"));
    for (const kind of ["power", "heart_rate", "moving_time"]) expect(count(kind), kind).toBeGreaterThan(0);
    for (const { activity, source: kind } of listed) {
      if (kind === "power") expect([activity.sport_type, activity.device_watts]).toEqual(["VirtualRide", true]);
      if (kind === "heart_rate")
        expect([activity.sport_type, activity.device_watts, activity.has_heartrate]).toEqual(["VirtualRide", false, true]);
      if (kind === "moving_time") expect([activity.sport_type, activity.manual]).toEqual(["Hike", true]);
    }
    expect(answer.notes).toContain(
      `${count("power") + count("heart_rate") + count("moving_time")} of ${listed.length} activities have no Relative Effort from Strava; their load is an estimate (load_source).`,
    );
  });

  it("each scale is Relative Effort over the estimate's points on the span's activities with both; the hike takes the all-sports rate", () => {
    const source = summaries.year.answer.load_source;
    const span = all.filter((a) => dateOf(a) >= addDays(today, -125) && typeof a.suffer_score === "number" && a.moving_time > 0);
    const hours = (a: ListedActivity) => a.moving_time / 3600;
    const powered = span.filter((a) => a.device_watts === true && (a.weighted_average_watts ?? 0) > 0);
    const tss = powered.reduce((s, a) => s + hours(a) * (a.weighted_average_watts! / settings.ftp!) ** 2 * 100, 0);
    expect(source.power_estimate).toMatchObject({ ftp: 238, calibrated_on: powered.length });
    expect(source.power_estimate.scale).toBeCloseTo(powered.reduce((s, a) => s + a.suffer_score!, 0) / tss, 3);
    expect(source.heart_rate_estimate.calibrated_on).toBe(span.filter((a) => (a.average_heartrate ?? 0) > 0).length);
    const hikes = span.filter((a) => familyOf(a.sport_type) === "walks_hikes");
    expect(hikes.length).toBeLessThan(3);
    const everySport = Math.round((span.reduce((s, a) => s + a.suffer_score!, 0) / span.reduce((s, a) => s + hours(a), 0)) * 10) / 10;
    expect(source.moving_time_estimate.families).toEqual({
      walks_hikes: { count: 1, per_hour: everySport, rate_of: "all_sports", calibrated_on: span.length },
    });
  });
});
