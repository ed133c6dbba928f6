/**
 * The summary's request plan as data, with no network: the requests it asks for given the answers so far,
 * and, for random activity lists, an answer whose weeks, days, load numbers and trend all agree with the formulas
 * recomputed from what it returns and from the activities (test/support/training-load-reference.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { trainingLoadPlan } from "../../tools/training-load/training-load-plan.ts";
import type { RequestPlan, UpstreamAnswer } from "../../tools/definition/request-plan.ts";
import type { StravaLoadAnswer } from "../../tools/training-load/training-load-answer.ts";
import { testNow } from "../support/test-clock.ts";
import { addDays, daysBetween, mondayOf, referenceActivityLoads, referenceLoad } from "../support/training-load-reference.ts";

const zones = [
  { min: 0, max: 122 },
  { min: 122, max: 152 },
  { min: 152, max: 167 },
  { min: 167, max: 182 },
  { min: 182, max: -1 },
];
const zonesBody = JSON.stringify({ heart_rate: { custom_zones: false, zones } });
const ftp = 250;
const athleteBody = JSON.stringify({ id: 1, resource_state: 3, ftp });

/** Runs a plan against an answering function, as runTool would against Strava. */
function drive(
  plan: RequestPlan,
  answer: (path: string, query: Record<string, unknown>) => string,
): { answers: UpstreamAnswer[]; text: string } {
  const answers: UpstreamAnswer[] = [];
  for (let planned = plan.next(answers); planned; planned = plan.next(answers)) {
    answers.push({ request: planned.request, status: 200, bodyText: answer(planned.request.path, planned.request.query ?? {}) });
  }
  return { answers, text: plan.reduce(answers) };
}

describe("the plan's requests", () => {
  it("asks for page 1 first, without before or after (the list is read from today); then nothing more when it ends and all is scored", () => {
    const plan = trainingLoadPlan({ before: 1_763_700_000, after: 1_762_000_000 }, testNow);
    expect(plan.next([])).toEqual({
      request: { method: "GET", path: "/athlete/activities", query: { page: 1, per_page: 200 } },
    });
    const { answers } = drive(plan, () => "[]");
    expect(answers).toHaveLength(1);
  });

  it("asks for the zones, as an optional request, only once the pages are read and an unscored activity has heart rate", () => {
    const plan = trainingLoadPlan({}, testNow);
    const unscored = {
      start_date: "2026-11-20T19:00:00Z",
      start_date_local: "2026-11-20T12:00:00Z",
      timezone: "(GMT-07:00) America/Denver",
      moving_time: 3600,
      suffer_score: null,
      average_heartrate: 140,
    };
    const page: UpstreamAnswer = { request: plan.next([])!.request, status: 200, bodyText: JSON.stringify([unscored]) };
    expect(plan.next([page])).toEqual({ request: { method: "GET", path: "/athlete/zones" }, optional: true });
    const zonesAnswer: UpstreamAnswer = { request: { method: "GET", path: "/athlete/zones" }, status: 200, bodyText: zonesBody };
    expect(plan.next([page, zonesAnswer])).toBeUndefined();
    expect((JSON.parse(plan.reduce([page, zonesAnswer])) as StravaLoadAnswer).load_source.heart_rate_estimate.count).toBe(1);
  });

  it("asks for the FTP when an unscored activity has device power and three scored ones can calibrate it; then no zones", () => {
    const plan = trainingLoadPlan({}, testNow);
    const ride = (date: string, score: number | null) => ({
      start_date: `${date}T19:00:00Z`,
      start_date_local: `${date}T12:00:00Z`,
      timezone: "(GMT-07:00) America/Denver",
      sport_type: "Ride",
      moving_time: 3600,
      suffer_score: score,
      average_heartrate: 140,
      device_watts: true,
      weighted_average_watts: 200,
    });
    const rides = [ride("2026-11-20", null), ride("2026-11-18", 60), ride("2026-11-15", 70), ride("2026-11-12", 65)];
    const page: UpstreamAnswer = { request: plan.next([])!.request, status: 200, bodyText: JSON.stringify(rides) };
    expect(plan.next([page])).toEqual({ request: { method: "GET", path: "/athlete" }, optional: true });
    const athlete: UpstreamAnswer = { request: { method: "GET", path: "/athlete" }, status: 200, bodyText: athleteBody };
    expect(plan.next([page, athlete])).toBeUndefined();
    const answer = JSON.parse(plan.reduce([page, athlete])) as StravaLoadAnswer;
    // (60 + 70 + 65) / 3 h at (200 / 250)^2 x 100 = 64 an hour.
    expect(answer.load_source.power_estimate).toEqual({ count: 1, scale: 1.016, calibrated_on: 3, ftp });
    expect(answer.days.loads.at(-2)).toBe(Math.round(64 * 1.016));
  });

  it("a page that is not a list of activities is an upstream body error, a page that is not JSON a SyntaxError", () => {
    const plan = trainingLoadPlan({}, testNow);
    const answer = (bodyText: string): UpstreamAnswer => ({ request: plan.next([])!.request, status: 200, bodyText });
    expect(() => plan.next([answer('{"message":"hi"}')])).toThrow(/something other than a list of activities/);
    expect(() => plan.next([answer("[{")])).toThrow(SyntaxError);
  });
});

