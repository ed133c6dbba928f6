/**
 * get_activities with summary: true against the sandbox athlete, through the real core: the summary of the
 * last twelve weeks checked against the activities the list tool returns for the same dates, and every load
 * number recomputed from the summary's own days. The sandbox and the core read the suite's pinned clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileBackedCore, textOf, type FileBackedCore } from "../support/core-harness.ts";
import { openSession, type SandboxSession } from "../sandbox/sandbox-client.ts";
import { manualClock, testNow } from "../support/test-clock.ts";
import { addDays, daysBetween, mondayOf, referenceActivityLoads, referenceLoad } from "../support/training-load-reference.ts";
import type { TrainingLoadAnswer } from "../../tools/training-load/training-load-answer.ts";

const clock = manualClock(testNow);
let session: SandboxSession;
let core: FileBackedCore;
let summary: TrainingLoadAnswer;
let summaryText: string;
let requests: Record<string, number>;
/** The list tool's answer for the summary's window, as Strava lists it. */
let listed: Array<
  Record<string, unknown> & {
    start_date_local: string;
    sport_type: string;
    distance: number;
    moving_time: number;
    total_elevation_gain: number;
  }
>;

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
  session.sandbox.resetCounters();
  const result = await core.call("get_activities", { summary: true });
  expect(result.isError).toBeUndefined();
  summaryText = textOf(result);
  summary = JSON.parse(summaryText) as TrainingLoadAnswer;
  requests = session.sandbox.counters().byRoute;
  // The window's activities, listed: a day's margin either side in epoch seconds, then by local date.
  const after = Math.floor(Date.parse(`${summary.window.first}T00:00:00Z`) / 1000) - 2 * 86_400;
  const all = JSON.parse(textOf(await core.call("get_activities", { after, per_page: 200 }))) as typeof listed;
  listed = all.filter(
    (a) => a.start_date_local.slice(0, 10) >= summary.window.first && a.start_date_local.slice(0, 10) <= summary.window.last,
  );
});
afterAll(async () => {
  await core?.cleanup();
  await session?.sandbox.close();
});

/** Each listed activity's load: its suffer_score, or the reference page's estimate against the athlete's zones. */
async function expectedLoads(): Promise<number[]> {
  const zones = session.json<{ heart_rate: { zones: Array<{ min: number; max: number }> } }>(await session.get("/athlete/zones")).heart_rate
    .zones;
  return referenceActivityLoads(listed as never, zones);
}

