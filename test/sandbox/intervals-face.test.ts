/**
 * The sandbox's intervals.icu face: the same athlete and store as the Strava face, served as intervals.icu
 * serves it: HTTP Basic with its key, Strava-synced activities as stubs, local dates with a bare `newest` read
 * as the start of its day, updates that change only what they name, uploads answered at once, a wellness record
 * for every day with intervals.icu's fitness and fatigue, its error bodies, and its per-address rate limit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { manualClock, testNow } from "../support/test-clock.ts";
import { fitActivity, uploadForm } from "./activity-file-fixtures.ts";
import { basicAuthorization, intervalsFaceClient, type IntervalsFaceClient } from "./intervals-client.ts";
import { openSession, type SandboxSession } from "./sandbox-client.ts";

type Item = Record<string, unknown> & { id: string; source: string; start_date_local: string };
type Wellness = Record<string, number | null> & { id: string };

const plenty = { perSecond: 1_000, burst: 1_000 };
let sandbox: RunningSandbox;
let icu: IntervalsFaceClient;
let strava: SandboxSession;
let all: Item[];

beforeAll(async () => {
  strava = await openSession({ clock: manualClock(testNow).now, intervalsRateLimit: plenty });
  sandbox = strava.sandbox;
  icu = intervalsFaceClient(sandbox);
  all = icu.json<Item[]>(await icu.get("/athlete/0/activities?oldest=2000-01-01"));
});
afterAll(() => sandbox.close());

/** testNow is 15:37 on Saturday 2026-11-21 in Maya's Denver. */
const today = "2026-11-21";

describe("who may read", () => {
  it("takes the key as HTTP Basic with user API_KEY, for athlete 0 or her own id", async () => {
    for (const id of ["0", sandbox.intervalsAthleteId]) {
      const answer = await icu.get(`/athlete/${id}`);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text)).toMatchObject({ id: "i218734", timezone: "America/Denver", firstname: "Maya" });
    }
  });

  it("answers a missing key 401 and a wrong key, user name, Bearer token or athlete 403, in intervals.icu's error shape", async () => {
    expect(await icu.get("/athlete/0", "")).toMatchObject({ status: 401, text: '{"status":401,"error":"Unauthorized"}' });
    expect(await icu.get("/athlete/0", basicAuthorization(""))).toMatchObject({ status: 401 });
    const denied = '{"status":403,"error":"Access denied"}';
    expect(await icu.get("/athlete/0", basicAuthorization("not-the-key"))).toMatchObject({ status: 403, text: denied });
    expect(await icu.get("/athlete/0", basicAuthorization(sandbox.intervalsApiKey, "i218734"))).toMatchObject({
      status: 403,
      text: denied,
    });
    expect(await icu.get("/athlete/0", `Bearer ${sandbox.intervalsApiKey}`)).toMatchObject({ status: 403, text: denied });
    expect(await icu.get("/athlete/i999999/activities?oldest=2026-11-01")).toMatchObject({ status: 403, text: denied });
  });

  it("answers an address it does not serve as intervals.icu's framework does", async () => {
    const answer = await icu.get("/athlete/0/fitness");
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.text)).toEqual({
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000\+00:00$/),
      status: 404,
      error: "Not Found",
      path: "/intervals/api/v1/athlete/0/fitness",
    });
  });
});