describe("the answer agrees with the formulas, for any activities", () => {
  // Up to 120 activities on the 240 days before testNow's date (Saturday 2026-11-21 in Denver): the window and
  // some of its history, some scored, some with heart rate, some with device power.
  const activityArbitrary = fc.record({
    daysBack: fc.integer({ min: 0, max: 240 }),
    hour: fc.integer({ min: 5, max: 20 }),
    sport: fc.constantFrom("Run", "Ride", "VirtualRide", "Swim", "WeightTraining", "Yoga", "Hike", "RockClimbing"),
    distance: fc.integer({ min: 0, max: 200_000 }).map((decimetres) => decimetres / 10),
    moving: fc.integer({ min: 60, max: 20_000 }),
    climb: fc.integer({ min: 0, max: 20_000 }).map((decimetres) => decimetres / 10),
    score: fc.option(fc.integer({ min: 1, max: 400 }), { nil: null }),
    heartrate: fc.option(fc.integer({ min: 90, max: 195 }), { nil: undefined }),
    power: fc.option(fc.integer({ min: 100, max: 320 }), { nil: undefined }),
  });

  it("history, loads, days, weeks, load numbers and trend are the reference's, and the FTP and zones are read only when needed", () => {
    fc.assert(
      fc.property(fc.array(activityArbitrary, { maxLength: 120 }), fc.constantFrom(undefined, 6, 40, 120), (drawn, windowDays) => {
        const activities = drawn.map((a, index) => {
          const date = addDays("2026-11-21", -a.daysBack);
          const local = `${date}T${String(a.hour).padStart(2, "0")}:00:${String(index % 60).padStart(2, "0")}Z`;
          return {
            id: 1_000 + index,
            sport_type: a.sport,
            start_date: new Date(Date.parse(local) + 7 * 3_600_000).toISOString().replace(".000Z", "Z"),
            start_date_local: local,
            timezone: "(GMT-07:00) America/Denver",
            distance: a.distance,
            moving_time: a.moving,
            total_elevation_gain: a.climb,
            suffer_score: a.score,
            ...(a.heartrate === undefined ? {} : { average_heartrate: a.heartrate }),
            ...(a.power === undefined ? {} : { device_watts: true, weighted_average_watts: a.power }),
          };
        });
        const newestFirst = [...activities].sort((x, y) => y.start_date.localeCompare(x.start_date));
        // After: local midnight in Denver of the window's first date.
        const args = windowDays === undefined ? {} : { after: Date.parse(`${addDays("2026-11-21", -windowDays)}T07:00:00Z`) / 1000 };
        const { answers, text } = drive(trainingLoadPlan(args, testNow), (path) =>
          path === "/athlete/zones" ? zonesBody : path === "/athlete" ? athleteBody : JSON.stringify(newestFirst),
        );
        const answer = JSON.parse(text) as StravaLoadAnswer;
        const { first, last } = answer.window;
        const date = (a: { start_date_local: string }) => a.start_date_local.slice(0, 10);

        // The list ended on the first page: the history reaches the first activity (or is empty).
        const earliest = activities.map(date).sort()[0];
        expect(answer.window.history_from).toBe(earliest !== undefined && earliest < first ? earliest : first);
        const counted = activities.filter((a) => date(a) >= answer.window.history_from && date(a) <= last);

        // The FTP when an unscored activity has device power and the span has 3 scored ones with it; then the zones
        // when an unscored one has heart rate and no power estimate.
        const span = activities.filter((a) => date(a) >= addDays("2026-11-21", -125) && a.suffer_score !== null);
        const powerFits = span.filter((a) => "device_watts" in a).length >= 3;
        const ftpRead = answers.some((a) => a.request.path === "/athlete");
        expect(ftpRead).toBe(powerFits && counted.some((a) => a.suffer_score === null && "device_watts" in a));
        const zonesRead = answers.some((a) => a.request.path === "/athlete/zones");
        expect(zonesRead).toBe(
          counted.some((a) => a.suffer_score === null && "average_heartrate" in a && !("device_watts" in a && ftpRead && powerFits)),
        );
        expect(answer.window.upstream_requests).toBe(answers.length);

        const loads = referenceActivityLoads(activities, {
          today: "2026-11-21",
          ...(ftpRead ? { ftp } : {}),
          ...(zonesRead ? { zones } : {}),
        });
        const byDate = new Map<string, number>();
        activities.forEach((a, i) => byDate.set(date(a), (byDate.get(date(a)) ?? 0) + loads[i]!.load));
        const history = Array.from(
          { length: daysBetween(answer.window.history_from, last) + 1 },
          (_, i) => byDate.get(addDays(answer.window.history_from, i)) ?? 0,
        );
        expect(answer.days.loads).toEqual(history.slice(daysBetween(answer.window.history_from, first)));

        const inWindow = activities.map((a, i) => ({ a, load: loads[i]! })).filter(({ a }) => date(a) >= first && date(a) <= last);
        expect(answer.window.activities).toBe(inWindow.length);
        for (const kind of ["power", "heart_rate", "moving_time"] as const) {
          const count = inWindow.filter(({ load }) => load.source === kind).length;
          const key = kind === "power" ? "power_estimate" : kind === "heart_rate" ? "heart_rate_estimate" : "moving_time_estimate";
          expect(answer.load_source[key].count, kind).toBe(count);
        }
        for (const week of answer.weeks) {
          const items = inWindow.filter(({ a }) => mondayOf(date(a)) === week.week);
          expect(week.total).toEqual({
            count: items.length,
            distance: Math.round(items.reduce((s, { a }) => s + Math.round(a.distance * 10), 0) / 10),
            moving_time: items.reduce((s, { a }) => s + a.moving_time, 0),
            elevation_gain: Math.round(items.reduce((s, { a }) => s + Math.round(a.total_elevation_gain * 10), 0) / 10),
            load: items.reduce((s, { load }) => s + load.load, 0),
          });
          expect(Object.values(week.sports).reduce((s, [count]) => s + count, 0)).toBe(items.length);
        }

        const reference = referenceLoad(
          history,
          answer.window.history_from,
          first,
          answer.days.loads.map((_, i) => byDate.has(addDays(first, i))),
        );
        const close = (actual: number | null, expected: number | null, within: number) => {
          if (expected === null) expect(actual).toBeNull();
          else expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(within + 1e-9);
        };
        close(answer.load.fitness, reference.fitness, 0.05);
        close(answer.load.fatigue, reference.fatigue, 0.05);
        close(answer.load.form, reference.form, 0.05);
        close(answer.load.ramp_rate, reference.ramp_rate, 0.05);
        expect(answer.load.form_percent).toBe(reference.form_percent === null ? null : reference.form_percent + 0);
        close(answer.load.acute_chronic_ratio, reference.acute_chronic_ratio, 0.005);
        close(answer.load.monotony, reference.monotony, 0.005);
        close(answer.load.strain, reference.strain, 0.5);
        expect(answer.load.longest_run_without_rest).toEqual(reference.longest_run_without_rest);
        const whole = (values: number[]) => values.map((value) => Math.round(value) + 0);
        expect(answer.trend).toEqual({
          start: answer.trend.start,
          first: reference.trend.first,
          fitness: whole(reference.trend.fitness),
          fatigue: whole(reference.trend.fatigue),
          form: whole(reference.trend.form),
        });
        close(answer.trend.start.fitness, reference.start.fitness, 0.05);
        close(answer.trend.start.fatigue, reference.start.fatigue, 0.05);
      }),
      { numRuns: 200 },
    );
  });
});
