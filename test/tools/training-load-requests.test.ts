/**
 * get_activities with summary: true, with Strava faked at the connection layer (undici's MockAgent) and the
 * real core in between: the pages it asks for and where it stops (past the window, at the end of the list,
 * at its bound), when it reads the athlete's zones, the answer for no activity and for one, windows in the
 * newest activity's zone, and the arguments it refuses before anything is sent.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileBackedCore, textOf, type FileBackedCore } from "../support/core-harness.ts";
import { mockStrava, pathAnyQuery, stravaOrigin, type StravaMock } from "../support/strava-mock.ts";
import { testNow } from "../support/test-clock.ts";
import { addDays, referenceActivityLoads, referenceLoad } from "../support/training-load-reference.ts";
import type { TrainingLoadAnswer } from "../../tools/training-load/training-load-answer.ts";

const credentials = {
  client_id: "1234",
  client_secret: "secret-xyz",
  refresh_token: "refresh-1",
  access_token: "access-valid",
  expires_at: testNow / 1000 + 6 * 3600,
};
/** testNow is Saturday 2026-11-21, 15:37 in Denver (UTC-7). */
const today = "2026-11-21";
const denver = "(GMT-07:00) America/Denver";
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
  power: { zones: [] },
});
let core: FileBackedCore;
let mock: StravaMock;

beforeEach(async () => {
  mock = mockStrava();
  core = await fileBackedCore({ credentials, now: () => testNow, dispatcher: mock.agent });
});
afterEach(async () => {
  await mock.close();
  await core.cleanup();
});

interface Summary {
  id: number;
  sport_type: string;
  start_date: string;
  start_date_local: string;
  timezone: string;
  distance: number;
  moving_time: number;
  total_elevation_gain: number;
  suffer_score: number | null;
  average_heartrate?: number;
  has_heartrate: boolean;
}

let nextId = 16_000_000_000;
/** An activity summary at a local date and hour, in a zone `offsetHours` from UTC. */
function activity(date: string, hour: number, fields: Partial<Summary> = {}, timezone = denver, offsetHours = -7): Summary {
  const local = `${date}T${String(hour).padStart(2, "0")}:00:00Z`;
  return {
    id: nextId++,
    sport_type: "Run",
    start_date: new Date(Date.parse(local) - offsetHours * 3_600_000).toISOString().replace(".000Z", "Z"),
    start_date_local: local,
    timezone,
    distance: 8_012.4,
    moving_time: 2_700,
    total_elevation_gain: 41.2,
    suffer_score: 40,
    average_heartrate: 148.2,
    has_heartrate: true,
    ...fields,
  };
}

/** Strava's list, newest first, paged as asked; records each request's query. */
function serveActivities(all: Summary[]): URLSearchParams[] {
  const queries: URLSearchParams[] = [];
  const newestFirst = [...all].sort((a, b) => b.start_date.localeCompare(a.start_date));
  mock.strava
    .intercept({ path: pathAnyQuery("/api/v3/athlete/activities"), method: "GET" })
    .reply(200, (options) => {
      const query = new URL(options.path, stravaOrigin).searchParams;
      queries.push(query);
      const before = query.get("before");
      const listed = before === null ? newestFirst : newestFirst.filter((a) => Date.parse(a.start_date) / 1000 < Number(before));
      const page = Number(query.get("page") ?? 1);
      const perPage = Number(query.get("per_page") ?? 30);
      return JSON.stringify(listed.slice((page - 1) * perPage, page * perPage));
    })
    .persist();
  return queries;
}

async function summarize(args: Record<string, unknown> = {}): Promise<TrainingLoadAnswer> {
  const result = await core.call("get_activities", { summary: true, ...args });
  expect(result.isError, textOf(result)).toBeUndefined();
  return JSON.parse(textOf(result)) as TrainingLoadAnswer;
}

/** `count` activities a day, every day from `today` back over `days` days. */
function everyDay(days: number, count: number): Summary[] {
  const list: Summary[] = [];
  for (let back = 0; back < days; back++)
    for (let i = 0; i < count; i++) list.push(activity(addDays(today, -back), 6 + i, { suffer_score: 20 + ((back + i) % 7) * 5 }));
  return list;
}

