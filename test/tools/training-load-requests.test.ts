/**
 * get_activities with summary: true, with Strava faked at the connection layer (undici's MockAgent) and the
 * real core in between: the pages it asks for and where it stops (past the history 126 days before the window,
 * at the end of the list, at its bound), when it reads the athlete's FTP and zones, each kind of estimate and its
 * calibration, the notes on a short history and on every null, the answer for no activity and for one, windows
 * in the newest activity's zone with their last date read whole, and the arguments it refused before anything is
 * sent.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileBackedCore, textOf, type FileBackedCore } from "../support/core-harness.ts";
import { mockStrava, pathAnyQuery, stravaOrigin, type StravaMock } from "../support/strava-mock.ts";
import { testNow } from "../support/test-clock.ts";
import { addDays, daysBetween, heartRateRate, referenceActivityLoads, referenceLoad } from "../support/training-load-reference.ts";
import type { StravaLoadAnswer } from "../../tools/training-load/training-load-answer.ts";
import { heartRatePointsPerHour } from "../../tools/training-load/effort-points.ts";

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
const zones = [
  { min: 0, max: 122 },
  { min: 122, max: 152 },
  { min: 152, max: 167 },
  { min: 167, max: 182 },
  { min: 182, max: -1 },
];
const zonesBody = JSON.stringify({ heart_rate: { custom_zones: false, zones }, power: { zones: [] } });
/** The calibration span of testNow: the 126 dates to today. */
const calibration = { first: addDays("2026-11-21", -125), last: "2026-11-21" };
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
  device_watts?: boolean;
  weighted_average_watts?: number;
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

async function summarize(args: Record<string, unknown> = {}): Promise<StravaLoadAnswer> {
  const result = await core.call("get_activities", { summary: true, ...args });
  expect(result.isError, textOf(result)).toBeUndefined();
  return JSON.parse(textOf(result)) as StravaLoadAnswer;
}

/** `count` activities a day, every day from `today` back over `days` days. */
function everyDay(days: number, count: number): Summary[] {
  const list: Summary[] = [];
  for (let back = 0; back < days; back++)
    for (let i = 0; i < count; i++) list.push(activity(addDays(today, -back), 6 + i, { suffer_score: 20 + ((back + i) % 7) * 5 }));
  return list;
}

