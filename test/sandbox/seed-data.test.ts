/**
 * The seeded athlete's data: deterministic for a seed and clock, about 180 activities over a year (a lighter base
 * period, then about 65 in the block of the last 90 days) with the ones a coach asks about first and a training
 * block worth flagging, ids as Strava writes them (segment efforts above 2^53, exact),
 * streams that agree with each activity's summary, stats computed from the activities, and the
 * parameter checks of the list, streams and club endpoints.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openSession, type ActivityLike, type SandboxSession } from "./sandbox-client.ts";
import { manualClock, testNow } from "../support/test-clock.ts";

const dayMs = 86_400_000;
const allKeys = "time,distance,latlng,altitude,velocity_smooth,heartrate,cadence,watts,temp,moving,grade_smooth";
let s: SandboxSession;
let activities: ActivityLike[];

beforeAll(async () => {
  // Room above Strava's 100 reads and 200 requests per 15 minutes: this file reads every activity's streams, one request each.
  s = await openSession({ clock: manualClock(testNow).now, rateLimits: { overall: [2_000, 20_000], read: [1_000, 10_000] } });
  activities = s.json<ActivityLike[]>(await s.get("/athlete/activities?per_page=200"));
});
afterAll(() => s.sandbox.close());

interface Stream<T = number> {
  data: T[];
  series_type: string;
  original_size: number;
  resolution: string;
}

describe("determinism", () => {
  test("the same seed and clock give byte-identical answers; another seed gives other data", async () => {
    const twin = await openSession({ clock: manualClock(testNow).now });
    const other = await openSession({ clock: manualClock(testNow).now, seed: 8 });
    try {
      const long = activities.find((a) => a.elapsed_time === 21_600)!;
      const paths = [
        "/athlete/activities?per_page=200",
        `/activities/${long.id}`,
        `/activities/${activities[0]!.id}`,
        `/activities/${long.id}/streams?keys=${allKeys}&key_by_type=true`,
        `/activities/${long.id}/zones`,
        "/athlete",
        `/athletes/${s.sandbox.athleteId}/stats`,
        `/clubs/${s.sandbox.clubId}/activities?per_page=100`,
      ];
      for (const path of paths) {
        const [a, b] = await Promise.all([s.get(path), twin.get(path)]);
        expect(a.status).toBe(200);
        expect(a.text === b.text, path).toBe(true);
      }
      expect(twin.sandbox.clientSecret).toBe(s.sandbox.clientSecret);
      expect((await other.get("/athlete/activities?per_page=200")).text).not.toBe((await s.get("/athlete/activities?per_page=200")).text);
    } finally {
      await Promise.all([twin.sandbox.close(), other.sandbox.close()]);
    }
  });
});

describe("the seeded athlete", () => {
  test("about 180 activities over the last year, one page of the list: about 65 in the block of the last 90 days, across every sport", () => {
    expect(activities.length).toBeGreaterThanOrEqual(150);
    expect(activities.length).toBeLessThan(200);
    const block = activities.filter((a) => Date.parse(a.start_date) > testNow - 90 * dayMs);
    expect(block.length).toBeGreaterThanOrEqual(55);
    expect(block.length).toBeLessThanOrEqual(80);
    for (const a of activities) {
      const start = Date.parse(a.start_date);
      expect(start).toBeLessThanOrEqual(testNow);
      expect(start).toBeGreaterThan(testNow - 365 * dayMs);
    }
    expect(activities.at(-1)!.start_date_local < "2025-12-01").toBe(true);
    for (const list of [activities, block]) {
      const types = new Set(list.map((a) => a.sport_type));
      for (const sport of ["Run", "Ride", "Swim", "WeightTraining", "Workout", "Yoga"]) expect(types, sport).toContain(sport);
      expect(types.has("Hike") || types.has("TrailRun")).toBe(true);
    }
    // Newest first.
    const starts = activities.map((a) => Date.parse(a.start_date));
    expect([...starts].sort((x, y) => y - x)).toEqual(starts);
  });

  test("a lighter base period before the block: fewer sessions a week, easy runs only, rides without device power", () => {
    const blockStart = testNow - 90 * dayMs;
    const base = activities.filter((a) => Date.parse(a.start_date) <= blockStart);
    const block = activities.filter((a) => Date.parse(a.start_date) > blockStart);
    expect(base.length / ((365 - 90) / 7)).toBeLessThan((0.75 * block.length) / (90 / 7));
    expect(base.filter((a) => a["workout_type"] === 3)).toEqual([]);
    const rides = (list: ActivityLike[]) => list.filter((a) => ["Ride", "VirtualRide"].includes(a.sport_type));
    expect(rides(base).length).toBeGreaterThan(0);
    for (const ride of rides(base))
      expect([ride.sport_type, ride["device_watts"], ride["weighted_average_watts"]]).toEqual([ride.sport_type, false, undefined]);
    // In the block, Blue's rides carry its power meter's watts.
    for (const ride of rides(block)) expect(ride["device_watts"], ride.name).toBe(true);
  });

  test("a run within the last 18 hours and a gym session on today's local date", () => {
    const recent = activities.filter((a) => testNow - Date.parse(a.start_date) <= 18 * 3_600_000);
    expect(recent.some((a) => a.sport_type === "Run")).toBe(true);
    // testNow is 2026-11-21 15:37 in Boulder.
    const gym = activities.filter(
      (a) => ["WeightTraining", "Workout"].includes(a.sport_type) && a.start_date_local.startsWith("2026-11-21"),
    );
    expect(gym.length).toBeGreaterThanOrEqual(1);
    expect(gym[0]!.name).toMatch(/Weight Training$/);
  });

  test("a training block: a recovery week three weeks back, an activity on each of the last nine days, a hike logged by hand", () => {
    // Local dates in Boulder; testNow is Saturday 2026-11-21, so three weeks back is the week of Monday 26 October.
    const onDate = (date: string) => activities.filter((a) => a.start_date_local.startsWith(date));
    const recovery = activities.filter((a) => a.start_date_local >= "2026-10-26" && a.start_date_local < "2026-11-02");
    expect(recovery.map((a) => a.sport_type).sort()).toEqual(["Swim", "WeightTraining", "Yoga"]);
    for (let day = 13; day <= 21; day++) expect(onDate(`2026-11-${day}`).length, `2026-11-${day}`).toBeGreaterThanOrEqual(1);
    const lastSeven = activities.filter((a) => a.start_date_local >= "2026-11-15");
    const weekBefore = activities.filter((a) => a.start_date_local >= "2026-11-08" && a.start_date_local < "2026-11-15");
    const time = (list: ActivityLike[]) => list.reduce((sum, a) => sum + a.moving_time, 0);
    expect(time(lastSeven)).toBeGreaterThan(1.3 * time(weekBefore));
    const byHand = activities.filter((a) => a.manual);
    expect(byHand.map((a) => [a.sport_type, a["has_heartrate"], a["suffer_score"]])).toEqual([["Hike", false, null]]);
    // Some activities have heart rate but no Relative Effort from Strava (the Zwift rides): with device power in the
    // block, Blue's power meter; without it in the base period's winter.
    const unscored = activities.filter((a) => !a.manual && a["suffer_score"] === null);
    for (const power of [true, false])
      expect(unscored.filter((a) => a["device_watts"] === power).length, `device_watts ${power}`).toBeGreaterThan(0);
    for (const a of unscored) {
      expect([a.sport_type, a["has_heartrate"]]).toEqual(["VirtualRide", true]);
      expect(a["device_watts"]).toBe(Date.parse(a.start_date) > testNow - 90 * dayMs);
    }
    expect(activities.filter((a) => a["suffer_score"] !== null).every((a) => (a["suffer_score"] as number) >= 1)).toBe(true);
  });

  test("the athlete's own zones (GET /athlete/zones): five heart-rate zones from 0 up, open at the top, and power zones", async () => {
    const zones = s.json<{
      heart_rate: { custom_zones: boolean; zones: Array<{ min: number; max: number }> };
      power: { zones: unknown[] };
    }>(await s.get("/athlete/zones"));
    expect(zones.heart_rate.zones).toHaveLength(5);
    expect(zones.heart_rate.zones[0]!.min).toBe(0);
    expect(zones.heart_rate.zones.at(-1)!.max).toBe(-1);
    for (let i = 1; i < 5; i++) expect(zones.heart_rate.zones[i]!.min).toBe(zones.heart_rate.zones[i - 1]!.max);
    expect(zones.power.zones.length).toBeGreaterThan(0);
  });

  test("start_date_local is local wall time with Strava's misleading Z: start_date plus utc_offset, across daylight saving", () => {
    const offsets = new Set<number>();
    for (const a of activities) {
      const offset = a["utc_offset"] as number;
      offsets.add(offset);
      expect(a.start_date_local.endsWith("Z")).toBe(true);
      expect(Date.parse(a.start_date_local) - Date.parse(a.start_date)).toBe(offset * 1000);
      expect(a["timezone"]).toBe("(GMT-07:00) America/Denver");
    }
    // The year before 21 November holds both summer and winter time.
    expect(offsets).toEqual(new Set([-25200, -21600]));
  });

  test("activity ids fit in 2^53; segment-effort ids exceed it and are written as exact digits", async () => {
    for (const a of activities) {
      expect(Number.isSafeInteger(a.id)).toBe(true);
      expect(String(a.id)).toMatch(/^\d{10,11}$/);
    }
    const ride = activities.find((a) => a.elapsed_time === 21_600)!;
    const raw = (await s.get(`/activities/${ride.id}`)).text;
    const efforts = raw.slice(raw.indexOf('"segment_efforts":['), raw.indexOf('"splits_metric":'));
    const effortIds = [...efforts.matchAll(/\{"id":(\d+),"resource_state":2,"name":"[^"]+","activity":\{/g)].map((m) => m[1]!);
    expect(effortIds.length).toBeGreaterThan(0);
    for (const digits of effortIds) {
      expect(BigInt(digits) > 2n ** 53n).toBe(true);
      // A double cannot hold them: JSON.parse would change the digits.
      expect(String(Number(digits))).not.toBe(digits);
    }
  });

  test("the profile: Maya Lindgren in Boulder, a subscriber with two bikes, two pairs of shoes and one club", async () => {
    const athlete = s.json<
      Record<string, unknown> & { bikes: Array<{ id: string; distance: number }>; shoes: unknown[]; clubs: Array<{ id: number }> }
    >(await s.get("/athlete"));
    expect(athlete).toMatchObject({
      id: s.sandbox.athleteId,
      firstname: "Maya",
      lastname: "Lindgren",
      city: "Boulder",
      premium: true,
      measurement_preference: "meters",
    });
    expect(athlete.bikes.map((b) => b.id)).toEqual(["b9120457", "b10566312"]);
    expect(athlete.shoes.length).toBe(2);
    expect(athlete.clubs.map((c) => c.id)).toEqual([s.sandbox.clubId]);
    // Gear distance grows with the activities done on it.
    const onRoadBike = activities.filter((a) => a["gear_id"] === "b9120457").reduce((sum, a) => sum + a.distance, 0);
    expect(athlete.bikes[0]!.distance).toBe(Math.round(8_412_300 + onRoadBike));
  });
});

describe("streams agree with their activity", () => {
  test("the 6-hour ride: 21,600 points per stream; distance, moving time, heart rate, power, speed and climbing match the summary", async () => {
    const ride = activities.find((a) => a.elapsed_time === 21_600)!;
    const st = s.json<Record<string, Stream<number>>>(await s.get(`/activities/${ride.id}/streams?keys=${allKeys}&key_by_type=true`));
    for (const stream of Object.values(st)) {
      expect(stream.data.length).toBe(21_600);
      expect(stream).toMatchObject({ original_size: 21_600, resolution: "high", series_type: "distance" });
    }
    const moving = st["moving"]!.data as unknown as boolean[];
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(st["time"]!.data.at(-1)).toBe(21_599);
    expect(st["distance"]!.data.at(-1)).toBe(ride.distance);
    expect(moving.filter(Boolean).length).toBe(ride.moving_time);
    expect(Math.abs(mean(st["heartrate"]!.data) - (ride["average_heartrate"] as number))).toBeLessThanOrEqual(0.5);
    expect(Math.max(...st["heartrate"]!.data)).toBe(ride["max_heartrate"]);
    const movingWatts = st["watts"]!.data.filter((_, i) => moving[i]);
    expect(Math.abs(mean(movingWatts) - (ride["average_watts"] as number))).toBeLessThanOrEqual(0.5);
    expect(Math.max(...st["watts"]!.data)).toBe(ride["max_watts"]);
    expect(Math.max(...st["velocity_smooth"]!.data)).toBe(ride["max_speed"]);
    const pedalling = st["cadence"]!.data.filter((c) => c > 0);
    expect(Math.abs(mean(pedalling) - (ride["average_cadence"] as number))).toBeLessThanOrEqual(0.6);
    let gain = 0;
    const altitude = st["altitude"]!.data;
    for (let i = 1; i < altitude.length; i++) gain += Math.max(0, altitude[i]! - altitude[i - 1]!);
    expect(Math.abs(gain - (ride["total_elevation_gain"] as number)) / gain).toBeLessThan(0.03);
    expect(Math.max(...altitude)).toBeCloseTo(ride["elev_high"] as number, 0);
    expect((st["latlng"]!.data as unknown as number[][])[0]).toEqual(ride["start_latlng"]);
    // Stopped seconds add no distance.
    const distance = st["distance"]!.data;
    for (let i = 1; i < distance.length; i++) if (!moving[i]) expect(distance[i]).toBe(distance[i - 1]);
  });

  test("laps, splits and segment efforts in the detail index into the same streams", async () => {
    const run = activities.find((a) => a.sport_type === "Run" && a.distance > 8_000)!;
    const d = s.json<{
      laps: Array<{ distance: number; start_index: number; end_index: number; elapsed_time: number }>;
      splits_metric: Array<{ distance: number }>;
      segment_efforts: Array<{ start_index: number; end_index: number; elapsed_time: number }>;
      best_efforts: Array<{ name: string; distance: number; start_index: number; end_index: number }>;
    }>(await s.get(`/activities/${run.id}`));
    const distance = s.json<Record<string, Stream>>(await s.get(`/activities/${run.id}/streams?keys=distance&key_by_type=true`))[
      "distance"
    ]!.data;
    expect(d.laps.reduce((sum, l) => sum + l.distance, 0)).toBeCloseTo(run.distance, 0);
    expect(d.laps.at(-1)!.end_index).toBe(distance.length - 1);
    for (const lap of d.laps) expect(lap.elapsed_time).toBe(lap.end_index - lap.start_index);
    expect(d.splits_metric.length).toBe(Math.ceil(run.distance / 1000));
    expect(d.splits_metric.slice(0, -1).every((split) => Math.abs(split.distance - 1000) < 10)).toBe(true);
    for (const effort of d.segment_efforts) expect(effort.elapsed_time).toBe(effort.end_index - effort.start_index);
    const fiveK = d.best_efforts.find((e) => e.name === "5K")!;
    expect(distance[fiveK.end_index]! - distance[fiveK.start_index]!).toBeGreaterThanOrEqual(5000);
  });

  test("every recorded activity has streams of one length; gym sessions have time, heart rate and moving only", async () => {
    for (const a of activities.filter((x) => !x.manual)) {
      const list = s.json<Array<{ type: string; data: unknown[]; series_type: string }>>(
        await s.get(`/activities/${a.id}/streams?keys=${allKeys}`),
      );
      const lengths = new Set(list.map((st) => st.data.length));
      expect(lengths, `${a.sport_type} ${a.id}`).toEqual(new Set([a.elapsed_time]));
      if (["WeightTraining", "Workout", "Yoga"].includes(a.sport_type)) {
        expect(list.map((st) => st.type).sort()).toEqual(["heartrate", "moving", "time"]);
        expect(list[0]!.series_type).toBe("time");
      }
    }
  });

  test("zones count the moving seconds of the heart-rate stream by zone", async () => {
    const ride = activities.find((a) => a.elapsed_time === 21_600)!;
    const zones = s.json<Array<{ type: string; distribution_buckets: Array<{ min: number; max: number; time: number }> }>>(
      await s.get(`/activities/${ride.id}/zones`),
    );
    const heart = zones.find((z) => z.type === "heartrate")!;
    expect(heart.distribution_buckets.reduce((sum, b) => sum + b.time, 0)).toBe(ride.moving_time);
    expect(heart.distribution_buckets.map((b) => b.max).at(-1)).toBe(-1);
  });
});

describe("stats are computed from the activities", () => {
  test("recent (4 weeks), year-to-date and all-time totals of runs, rides and swims", async () => {
    const stats = s.json<
      Record<string, { count: number; distance: number; moving_time: number; elapsed_time: number; elevation_gain: number }>
    >(await s.get(`/athletes/${s.sandbox.athleteId}/stats`));
    const buckets: Record<string, string[]> = { ride: ["Ride", "VirtualRide"], run: ["Run"], swim: ["Swim"] };
    const periods: Record<string, number> = { recent: testNow - 28 * dayMs, ytd: Date.UTC(2026, 0, 1, 7), all: 0 };
    for (const [bucket, types] of Object.entries(buckets)) {
      for (const [period, from] of Object.entries(periods)) {
        const included = activities.filter((a) => types.includes(a.type) && Date.parse(a.start_date) >= from);
        const totals = stats[`${period}_${bucket}_totals`]!;
        expect(totals.count, `${period} ${bucket}`).toBe(included.length);
        expect(totals.distance).toBeCloseTo(
          included.reduce((sum, a) => sum + a.distance, 0),
          0,
        );
        expect(totals.moving_time).toBe(included.reduce((sum, a) => sum + a.moving_time, 0));
      }
    }
    expect(stats["recent_run_totals"]!.count).toBeGreaterThan(0);
    expect(stats["biggest_ride_distance"]).toBe(Math.max(...activities.filter((a) => a.type === "Ride").map((a) => a.distance)));
  });
});

describe("parameters", () => {
  test("list: per_page 1..200 and page >= 1, before/after filters, and oldest first with after (Strava's order)", async () => {
    for (const bad of ["per_page=0", "per_page=201", "per_page=ten", "page=0", "before=yesterday"]) {
      const answer = await s.get(`/athlete/activities?${bad}`);
      expect(answer.status, bad).toBe(400);
    }
    expect(s.json<unknown[]>(await s.get("/athlete/activities")).length).toBe(30);
    const page2 = s.json<ActivityLike[]>(await s.get("/athlete/activities?per_page=10&page=2"));
    expect(page2.map((a) => a.id)).toEqual(activities.slice(10, 20).map((a) => a.id));
    expect(s.json<unknown[]>(await s.get("/athlete/activities?page=99"))).toEqual([]);
    const after = Math.floor((testNow - 7 * dayMs) / 1000);
    const before = Math.floor((testNow - 2 * dayMs) / 1000);
    const window = s.json<ActivityLike[]>(await s.get(`/athlete/activities?after=${after}&before=${before}`));
    const expected = activities
      .filter((a) => Date.parse(a.start_date) / 1000 > after && Date.parse(a.start_date) / 1000 < before)
      .reverse();
    expect(window.map((a) => a.id)).toEqual(expected.map((a) => a.id));
  });

  test("streams: keys are required and checked, key_by_type chooses the shape, the series stream is always added", async () => {
    const ride = activities.find((a) => a.elapsed_time === 21_600)!;
    for (const bad of ["", "?keys=", "?keys=time,power", "?keys=time&key_by_type=yes"]) {
      const answer = await s.get(`/activities/${ride.id}/streams${bad}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.text).toMatch(/"resource":"Stream","field":"(keys|key_by_type)"/);
    }
    const keyed = s.json<Record<string, Stream>>(await s.get(`/activities/${ride.id}/streams?keys=heartrate,watts&key_by_type=true`));
    expect(Object.keys(keyed)).toEqual(["heartrate", "watts", "distance"]);
    const list = s.json<Array<Stream & { type: string }>>(await s.get(`/activities/${ride.id}/streams?keys=heartrate,watts`));
    expect(list.map((x) => x.type)).toEqual(["heartrate", "watts", "distance"]);
    expect(list[0]!.data).toEqual(keyed["heartrate"]!.data);
    // A swim has no power: asking for it gives what exists.
    const swim = activities.find((a) => a.sport_type === "Swim")!;
    expect(
      Object.keys(s.json<Record<string, Stream>>(await s.get(`/activities/${swim.id}/streams?keys=watts,heartrate&key_by_type=true`))),
    ).toEqual(["heartrate", "distance"]);
  });

  test("club feed: newest first, paged, Strava's club-activity shape (no ids, no dates)", async () => {
    const first = s.json<Array<Record<string, unknown>>>(await s.get(`/clubs/${s.sandbox.clubId}/activities?per_page=5`));
    const second = s.json<Array<Record<string, unknown>>>(await s.get(`/clubs/${s.sandbox.clubId}/activities?per_page=5&page=2`));
    expect(first.length).toBe(5);
    expect(second.length).toBe(5);
    expect(Object.keys(first[0]!).sort()).toEqual([
      "athlete",
      "distance",
      "elapsed_time",
      "moving_time",
      "name",
      "resource_state",
      "sport_type",
      "total_elevation_gain",
      "type",
      "workout_type",
    ]);
    const own = activities.find((a) => ["Run", "Ride", "Swim", "VirtualRide"].includes(a.type) && !a.private)!;
    expect(first[0]).toMatchObject({ athlete: { firstname: "Maya", lastname: "L." }, name: own.name, distance: own.distance });
    expect((await s.get(`/clubs/${s.sandbox.clubId}/activities?per_page=500`)).status).toBe(400);
  });
});