describe("paging", () => {
  it("reads 200 a page, newest first, until a page reaches back past the window's first date", async () => {
    const queries = serveActivities(everyDay(150, 3));
    const summary = await summarize();
    expect(queries.map((query) => Object.fromEntries(query))).toEqual([
      { page: "1", per_page: "200" },
      { page: "2", per_page: "200" },
    ]);
    // Twelve calendar weeks: from the Monday eleven weeks before this week's.
    expect(summary.window).toEqual({
      first: "2026-08-31",
      last: today,
      time_zone: "America/Denver",
      activities: 83 * 3,
      upstream_requests: 2,
      complete: true,
    });
    expect(summary.weeks.map((week) => week.total.count)).toEqual([...new Array<number>(11).fill(21), 18]);
    expect(mock.requests()).toBe(2);
  });

  it("stops at the end of the list", async () => {
    serveActivities(everyDay(30, 1));
    const summary = await summarize();
    expect(summary.window).toMatchObject({ activities: 30, upstream_requests: 1, complete: true });
  });

  it("stops at its bound of five pages and says where: the window then starts the day after the earliest date read", async () => {
    const queries = serveActivities(everyDay(83, 15));
    const summary = await summarize();
    expect(queries.map((query) => query.get("page"))).toEqual(["1", "2", "3", "4", "5"]);
    // 1,000 activities read, 15 a day: back to 66 days before today, whose last activities were on page 6.
    const earliest = addDays(today, -66);
    expect(summary.window).toEqual({
      first: addDays(earliest, 1),
      last: today,
      time_zone: "America/Denver",
      activities: 66 * 15,
      upstream_requests: 5,
      complete: false,
    });
    expect(summary.days.first).toBe(addDays(earliest, 1));
    expect(summary.notes[0]).toMatch(
      new RegExp(`^Paging stopped at its bound \\(5 pages of 200 activities\\): dates before ${addDays(earliest, 1)} were not read`),
    );
  });
});