describe("activities", () => {
  it("lists newest first with intervals.icu's own fields; ids are i..., and what came from Strava is a five-field stub", () => {
    const starts = all.map((a) => a.start_date_local);
    expect(starts).toEqual([...starts].sort().reverse());
    const full = all.filter((a) => a.source !== "STRAVA");
    expect(full.every((a) => /^i\d+$/.test(a.id) && a.source === "GARMIN_CONNECT")).toBe(true);
    const ride = full.find((a) => a["type"] === "Ride" && a["device_watts"] === true)!;
    expect(ride).toMatchObject({
      icu_training_load: expect.any(Number),
      icu_ftp: 238,
      icu_weighted_avg_watts: expect.any(Number),
      average_heartrate: expect.any(Number),
      icu_zone_times: expect.arrayContaining([{ id: "Z2", secs: expect.any(Number) }]),
      icu_hr_zone_times: [expect.any(Number), expect.any(Number), expect.any(Number), expect.any(Number), expect.any(Number)],
      icu_ctl: expect.any(Number),
      timezone: "America/Denver",
    });
    expect(ride.start_date_local).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    // Her Zwift rides and the hike she logged by hand on Strava reached intervals.icu through Strava.
    const stubs = all.filter((a) => a.source === "STRAVA");
    expect(stubs.length).toBeGreaterThanOrEqual(2);
    for (const stub of stubs) {
      expect(Object.keys(stub).sort()).toEqual(["_note", "icu_athlete_id", "id", "source", "start_date_local"]);
      expect(stub).toMatchObject({ id: expect.stringMatching(/^\d{11}$/), _note: "STRAVA activities are not available via the API" });
    }
  });

  it("needs oldest; takes both ends, and reads a bare newest date as the start of its day, as intervals.icu does", async () => {
    expect(await icu.get("/athlete/0/activities")).toMatchObject({
      status: 422,
      text: `{"status":422,"error":"Required request parameter 'oldest' for method parameter type String is not present"}`,
    });
    const todays = all.filter((a) => a.start_date_local.startsWith(today));
    expect(todays.length).toBeGreaterThan(0);
    const list = async (query: string): Promise<Item[]> => icu.json<Item[]>(await icu.get(`/athlete/0/activities?${query}`));
    const bare = await list(`oldest=${today}&newest=${today}`);
    expect(bare.filter((a) => a.start_date_local.startsWith(today))).toEqual([]);
    const endOfDay = await list(`oldest=${today}&newest=${today}T23:59:59`);
    expect(endOfDay.map((a) => a.id)).toEqual(todays.map((a) => a.id));
    const first = todays.at(-1)!.start_date_local;
    expect((await list(`oldest=${first}&newest=${first}`)).map((a) => a.id)).toEqual([todays.at(-1)!.id]);
    expect((await list("oldest=2000-01-01&limit=3")).map((a) => a.id)).toEqual(all.slice(0, 3).map((a) => a.id));
  });

  it("keeps only the fields asked for, without nulls", async () => {
    const items = icu.json<Item[]>(await icu.get(`/athlete/0/activities?oldest=${today}&fields=id,name,icu_ftp`));
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(Object.keys(item).every((key) => ["id", "name", "icu_ftp"].includes(key))).toBe(true);
  });

  it("answers a stub by its Strava id; its streams and a change are refused, as intervals.icu refuses them", async () => {
    const stub = all.find((a) => a.source === "STRAVA")!;
    expect(icu.json(await icu.get(`/activity/${stub.id}`))).toEqual(stub);
    expect(await icu.get(`/activity/${stub.id}/streams`)).toMatchObject({
      status: 422,
      text: '{"status":422,"error":"Cannot read Strava activities via the API"}',
    });
    expect(await icu.send("PUT", `/activity/${stub.id}`, '{"name":"x"}', "application/json")).toMatchObject({ status: 422 });
    expect((await icu.get(`/activity/i${Number(stub.id) - 15_000_000_000}`)).status).toBe(404);
  });

  it("serves streams as an array of {type, data}, positions as data and data2, or CSV", async () => {
    const ride = all.find((a) => a["type"] === "Ride" && a.source !== "STRAVA")!;
    const streams = icu.json<Array<{ type: string; data: number[]; data2?: number[] }>>(
      await icu.get(`/activity/${ride.id}/streams.json?types=time,heartrate,latlng`),
    );
    expect(streams.map((s) => s.type)).toEqual(["time", "latlng", "heartrate"]);
    const [time, latlng, heartrate] = streams;
    expect(time!.data.length).toBe(ride["elapsed_time"]);
    expect(latlng!.data2!.length).toBe(latlng!.data.length);
    expect(Math.round(heartrate!.data.reduce((sum, bpm) => sum + bpm, 0) / heartrate!.data.length)).toBeCloseTo(
      ride["average_heartrate"] as number,
      -1,
    );
    const csv = await icu.get(`/activity/${ride.id}/streams.csv?types=time,watts`);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.text.split("\n")[0]).toBe("time,watts");
  });
});

