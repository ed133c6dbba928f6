/**
 * The summary's request plan as data, with no network: the requests it asks for given the answers so far,
 * and, for random activity lists, an answer whose weeks, days and load numbers all agree with the formulas
 * recomputed from what it returns.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { trainingLoadPlan } from "../../tools/training-load/training-load-plan.ts";
import type { RequestPlan, UpstreamAnswer } from "../../tools/definition/request-plan.ts";
import type { TrainingLoadAnswer } from "../../tools/training-load/training-load-answer.ts";
import { testNow } from "../support/test-clock.ts";
import { addDays, mondayOf, referenceActivityLoads, referenceLoad } from "../support/training-load-reference.ts";

const zonesBody = JSON.stringify({
  heart_rate: {
    custom_zones: false,
    zones: [
      { min: 0, max: 122 },
      { min: 122, max: 152 },
      { min: 152, max: 167 },
      { min: 167, max: 182 },
      { min: 182, max: -1 },
    ],
  },
});

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
  it("asks for page 1 first, with before and without after; then nothing more when the list ends and every activity is scored", () => {
    const plan = trainingLoadPlan({ before: 1_763_700_000, after: 1_762_000_000 }, testNow);
    expect(plan.next([])).toEqual({
      request: { method: "GET", path: "/athlete/activities", query: { before: 1_763_700_000, page: 1, per_page: 200 } },
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
    const zones: UpstreamAnswer = { request: { method: "GET", path: "/athlete/zones" }, status: 200, bodyText: zonesBody };
    expect(plan.next([page, zones])).toBeUndefined();
    expect((JSON.parse(plan.reduce([page, zones])) as TrainingLoadAnswer).load_source.heart_rate_estimate.count).toBe(1);
  });

  it("a page that is not a list of activities is an upstream body error, a page that is not JSON a SyntaxError", () => {
    const plan = trainingLoadPlan({}, testNow);
    const answer = (bodyText: string): UpstreamAnswer => ({ request: plan.next([])!.request, status: 200, bodyText });
    expect(() => plan.next([answer('{"message":"hi"}')])).toThrow(/something other than a list of activities/);
    expect(() => plan.next([answer("[{")])).toThrow(SyntaxError);
  });
});

describe("the answer agrees with the formulas, for any activities", () => {
  // Up to 80 activities on the 84 days before testNow's date (Saturday 2026-11-21 in Denver).
  const activityArbitrary = fc.record({
    daysBack: fc.integer({ min: 0, max: 83 }),
    hour: fc.integer({ min: 5, max: 20 }),
    sport: fc.constantFrom("Run", "Ride", "Swim", "WeightTraining"),
    distance: fc.integer({ min: 0, max: 200_000 }).map((decimetres) => decimetres / 10),
    moving: fc.integer({ min: 60, max: 20_000 }),
    climb: fc.integer({ min: 0, max: 20_000 }).map((decimetres) => decimetres / 10),
    score: fc.option(fc.integer({ min: 1, max: 400 }), { nil: null }),
    heartrate: fc.option(fc.integer({ min: 90, max: 190 }), { nil: undefined }),
  });

  it("weeks are sums of the activities, days the sums of their loads by date, load numbers the formulas over days", () => {
    fc.assert(
      fc.property(fc.array(activityArbitrary, { maxLength: 80 }), (drawn) => {
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
          };
        });
        const newestFirst = [...activities].sort((x, y) => y.start_date.localeCompare(x.start_date));
        const { answers, text } = drive(trainingLoadPlan({}, testNow), (path) =>
          path === "/athlete/zones" ? zonesBody : JSON.stringify(newestFirst),
        );
        const answer = JSON.parse(text) as TrainingLoadAnswer;
        const inWindow = activities.filter((a) => a.start_date_local.slice(0, 10) >= answer.window.first);
        const zonesRead = answers.some((a) => a.request.path === "/athlete/zones");
        expect(zonesRead).toBe(inWindow.some((a) => a.suffer_score === null && "average_heartrate" in a));
        const loads = referenceActivityLoads(
          inWindow,
          zonesRead
            ? (JSON.parse(zonesBody) as { heart_rate: { zones: Array<{ min: number; max: number }> } }).heart_rate.zones
            : undefined,
        );

        expect(answer.window.activities).toBe(inWindow.length);
        expect(answer.window.upstream_requests).toBe(answers.length);
        const byDate = new Map<string, number>();
        inWindow.forEach((a, i) =>
          byDate.set(a.start_date_local.slice(0, 10), (byDate.get(a.start_date_local.slice(0, 10)) ?? 0) + loads[i]!),
        );
        expect(answer.days.loads).toEqual(answer.days.loads.map((_, i) => byDate.get(addDays(answer.days.first, i)) ?? 0));
        for (const week of answer.weeks) {
          const items = inWindow
            .map((a, i) => ({ a, load: loads[i]! }))
            .filter(({ a }) => mondayOf(a.start_date_local.slice(0, 10)) === week.week);
          expect(week.total).toEqual({
            count: items.length,
            distance: Math.round(items.reduce((s, { a }) => s + Math.round(a.distance * 10), 0) / 10),
            moving_time: items.reduce((s, { a }) => s + a.moving_time, 0),
            elevation_gain: Math.round(items.reduce((s, { a }) => s + Math.round(a.total_elevation_gain * 10), 0) / 10),
            load: items.reduce((s, { load }) => s + load, 0),
          });
          expect(Object.values(week.sports).reduce((s, totals) => s + totals.count, 0)).toBe(items.length);
        }

        const reference = referenceLoad(
          answer.days.loads,
          answer.days.loads.map((_, i) => byDate.has(addDays(answer.days.first, i))),
          answer.days.first,
        );
        expect(Math.abs(answer.load.fitness - reference.fitness)).toBeLessThanOrEqual(0.05 + 1e-9);
        expect(Math.abs(answer.load.fatigue - reference.fatigue)).toBeLessThanOrEqual(0.05 + 1e-9);
        expect(Math.abs(answer.load.form - reference.form)).toBeLessThanOrEqual(0.05 + 1e-9);
        if (reference.acute_chronic_ratio === null) expect(answer.load.acute_chronic_ratio).toBeNull();
        else expect(Math.abs(answer.load.acute_chronic_ratio! - reference.acute_chronic_ratio)).toBeLessThanOrEqual(0.005 + 1e-9);
        if (reference.monotony === null) expect([answer.load.monotony, answer.load.strain]).toEqual([null, null]);
        else {
          expect(Math.abs(answer.load.monotony! - reference.monotony)).toBeLessThanOrEqual(0.005 + 1e-9);
          expect(Math.abs(answer.load.strain! - reference.strain!)).toBeLessThanOrEqual(0.5 + 1e-9);
        }
        expect(answer.load.longest_run_without_rest).toEqual(reference.longest_run_without_rest);
      }),
      { numRuns: 200 },
    );
  });
});