describe("loads without a suffer_score", () => {
  const mixed = () => [
    activity("2026-11-10", 7, { suffer_score: 60, average_heartrate: 150, moving_time: 3_600 }),
    activity("2026-11-12", 7, { suffer_score: 90, average_heartrate: 160, moving_time: 3_600 }),
    activity("2026-11-14", 7, { suffer_score: 30, average_heartrate: 130, moving_time: 2_400 }),
    activity("2026-11-18", 12, { sport_type: "VirtualRide", suffer_score: null, average_heartrate: 141, moving_time: 3_900 }),
    activity("2026-11-19", 9, {
      sport_type: "Hike",
      suffer_score: null,
      average_heartrate: undefined,
      has_heartrate: false,
      moving_time: 10_800,
    }),
  ];

  it("with heart rate: an estimate from the athlete's zones, read in one more request, calibrated and labelled", async () => {
    const list = mixed();
    serveActivities(list);
    mock.strava.intercept({ path: "/api/v3/athlete/zones", method: "GET" }).reply(200, zonesBody);
    const summary = await summarize();
    expect(summary.window.upstream_requests).toBe(2);
    expect(mock.requests()).toBe(2);
    const zones = (JSON.parse(zonesBody) as { heart_rate: { zones: Array<{ min: number; max: number }> } }).heart_rate.zones;
    const loads = referenceActivityLoads(list, zones);
    // The ride: 1.08 h at zone 2's 60 an hour, scaled; the hike: 3 h at the athlete's 67.5 an hour.
    expect(loads.slice(3)).toEqual([Math.round((3_900 / 3600) * 60 * 0.837), Math.round(3 * 67.5)]);
    const byDate = new Map(list.map((a, i) => [a.start_date_local.slice(0, 10), loads[i]!]));
    summary.days.loads.forEach((load, i) => expect(load).toBe(byDate.get(addDays(summary.days.first, i)) ?? 0));
    expect(summary.load_source).toEqual({
      suffer_score: 3,
      // (60 + 90 + 30) / (1 h x 60 + 1 h x 115 + 0.67 h x 60): the zone 2, 3 and 2 rates.
      heart_rate_estimate: { count: 1, scale: 0.837, calibrated_on: 3 },
      // (60 + 90 + 30) / 2.67 h.
      moving_time_estimate: { count: 1, per_hour: 67.5, calibrated_on: 3 },
    });
    expect(summary.notes).toContain("2 of 5 activities have no Relative Effort from Strava; their load is an estimate (load_source).");
  });

  it("zones refused (no profile:read_all): the call still answers, estimating from moving time, and says why", async () => {
    serveActivities(mixed());
    mock.strava.intercept({ path: "/api/v3/athlete/zones", method: "GET" }).reply(
      401,
      JSON.stringify({
        message: "Authorization Error",
        errors: [{ resource: "AccessToken", field: "profile:read_all_permission", code: "missing" }],
      }),
    );
    const summary = await summarize();
    expect(summary.window.upstream_requests).toBe(2);
    expect(summary.load_source.heart_rate_estimate.count).toBe(0);
    expect(summary.load_source.moving_time_estimate.count).toBe(2);
    expect(summary.notes.join(" ")).toMatch(/heart-rate zones could not be read \(Strava answered 401 .*GET \/athlete\/zones/);
  });

  it("no zones request when nothing needs them (every activity scored, or unscored ones without heart rate)", async () => {
    serveActivities(mixed().filter((a) => a.sport_type !== "VirtualRide"));
    const summary = await summarize();
    expect(summary.window.upstream_requests).toBe(1);
    expect(mock.requests()).toBe(1);
    expect(summary.load_source.moving_time_estimate.count).toBe(1);
  });
});

describe("small windows", () => {
  it("no activity at all: zeros, null ratios, the run of active days empty, dates in UTC", async () => {
    serveActivities([]);
    const summary = await summarize();
    expect(summary.window).toEqual({
      first: "2026-08-31",
      last: today,
      time_zone: "UTC",
      activities: 0,
      upstream_requests: 1,
      complete: true,
    });
    expect(summary.days.loads.every((load) => load === 0)).toBe(true);
    expect(summary.weeks.every((week) => week.total.count === 0 && week.rest_days === week.days && week.load_change_percent === null)).toBe(
      true,
    );
    expect(summary.load).toEqual({
      fitness: 0,
      fatigue: 0,
      form: 0,
      acute_chronic_ratio: null,
      monotony: null,
      strain: null,
      longest_run_without_rest: { days: 0, ends: null },
    });
    expect(summary.notes).toEqual(["No listed activity gives the athlete's time zone, so dates are UTC dates."]);
  });

  it("one activity in a ten-day window: each number from the days, and notes on what ten days cannot show", async () => {
    serveActivities([activity("2026-11-19", 7, { suffer_score: 77 }), activity("2026-10-01", 7)]);
    const after = Date.parse("2026-11-12T07:00:00Z") / 1000; // local midnight in Denver
    const summary = await summarize({ after });
    expect(summary.window).toMatchObject({ first: "2026-11-12", last: today, activities: 1 });
    expect(summary.days.loads).toEqual([0, 0, 0, 0, 0, 0, 0, 77, 0, 0]);
    expect(summary.weeks.map((week) => [week.week, week.partial, week.days, week.total.load])).toEqual([
      ["2026-11-09", true, 4, 0],
      ["2026-11-16", true, 6, 77],
    ]);
    const reference = referenceLoad(
      summary.days.loads,
      summary.days.loads.map((load) => load > 0),
      summary.days.first,
    );
    expect(summary.load.fitness).toBeCloseTo(reference.fitness, 1);
    expect(summary.load.fatigue).toBeCloseTo(reference.fatigue, 1);
    expect(summary.load.form).toBeCloseTo(reference.form, 1);
    expect(summary.load.monotony).toBeCloseTo(reference.monotony!, 2);
    expect(summary.load.strain).toBe(Math.round(reference.strain!));
    expect(summary.load.acute_chronic_ratio).toBeNull();
    expect(summary.load.longest_run_without_rest).toEqual({ days: 1, ends: "2026-11-19" });
    expect(summary.notes).toEqual([
      "The window has 10 days: fitness (CTL) builds over about six weeks, so fitness and form read low; ask for a longer window before judging them.",
      "The acute:chronic ratio needs 28 days of load; this window has 10.",
    ]);
  });

  it("after and before choose local dates in the newest activity's zone; before is sent to Strava, after is not", async () => {
    const tokyo = (date: string, hour: number) => activity(date, hour, {}, "(GMT+09:00) Asia/Tokyo", 9);
    const queries = serveActivities([tokyo("2026-10-31", 23), tokyo("2026-11-01", 6), tokyo("2026-11-14", 22), tokyo("2026-11-15", 6)]);
    const after = Date.parse("2026-10-31T15:00:00Z") / 1000; // 2026-11-01 00:00 in Tokyo
    const before = Date.parse("2026-11-14T15:00:00Z") / 1000; // 2026-11-15 00:00 in Tokyo
    const summary = await summarize({ after, before });
    expect(queries.map((query) => Object.fromEntries(query))).toEqual([{ before: String(before), page: "1", per_page: "200" }]);
    expect(summary.window).toMatchObject({ first: "2026-11-01", last: "2026-11-14", time_zone: "Asia/Tokyo", activities: 2 });
  });
});

describe("arguments refused before anything is sent", () => {
  const now = Math.floor(testNow / 1000);
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      "after later than before",
      { after: now - 86_400, before: now - 2 * 86_400 },
      /^Error: after \(\d+\) must be earlier than before \(\d+\)/,
    ],
    [
      "a window over 366 days",
      { after: now - 400 * 86_400 },
      /^Error: after \(\d+\) is 400 days before now; a summary covers at most 366 days/,
    ],
    [
      "a window over 366 days between after and before",
      { after: now - 500 * 86_400, before: now - 100 * 86_400 },
      /^Error: after \(\d+\) is 400 days before before \(\d+\)/,
    ],
    ["after in the future", { after: now + 3_600 }, /^Error: after \(\d+\) is in the future/],
    ["page", { page: 2 }, /^Error: page does not apply with summary: true/],
    ["page 1, given", { page: 1 }, /^Error: page does not apply with summary: true/],
    ["per_page", { per_page: 200 }, /^Error: per_page does not apply with summary: true/],
    ["fields", { fields: ["id"] }, /^Error: fields does not apply with summary: true/],
    ["summary not a boolean", { summary: "yes" }, /^Error: Invalid arguments for get_activities: summary must be true or false/],
  ];
  it.each(cases)("%s", async (_, args, message) => {
    const result = await core.call("get_activities", { summary: true, ...args });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
    expect(mock.requests()).toBe(0);
  });
});