describe("writes, seen through both faces", () => {
  it("an update changes only the fields given, and the Strava face shows it", async () => {
    const run = all.find((a) => a["type"] === "Run" && a.source !== "STRAVA")!;
    const before = icu.json<Item>(await icu.get(`/activity/${run.id}`));
    const updated = await icu.send(
      "PUT",
      `/activity/${run.id}`,
      JSON.stringify({ name: "Creek path tempo", icu_rpe: 7 }),
      "application/json",
    );
    expect(updated.status).toBe(200);
    const after = icu.json<Item>(updated);
    expect(after).toMatchObject({
      name: "Creek path tempo",
      icu_rpe: 7,
      description: before["description"],
      type: "Run",
      commute: before["commute"],
    });
    const stravaId = Number(run.id.slice(1)) + 15_000_000_000;
    expect(strava.json<{ name: string }>(await strava.get(`/activities/${stravaId}`)).name).toBe("Creek path tempo");
    expect((await icu.send("PUT", `/activity/${run.id}`, JSON.stringify({ type: "Quidditch" }), "application/json")).status).toBe(422);
  });

  it("a manual activity created here is on the Strava face; one typed into Strava is a stub here", async () => {
    const body = {
      name: "Climbing gym",
      type: "RockClimbing",
      start_date_local: `${today}T07:05:00`,
      elapsed_time: 5_400,
      description: "Bouldering.",
    };
    const created = icu.json<Item>(await icu.send("POST", "/athlete/0/activities/manual", JSON.stringify(body), "application/json"));
    expect(created).toMatchObject({
      id: expect.stringMatching(/^i\d+$/),
      source: "MANUAL",
      name: "Climbing gym",
      start_date_local: `${today}T07:05:00`,
      moving_time: 5_400,
    });
    const onStrava = strava.json<Array<{ name: string; manual: boolean }>>(await strava.get("/athlete/activities?per_page=10"));
    expect(onStrava.find((a) => a.name === "Climbing gym")).toMatchObject({ manual: true });

    const form = new URLSearchParams({
      name: "Evening walk",
      sport_type: "Walk",
      start_date_local: `${today}T19:00:00`,
      elapsed_time: "1800",
    });
    const typed = strava.json<{ id: number }>(await strava.send("POST", "/activities", form, "application/x-www-form-urlencoded"));
    expect(icu.json(await icu.get(`/activity/${typed.id}`))).toMatchObject({ id: String(typed.id), source: "STRAVA" });
  });

  it("an upload is answered at once with the new activity's id; the same file again creates nothing (200)", async () => {
    const file = fitActivity({ startMs: testNow - 2 * 86_400_000 + 3_600_000, elapsedS: 2_400, distanceM: 8_000, sport: 1 });
    const first = await icu.send("POST", "/athlete/0/activities?name=Morning%20tempo", uploadForm(file, "tempo.fit", {}), null);
    expect(first.status).toBe(201);
    const answer = icu.json<{ id: string; activities: Array<{ id: string }> }>(first);
    expect(answer.activities).toEqual([{ icu_athlete_id: "i218734", id: answer.id }]);
    expect(icu.json<Item>(await icu.get(`/activity/${answer.id}`))).toMatchObject({ name: "Morning tempo", source: "UPLOAD", type: "Run" });
    const again = await icu.send("POST", "/athlete/0/activities", uploadForm(file, "tempo-copy.fit", {}), null);
    expect(again.status).toBe(200);
    expect(icu.json<{ id: string }>(again).id).toBe(answer.id);
  });
});