describe("paging", () => {
  it("reads 200 a page, newest first from today, until a page reaches back past the history 126 days before the window", async () => {
    const queries = serveActivities(everyDay(500, 1));
    const summary = await summarize();
    expect(queries.map((query) => Object.fromEntries(query))).toEqual([
      { page: "1", per_page: "200" },
      { page: "2", per_page: "200" },
    ]);
    // Twelve calendar weeks: from the Monday eleven weeks before this week's; 126 days before it is 2026-04-27, and page 2
    // reached 399 days back. Everything read counts as history, from the day after the earliest date read.
    expect(summary.window).toEqual({
      first: "2026-08-31",
      last: today,
      time_zone: "America/Denver",
      activities: 83,
      history_from: addDays(today, -398),
      upstream_requests: 2,
      complete: true,
    });
    expect(summary.weeks.map((week) => week.total.count)).toEqual([...new Array<number>(11).fill(7), 6]);
    expect(summary.notes).toEqual([]);
    expect(mock.requests()).toBe(2);
  });

  it("stops at the end of the list, whose first activity starts the history; under 42 days of it, a note says fitness reads low", async () => {
    serveActivities(everyDay(90, 1));
    const summary = await summarize();
    expect(summary.window).toMatchObject({ activities: 83, history_from: addDays(today, -89), upstream_requests: 1, complete: true });
    expect(summary.notes).toEqual([
      `Only 7 days of history precede the window (Strava lists no activity before ${addDays(today, -89)}): fitness (CTL) builds over about six weeks, so fitness and form read low if the athlete trained before then.`,
    ]);
  });

  it("stops at its bound of five pages and says where: a history cut short, fitness from 0 there, and complete false", async () => {
    const queries = serveActivities(everyDay(200, 6));
    const summary = await summarize();
    expect(queries.map((query) => query.get("page"))).toEqual(["1", "2", "3", "4", "5"]);
    // 1,000 activities read, 6 a day: back to 166 days before today, whose last activities were on page 6.
    const from = addDays(today, -165);
    expect(summary.window).toEqual({
      first: "2026-08-31",
      last: today,
      time_zone: "America/Denver",
      activities: 83 * 6,
      history_from: from,
      upstream_requests: 5,
      complete: false,
    });
    expect(summary.notes).toEqual([
      `Paging stopped at its bound (5 pages of 200 activities): dates before ${from} were not read, so fitness and fatigue start from 0 the day before.`,
    ]);
  });

  it("when the bound cuts into the window, the window starts the day after the earliest date read", async () => {
    const queries = serveActivities(everyDay(83, 15));
    const summary = await summarize();
    expect(queries.map((query) => query.get("page"))).toEqual(["1", "2", "3", "4", "5"]);
    // 1,000 activities read, 15 a day: back to 66 days before today, whose last activities were on page 6.
    const first = addDays(today, -65);
    expect(summary.window).toEqual({
      first,
      last: today,
      time_zone: "America/Denver",
      activities: 66 * 15,
      history_from: first,
      upstream_requests: 5,
      complete: false,
    });
    expect(summary.days.first).toBe(first);
    expect(summary.notes.slice(0, 2)).toEqual([
      `Paging stopped at its bound (5 pages of 200 activities): dates before ${first} were not read, so the window starts there and fitness and fatigue start from 0 the day before. Ask with a later after for a complete window.`,
      "Only 0 days of history precede the window: fitness (CTL) builds over about six weeks, so fitness and form read low.",
    ]);
  });

  it("a window that ends before the bound's reach is refused, saying how far back it reached", async () => {
    serveActivities(everyDay(300, 6));
    const before = Date.parse(`${addDays(today, -200)}T18:00:00Z`) / 1000; // noon in Denver: the last date is that day
    const result = await core.call("get_activities", { summary: true, before, after: before - 30 * 86_400 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `Error: Reading back from today stopped at its bound of 5 pages (1000 activities) on ${addDays(today, -166)}, after the window's last date ${addDays(today, -200)}: ask for a window that ends after ${addDays(today, -166)} (a later before).`,
    );
  });
});

describe("estimates from the best signal", () => {
  const run = (date: string, score: number, heartrate: number, hours: number) =>
    activity(date, 7, { suffer_score: score, average_heartrate: heartrate, moving_time: hours * 3_600 });
  const mixed = () => [
    run("2026-11-10", 60, 150, 1),
    run("2026-11-12", 90, 160, 1),
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

  it("heart rate: placed between the athlete's zone bounds, read in one more request, calibrated on the activities with both", async () => {
    const list = mixed();
    serveActivities(list);
    mock.strava.intercept({ path: "/api/v3/athlete/zones", method: "GET" }).reply(200, zonesBody);
    const summary = await summarize();
    expect(summary.window.upstream_requests).toBe(2);
    expect(mock.requests()).toBe(2);
    // Rates at 150, 160 and 130 bpm: 28/30 into zone 2, 8/15 into zone 3, 8/30 into zone 2, on the lines between the
    // zones' middles (60 and 115, 115 and 250, 25 and 60 an hour).
    const rates = [60 + 55 * (28 / 30 - 0.5), 115 + 135 * (8 / 15 - 0.5), 25 + 35 * (8 / 30 + 0.5)];
    expect([150, 160, 130].map((bpm) => heartRateRate(bpm, zones))).toEqual(rates.map((rate) => expect.closeTo(rate, 9)));
    const scale = Math.round((180 / (rates[0]! + rates[1]! + (rates[2]! * 2) / 3)) * 1000) / 1000;
    const ride = Math.round((3_900 / 3_600) * (60 + 55 * (19 / 30 - 0.5)) * scale);
    expect(summary.days.loads.slice(-4, -2)).toEqual([ride, Math.round(3 * 67.5)]);
    const reference = referenceActivityLoads(list, { today, zones });
    expect(reference.map((item) => item.source)).toEqual(["suffer_score", "suffer_score", "suffer_score", "heart_rate", "moving_time"]);
    expect(reference.slice(3).map((item) => item.load)).toEqual([ride, Math.round(3 * 67.5)]);
    expect(summary.load_source).toEqual({
      calibration,
      suffer_score: 3,
      power_estimate: { count: 0, scale: 1, calibrated_on: 0, ftp: null },
      heart_rate_estimate: { count: 1, scale, calibrated_on: 3 },
      // Fewer than 3 scored walks and hikes: the rate of all sports, (60 + 90 + 30) / 2.67 h.
      moving_time_estimate: { count: 1, families: { walks_hikes: { count: 1, per_hour: 67.5, rate_of: "all_sports", calibrated_on: 3 } } },
    });
    expect(summary.notes).toContain("2 of 5 activities have no Relative Effort from Strava; their load is an estimate (load_source).");
  });

  it("no step at a zone's edge: the rate a hundredth of a beat either side of one is nearly the same, and the reference's everywhere", () => {
    for (const zone of zones.slice(0, -1)) {
      const below = heartRatePointsPerHour(zone.max - 0.01, zones);
      const above = heartRatePointsPerHour(zone.max + 0.01, zones);
      expect(Math.abs(above - below), `${zone.max} bpm`).toBeLessThan(0.2);
    }
    for (let bpm = 40; bpm <= 210; bpm += 0.5)
      expect(heartRatePointsPerHour(bpm, zones), `${bpm} bpm`).toBeCloseTo(heartRateRate(bpm, zones), 9);
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
    expect(summary.notes.join(" ")).toMatch(
      /heart-rate zones could not be read \(Strava answered 401 .*GET \/athlete\/zones.*\); activities with heart rate but no Relative Effort are estimated from moving time\./,
    );
  });

  it("no zones request when nothing needs them (every activity scored, or unscored ones without heart rate)", async () => {
    serveActivities(mixed().filter((a) => a.sport_type !== "VirtualRide"));
    const summary = await summarize();
    expect(summary.window.upstream_requests).toBe(1);
    expect(mock.requests()).toBe(1);
    expect(summary.load_source.moving_time_estimate.count).toBe(1);
  });

  const powered = (date: string, score: number | null, watts: number, hours = 1) =>
    activity(date, 17, {
      sport_type: "VirtualRide",
      suffer_score: score,
      average_heartrate: 150,
      moving_time: hours * 3_600,
      device_watts: true,
      weighted_average_watts: watts,
    });
  const poweredList = () => [
    powered("2026-11-02", 70, 200),
    powered("2026-11-05", 100, 230, 1.5),
    powered("2026-11-09", 48, 180),
    powered("2026-11-18", null, 215, 1.25),
  ];

  it("power: weighted watts against the athlete's FTP (GET /athlete), calibrated on the rides with both, no zones needed", async () => {
    const list = poweredList();
    serveActivities(list);
    mock.strava.intercept({ path: "/api/v3/athlete", method: "GET" }).reply(200, JSON.stringify({ id: 1, resource_state: 3, ftp: 250 }));
    const summary = await summarize();
    expect(summary.window.upstream_requests).toBe(2);
    expect(mock.requests()).toBe(2);
    // Training Stress Score: hours x (watts / FTP)^2 x 100.
    const tss = (watts: number, hours: number) => hours * (watts / 250) ** 2 * 100;
    const scale = Math.round((218 / (tss(200, 1) + tss(230, 1.5) + tss(180, 1))) * 1000) / 1000;
    expect(summary.load_source.power_estimate).toEqual({ count: 1, scale, calibrated_on: 3, ftp: 250 });
    expect(summary.days.loads.at(-4)).toBe(Math.round(tss(215, 1.25) * scale));
    expect(referenceActivityLoads(list, { today, ftp: 250 }).at(-1)).toEqual({ load: Math.round(tss(215, 1.25) * scale), source: "power" });
  });

  it("no FTP without profile:read_all (GET /athlete answers the summary profile): heart rate instead, and a note says why", async () => {
    serveActivities(poweredList());
    mock.strava.intercept({ path: "/api/v3/athlete", method: "GET" }).reply(200, JSON.stringify({ id: 1, resource_state: 2 }));
    mock.strava.intercept({ path: "/api/v3/athlete/zones", method: "GET" }).reply(200, zonesBody);
    const summary = await summarize();
    expect(summary.window.upstream_requests).toBe(3);
    expect(summary.load_source.power_estimate).toEqual({ count: 0, scale: 1, calibrated_on: 0, ftp: null });
    expect(summary.load_source.heart_rate_estimate.count).toBe(1);
    expect(summary.notes).toContain(
      "Strava's athlete profile gives no FTP (GET /athlete includes it only with the profile:read_all scope, and only once the athlete has set one); activities with device power but no Relative Effort are estimated from heart rate.",
    );
  });

  it("fewer than 3 rides with both power and Relative Effort: no FTP request, heart rate instead, said so", async () => {
    serveActivities(poweredList().slice(1));
    mock.strava.intercept({ path: "/api/v3/athlete/zones", method: "GET" }).reply(200, zonesBody);
    const summary = await summarize();
    expect(summary.window.upstream_requests).toBe(2);
    expect(summary.load_source.heart_rate_estimate.count).toBe(1);
    expect(summary.notes).toContain(
      `Only 2 activities from ${calibration.first} have both device power and Relative Effort (3 are needed to put power on that scale), so activities with power but no Relative Effort are estimated from heart rate.`,
    );
  });

  it("moving time at the family's own rate once 3 of its activities are scored; the all-sports rate otherwise; one load whatever the window", async () => {
    const yoga = (date: string, score: number | null, hours: number) =>
      activity(date, 19, {
        sport_type: "Yoga",
        suffer_score: score,
        average_heartrate: undefined,
        has_heartrate: false,
        moving_time: hours * 3_600,
      });
    const list = [
      yoga("2026-10-01", 8, 1),
      yoga("2026-10-08", 6, 0.75),
      yoga("2026-10-15", 10, 1),
      activity("2026-10-20", 7, { suffer_score: 90, moving_time: 3_600 }),
      yoga("2026-11-20", null, 1),
      activity("2026-11-21", 6, {
        sport_type: "Swim",
        suffer_score: null,
        average_heartrate: undefined,
        has_heartrate: false,
        moving_time: 1_800,
      }),
    ];
    serveActivities(list);
    const summary = await summarize();
    expect(summary.load_source.moving_time_estimate).toEqual({
      count: 2,
      families: {
        // 24 points in 2.75 h of yoga; the swim takes all sports' 114 points in 3.75 h.
        mobility: { count: 1, per_hour: 8.7, rate_of: "mobility", calibrated_on: 3 },
        swims: { count: 1, per_hour: 30.4, rate_of: "all_sports", calibrated_on: 4 },
      },
    });
    expect(summary.days.loads.slice(-2)).toEqual([9, 15]);
    // The same loads in a two-day window: the rates come from the span to today, not from the window.
    const after = Date.parse("2026-11-20T07:00:00Z") / 1000;
    expect((await summarize({ after })).days.loads).toEqual([9, 15]);
  });
});

describe("small windows and edges", () => {
  it("no activity at all: zeros, and a note for every null", async () => {
    serveActivities([]);
    const summary = await summarize();
    expect(summary.window).toEqual({
      first: "2026-08-31",
      last: today,
      time_zone: "UTC",
      activities: 0,
      history_from: "2026-08-31",
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
      form_percent: null,
      ramp_rate: 0,
      acute_chronic_ratio: null,
      monotony: null,
      strain: null,
      longest_run_without_rest: { days: 0, ends: null },
    });
    expect(summary.notes).toEqual([
      "Only 0 days of history precede the window (Strava lists no activity before 2026-08-31): fitness (CTL) builds over about six weeks, so fitness and form read low if the athlete trained before then.",
      "No listed activity gives the athlete's time zone, so dates are UTC dates.",
      "The acute:chronic ratio is null: the last 28 days hold no load.",
      "Monotony and strain are null: the last 7 daily loads are all 0, and monotony divides their mean by their spread, which is 0.",
      "Form as a percentage of fitness is null: fitness on the day before the last date is 0.",
    ]);
  });

  it("seven identical daily loads: monotony and strain null, and a note says it is the spread of 0", async () => {
    serveActivities(Array.from({ length: 60 }, (_, back) => activity(addDays(today, -back), 7, { suffer_score: 50 })));
    const summary = await summarize();
    expect(summary.load).toMatchObject({ monotony: null, strain: null, acute_chronic_ratio: 1 });
    expect(summary.notes).toContain(
      "Monotony and strain are null: the last 7 daily loads are all 50, and monotony divides their mean by their spread, which is 0.",
    );
  });

  it("a ten-day window: its numbers from the history before it, so nothing is null for being short", async () => {
    const list = [
      activity("2026-11-19", 7, { suffer_score: 77 }),
      activity("2026-10-01", 7),
      activity("2026-10-20", 8, { suffer_score: 55 }),
    ];
    serveActivities(list);
    const after = Date.parse("2026-11-12T07:00:00Z") / 1000; // local midnight in Denver
    const summary = await summarize({ after });
    expect(summary.window).toMatchObject({ first: "2026-11-12", last: today, activities: 1, history_from: "2026-10-01" });
    expect(summary.days.loads).toEqual([0, 0, 0, 0, 0, 0, 0, 77, 0, 0]);
    expect(summary.weeks.map((week) => [week.week, week.partial, week.days, week.total.load])).toEqual([
      ["2026-11-09", true, 4, 0],
      ["2026-11-16", true, 6, 77],
    ]);
    const history = new Array<number>(daysBetween("2026-10-01", today) + 1).fill(0);
    history[0] = 40;
    history[daysBetween("2026-10-01", "2026-10-20")] = 55;
    history[daysBetween("2026-10-01", "2026-11-19")] = 77;
    const reference = referenceLoad(
      history,
      "2026-10-01",
      "2026-11-12",
      summary.days.loads.map((load) => load > 0),
    );
    expect(summary.load.fitness).toBeCloseTo(reference.fitness, 1);
    expect(summary.load.fatigue).toBeCloseTo(reference.fatigue, 1);
    expect(summary.load.form).toBeCloseTo(reference.form, 1);
    expect(summary.load.form_percent).toBe(reference.form_percent);
    expect(summary.load.ramp_rate).toBeCloseTo(reference.ramp_rate, 1);
    expect(summary.load.monotony).toBeCloseTo(reference.monotony!, 2);
    expect(summary.load.strain).toBe(Math.round(reference.strain!));
    expect(summary.load.acute_chronic_ratio).toBeCloseTo(reference.acute_chronic_ratio!, 2);
    expect(summary.load.longest_run_without_rest).toEqual({ days: 1, ends: "2026-11-19" });
    expect(summary.trend.first).toBe(addDays(today, -27));
    expect(summary.notes).toEqual([]);
  });

  it("after and before choose local dates in the newest activity's zone; neither is sent, and the last date is read whole", async () => {
    const tokyo = (date: string, hour: number) => activity(date, hour, {}, "(GMT+09:00) Asia/Tokyo", 9);
    const queries = serveActivities([
      tokyo("2026-10-31", 23),
      tokyo("2026-11-01", 6),
      tokyo("2026-11-14", 9),
      { ...tokyo("2026-11-14", 23), start_date_local: "2026-11-14T23:30:00Z", start_date: "2026-11-14T14:30:00Z" },
      tokyo("2026-11-15", 6),
    ]);
    const after = Date.parse("2026-10-31T15:00:00Z") / 1000; // 2026-11-01 00:00 in Tokyo
    const before = Date.parse("2026-11-14T03:00:00Z") / 1000; // 2026-11-14 12:00 in Tokyo: the last date is the 14th
    const summary = await summarize({ after, before });
    expect(queries.map((query) => Object.fromEntries(query))).toEqual([{ page: "1", per_page: "200" }]);
    expect(summary.window).toMatchObject({ first: "2026-11-01", last: "2026-11-14", time_zone: "Asia/Tokyo", activities: 3 });
    // The 14th whole: the run at 09:00 and the one at 23:30, after before's noon.
    expect(summary.days.loads.at(-1)).toBe(80);
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