describe("the sandbox athlete's training load (summary: true, default window)", () => {
  it("covers twelve calendar weeks to today in the athlete's zone, from one page and the zones: two upstream requests, a few kilobytes", () => {
    // testNow is Saturday 2026-11-21, 15:37 in Boulder.
    expect(summary.window).toMatchObject({
      first: "2026-08-31",
      last: "2026-11-21",
      time_zone: "America/Denver",
      upstream_requests: 2,
      complete: true,
    });
    expect(requests).toEqual({ "GET /athlete/activities": 1, "GET /athlete/zones": 1 });
    expect(summary.window.activities).toBe(listed.length);
    expect(summary.weeks).toHaveLength(12);
    expect(summary.weeks.at(-1)).toMatchObject({ week: "2026-11-16", partial: true, days: 6 });
    expect(summary.weeks.slice(0, -1).every((week) => !week.partial && week.days === 7)).toBe(true);
    expect(Buffer.byteLength(summaryText)).toBeLessThan(12_000);
    expect(summaryText).not.toMatch(/\n/);
  });

  it("weekly totals are the sums of the listed activities, per sport and per week; rest days are the days without one", async () => {
    const loads = await expectedLoads();
    for (const week of summary.weeks) {
      const inWeek = listed
        .map((a, i) => ({ a, load: loads[i]! }))
        .filter(({ a }) => mondayOf(a.start_date_local.slice(0, 10)) === week.week);
      const totals = (items: typeof inWeek) => ({
        count: items.length,
        // Exact sums of Strava's decimetres, rounded to whole metres.
        distance: Math.round(items.reduce((s, { a }) => s + Math.round(a.distance * 10), 0) / 10),
        moving_time: items.reduce((s, { a }) => s + a.moving_time, 0),
        elevation_gain: Math.round(items.reduce((s, { a }) => s + Math.round(a.total_elevation_gain * 10), 0) / 10),
        load: items.reduce((s, { load }) => s + load, 0),
      });
      expect(week.total, week.week).toEqual(totals(inWeek));
      const sports = [...new Set(inWeek.map(({ a }) => a.sport_type))].sort();
      expect(Object.keys(week.sports)).toEqual(sports);
      for (const sport of sports)
        expect(week.sports[sport], `${week.week} ${sport}`).toEqual(totals(inWeek.filter(({ a }) => a.sport_type === sport)));
      const activeDays = new Set(inWeek.map(({ a }) => a.start_date_local.slice(0, 10)));
      expect(week.rest_days).toBe(week.days - activeDays.size);
    }
  });

  it("the change from the week before compares like with like: full weeks whole, the current week with the same weekdays", () => {
    const weekLoad = (monday: string, days: number) =>
      summary.days.loads
        .slice(daysBetween(summary.days.first, monday), daysBetween(summary.days.first, monday) + days)
        .reduce((a, b) => a + b, 0);
    expect(summary.weeks[0]!.load_change_percent).toBeNull();
    for (const [i, week] of summary.weeks.entries()) {
      if (i === 0) continue;
      const previous = weekLoad(summary.weeks[i - 1]!.week, week.days);
      expect(week.load_change_percent, week.week).toBe(Math.round(((week.total.load - previous) / previous) * 1000) / 10);
    }
  });

  it("days are the sums of each activity's load by local date; loads are suffer_score or the labelled estimate", async () => {
    const loads = await expectedLoads();
    const byDate = new Map<string, number>();
    listed.forEach((a, i) => byDate.set(a.start_date_local.slice(0, 10), (byDate.get(a.start_date_local.slice(0, 10)) ?? 0) + loads[i]!));
    expect(summary.days.first).toBe(summary.window.first);
    expect(summary.days.loads).toHaveLength(daysBetween(summary.window.first, summary.window.last) + 1);
    summary.days.loads.forEach((load, i) =>
      expect(load, addDays(summary.days.first, i)).toBe(byDate.get(addDays(summary.days.first, i)) ?? 0),
    );
    const unscored = listed.filter((a) => a["suffer_score"] === null);
    expect(summary.load_source.suffer_score).toBe(listed.length - unscored.length);
    expect(summary.load_source.heart_rate_estimate.count).toBe(unscored.filter((a) => a["has_heartrate"] === true).length);
    expect(summary.load_source.moving_time_estimate.count).toBe(unscored.filter((a) => a["has_heartrate"] !== true).length);
    expect(summary.load_source.heart_rate_estimate.count).toBeGreaterThan(0);
    expect(summary.load_source.moving_time_estimate.count).toBeGreaterThan(0);
    expect(summary.notes.join(" ")).toMatch(/have no Relative Effort from Strava; their load is an estimate/);
  });

  it("every load number is its formula recomputed from the returned days", () => {
    const active = summary.days.loads.map((_, i) => listed.some((a) => a.start_date_local.startsWith(addDays(summary.days.first, i))));
    const reference = referenceLoad(summary.days.loads, active, summary.days.first);
    expect(summary.load.fitness).toBeCloseTo(reference.fitness, 1);
    expect(summary.load.fatigue).toBeCloseTo(reference.fatigue, 1);
    expect(summary.load.form).toBeCloseTo(reference.form, 1);
    expect(summary.load.acute_chronic_ratio).toBeCloseTo(reference.acute_chronic_ratio!, 2);
    expect(summary.load.monotony).toBeCloseTo(reference.monotony!, 2);
    expect(Math.abs(summary.load.strain! - reference.strain!)).toBeLessThanOrEqual(0.5);
    expect(summary.load.longest_run_without_rest).toEqual(reference.longest_run_without_rest);
  });

  it("shows the sandbox's spike: the last seven days well above the month's average, every day active, form negative", () => {
    expect(summary.load.acute_chronic_ratio).toBeGreaterThan(1.5);
    expect(summary.load.monotony).toBeGreaterThan(2);
    expect(summary.load.longest_run_without_rest).toMatchObject({ ends: "2026-11-21" });
    expect(summary.load.longest_run_without_rest.days).toBeGreaterThanOrEqual(7);
    expect(summary.load.form).toBeLessThan(0);
    expect(summary.notes.some((note) => /window has/.test(note))).toBe(false);
  });
});