describe("wellness", () => {
  let days: Wellness[];
  /** The activities as they are now (the writes above added some), read with the wellness. */
  let activities: Item[];
  beforeAll(async () => {
    days = icu.json<Wellness[]>(await icu.get("/athlete/0/wellness"));
    activities = icu.json<Item[]>(await icu.get("/athlete/0/activities?oldest=2000-01-01"));
  });

  it("has a record for every day from the first activity to today", () => {
    const first = [...all].sort((a, b) => a.start_date_local.localeCompare(b.start_date_local))[0]!.start_date_local.slice(0, 10);
    expect(days[0]!.id).toBe(first);
    expect(days.at(-1)!.id).toBe(today);
    for (let i = 1; i < days.length; i++) expect(Date.parse(days[i]!.id) - Date.parse(days[i - 1]!.id)).toBe(86_400_000);
  });

  it("computes fitness and fatigue from each day's load by intervals.icu's recurrence, and ramp rate over a week", () => {
    let ctl = 0;
    let atl = 0;
    days.forEach((day, i) => {
      ctl += ((day.ctlLoad ?? 0) - ctl) * (1 - Math.exp(-1 / 42));
      atl += ((day.atlLoad ?? 0) - atl) * (1 - Math.exp(-1 / 7));
      expect(day.ctl).toBeCloseTo(ctl, 9);
      expect(day.atl).toBeCloseTo(atl, 9);
      expect(day.rampRate).toBeCloseTo(ctl - (days[i - 7]?.ctl ?? 0), 9);
    });
  });

  it("counts each day's activities' own training load", async () => {
    // A day without Strava-synced activities: its load is the sum of what its activities show.
    const visible = activities.filter((a) => a.source !== "STRAVA");
    const stubDays = new Set(activities.filter((a) => a.source === "STRAVA").map((a) => a.start_date_local.slice(0, 10)));
    const byDay = new Map<string, number>();
    for (const a of visible)
      byDay.set(
        a.start_date_local.slice(0, 10),
        (byDay.get(a.start_date_local.slice(0, 10)) ?? 0) + ((a["icu_training_load"] as number | null) ?? 0),
      );
    const checked = days.filter((day) => byDay.has(day.id) && !stubDays.has(day.id));
    expect(checked.length).toBeGreaterThan(30);
    for (const day of checked) expect(day.ctlLoad).toBe(byDay.get(day.id));
  });

  it("answers the training: lower HRV and higher resting heart rate in the spike of the last week than in the four weeks before", () => {
    const mean = (records: Wellness[], field: string): number => {
      const values = records.map((r) => r[field]).filter((v): v is number => typeof v === "number");
      return values.reduce((a, b) => a + b, 0) / values.length;
    };
    const lastWeek = days.slice(-7);
    const before = days.slice(-35, -7);
    expect(mean(lastWeek, "hrv")).toBeLessThan(mean(before, "hrv") - 3);
    expect(mean(lastWeek, "restingHR")).toBeGreaterThan(mean(before, "restingHR") + 1);
    expect(days.some((d) => d.hrv === null)).toBe(true);
    expect(days.some((d) => d.soreness === null)).toBe(true);
    const scores = days.flatMap((d) => ["soreness", "fatigue", "stress", "mood", "motivation", "sleepQuality"].map((field) => d[field]));
    expect(
      scores.filter((score) => score !== null && !(typeof score === "number" && Number.isInteger(score) && score >= 1 && score <= 4)),
    ).toEqual([]);
  });

  it("takes oldest and newest as local dates, both included, and a single day by date; the same seed and clock give the same bytes", async () => {
    const week = icu.json<Wellness[]>(await icu.get("/athlete/0/wellness.json?oldest=2026-11-15&newest=2026-11-21"));
    expect(week.map((d) => d.id)).toEqual([
      "2026-11-15",
      "2026-11-16",
      "2026-11-17",
      "2026-11-18",
      "2026-11-19",
      "2026-11-20",
      "2026-11-21",
    ]);
    expect(icu.json(await icu.get("/athlete/0/wellness/2026-11-18"))).toEqual(week[3]);
    const twins = [await startSandbox({ clock: manualClock(testNow).now }), await startSandbox({ clock: manualClock(testNow).now })];
    try {
      const [one, two] = await Promise.all(
        twins.map(async (twin) => (await intervalsFaceClient(twin).get("/athlete/0/wellness?oldest=2026-10-01")).text),
      );
      expect(one).toBe(two);
      expect(JSON.parse(one!).length).toBe(52);
    } finally {
      await Promise.all(twins.map((twin) => twin.close()));
    }
  });
});

describe("the rate limit", () => {
  // The bucket refills on real time (performance.now), which no test clock holds still. With the old 5 a second,
  // a machine busy for 200 ms between the first request and the fourth refilled a request, and the fourth went
  // through; so the burst is counted on a bucket that refills one request in 100 s, longer than a test may run.
  it("answers 429 past the burst", async () => {
    const limited = await startSandbox({ clock: manualClock(testNow).now, intervalsRateLimit: { perSecond: 0.01, burst: 3 } });
    try {
      const client = intervalsFaceClient(limited);
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await client.get("/athlete/0")).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect((await client.get("/athlete/0")).text).toBe('{"status":429,"error":"Too Many Requests"}');
    } finally {
      await limited.close();
    }
  });

  // A refill must be seen in a test's time, so this bucket refills in a second: its refusal needs two requests
  // within that second, where the old test needed four within 200 ms.
  it("admits again once the bucket refills", async () => {
    const limited = await startSandbox({ clock: manualClock(testNow).now, intervalsRateLimit: { perSecond: 1, burst: 1 } });
    try {
      const client = intervalsFaceClient(limited);
      expect([(await client.get("/athlete/0")).status, (await client.get("/athlete/0")).status]).toEqual([200, 429]);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await client.get("/athlete/0")).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
