/**
 * The sandbox keeps state like Strava: created activities and updates show in later reads, uploads go
 * from "still being processed" to "ready" (with the new activity) after the processing time, and
 * duplicate or unreadable files get Strava's error strings.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { form, openSession, type ActivityLike, type SandboxSession } from "./sandbox-client.ts";
import { manualClock, testNow } from "../support/test-clock.ts";
import { fitActivity, gpxTrack, gzip, tcxActivity, uploadForm } from "./activity-file-fixtures.ts";

const formType = "application/x-www-form-urlencoded";
const clock = manualClock(testNow);
let s: SandboxSession;

beforeAll(async () => {
  s = await openSession({ clock: clock.now, uploadProcessingMs: 8_000 });
});
afterAll(() => s.sandbox.close());

const list = async (query = "per_page=200"): Promise<ActivityLike[]> => s.json<ActivityLike[]>(await s.get(`/athlete/activities?${query}`));
const detail = async (id: number): Promise<ActivityLike & Record<string, unknown>> => s.json(await s.get(`/activities/${id}`));

describe("POST /activities", () => {
  test("creates a manual activity that the list (newest first) and the detail then show", async () => {
    const answer = await s.send(
      "POST",
      "/activities",
      form({
        name: "Iron Temple | Squat + Metcon",
        sport_type: "Workout",
        start_date_local: "2026-11-21T15:00:00Z",
        elapsed_time: "3300",
        description: "Back squat 5x5 @ 62.5 kg",
        trainer: "1",
        commute: "false",
      }),
      formType,
    );
    expect(answer.status).toBe(201);
    const created = s.json<ActivityLike & Record<string, unknown>>(answer);
    expect(created).toMatchObject({
      name: "Iron Temple | Squat + Metcon",
      sport_type: "Workout",
      type: "Workout",
      // Local wall time with Strava's misleading Z; the UTC start is 7 hours later (Boulder in November).
      start_date_local: "2026-11-21T15:00:00Z",
      start_date: "2026-11-21T22:00:00Z",
      utc_offset: -25200,
      timezone: "(GMT-07:00) America/Denver",
      elapsed_time: 3300,
      moving_time: 3300,
      manual: true,
      trainer: true,
      commute: false,
      description: "Back squat 5x5 @ 62.5 kg",
      resource_state: 3,
    });
    expect(created.id).toBeGreaterThan(Math.max(...(await list()).filter((a) => a.id !== created.id).map((a) => a.id)));
    const newest = (await list("per_page=2"))[0]!;
    expect(newest.id).toBe(created.id);
    expect(newest.name).toBe(created.name);
    expect(await detail(created.id)).toEqual(created);
    // Manual activities have no streams (404, as on Strava) and no zones.
    expect((await s.get(`/activities/${created.id}/streams?keys=time`)).status).toBe(404);
    expect((await s.get(`/activities/${created.id}/zones`)).text).toBe("[]");
  });

  test("reads start_date_local in the athlete's zone across daylight saving, as the voice API reads a wall clock", async () => {
    const created = async (startDateLocal: string) => {
      const answer = await s.send(
        "POST",
        "/activities",
        form({ name: "DST", sport_type: "Workout", start_date_local: startDateLocal, elapsed_time: "600" }),
        formType,
      );
      expect(answer.status).toBe(201);
      return s.json<{ start_date: string; start_date_local: string; utc_offset: number }>(answer);
    };
    // Summer time: UTC-6.
    expect(await created("2026-07-04T10:00:00")).toMatchObject({
      start_date: "2026-07-04T16:00:00Z",
      start_date_local: "2026-07-04T10:00:00Z",
      utc_offset: -21600,
    });
    // 02:30 does not exist on the night clocks go forward (02:00 MST -> 03:00 MDT): it moves forward by the gap.
    expect(await created("2026-03-08T02:30:00")).toMatchObject({
      start_date: "2026-03-08T09:30:00Z",
      start_date_local: "2026-03-08T03:30:00Z",
      utc_offset: -21600,
    });
    // 01:30 happens twice on the night clocks go back: the first one, still in summer time.
    expect(await created("2026-11-01T01:30:00")).toMatchObject({
      start_date: "2026-11-01T07:30:00Z",
      start_date_local: "2026-11-01T01:30:00Z",
      utc_offset: -21600,
    });
  });

  test("takes multipart too, gives runs and rides the primary gear, and counts a run in the stats", async () => {
    const before = s.json<{ recent_run_totals: { count: number; distance: number } }>(
      await s.get(`/athletes/${s.sandbox.athleteId}/stats`),
    );
    const body = new FormData();
    for (const [k, v] of Object.entries({
      name: "Treadmill 5k",
      sport_type: "Run",
      start_date_local: "2026-11-21T12:30",
      elapsed_time: "1500",
      distance: "5000",
    }))
      body.append(k, v);
    const answer = await s.send("POST", "/activities", body, null);
    expect(answer.status).toBe(201);
    const run = s.json<ActivityLike & { gear_id: string; average_speed: number }>(answer);
    expect(run.gear_id).toBe("g14872203");
    expect(run.average_speed).toBeCloseTo(5000 / 1500, 3);
    const after = s.json<{ recent_run_totals: { count: number; distance: number } }>(await s.get(`/athletes/${s.sandbox.athleteId}/stats`));
    expect(after.recent_run_totals.count).toBe(before.recent_run_totals.count + 1);
    expect(after.recent_run_totals.distance).toBeCloseTo(before.recent_run_totals.distance + 5000, 1);
  });

  test("refuses JSON (415) and names the missing or bad field (400)", async () => {
    const json = await s.send(
      "POST",
      "/activities",
      JSON.stringify({ name: "x", sport_type: "Run", start_date_local: "2026-11-21T10:00:00", elapsed_time: 60 }),
      "application/json",
    );
    expect(json.status).toBe(415);
    const good = { name: "x", sport_type: "Run", start_date_local: "2026-11-21T10:00:00", elapsed_time: "60" };
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...good, name: "" }, '"field":"name","code":"missing"'],
      [{ ...good, sport_type: "Jogging" }, '"field":"sport_type","code":"invalid"'],
      [{ ...good, start_date_local: "21/11/2026" }, '"field":"start_date_local","code":"invalid"'],
      [{ ...good, start_date_local: "2026-02-30T10:00:00" }, '"field":"start_date_local","code":"invalid"'],
      [{ ...good, elapsed_time: "1.5" }, '"field":"elapsed_time","code":"invalid"'],
      [{ ...good, trainer: "yes" }, '"field":"trainer","code":"invalid"'],
      [{ ...good, distance: "-3" }, '"field":"distance","code":"invalid"'],
    ];
    for (const [fields, fragment] of cases) {
      const answer = await s.send("POST", "/activities", form(fields), formType);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(answer.text).toContain(fragment);
    }
  });
});

describe("PUT /activities/{id}", () => {
  test("changes only the given fields; later reads show them; sport_type also sets the legacy type", async () => {
    const target = (await list()).find((a) => a.sport_type === "WeightTraining")!;
    const before = await detail(target.id);
    const answer = await s.send(
      "PUT",
      `/activities/${target.id}`,
      JSON.stringify({ name: "Iron Temple | Deadlift", sport_type: "Pickleball" }),
      "application/json",
    );
    expect(answer.status).toBe(200);
    const after = await detail(target.id);
    expect(after).toMatchObject({
      name: "Iron Temple | Deadlift",
      sport_type: "Pickleball",
      type: "Workout",
      description: before["description"],
      distance: before.distance,
      elapsed_time: before.elapsed_time,
    });
    expect(s.json(answer)).toEqual(after);
    expect((await list()).find((a) => a.id === target.id)!.name).toBe("Iron Temple | Deadlift");

    await s.send(
      "PUT",
      `/activities/${target.id}`,
      JSON.stringify({ description: "Deadlift 5x3 @ 90 kg\nScore: 12:34" }),
      "application/json",
    );
    expect((await detail(target.id))["description"]).toBe("Deadlift 5x3 @ 90 kg\nScore: 12:34");
    expect((await detail(target.id)).name).toBe("Iron Temple | Deadlift");
  });

  test('gear_id "none" clears the gear, an unknown gear is refused; form-encoded updates work too', async () => {
    const ride = (await list()).find((a) => a.sport_type === "Ride")!;
    expect((await s.send("PUT", `/activities/${ride.id}`, JSON.stringify({ gear_id: "none" }), "application/json")).status).toBe(200);
    expect((await detail(ride.id))["gear_id"]).toBeNull();
    expect((await detail(ride.id))["gear"]).toBeUndefined();
    const unknown = await s.send("PUT", `/activities/${ride.id}`, JSON.stringify({ gear_id: "b1" }), "application/json");
    expect([unknown.status, unknown.text]).toEqual([
      400,
      '{"message":"Bad Request","errors":[{"resource":"Activity","field":"gear_id","code":"invalid"}]}',
    ]);
    expect((await s.send("PUT", `/activities/${ride.id}`, form({ gear_id: "b10566312", commute: "1" }), formType)).status).toBe(200);
    expect(await detail(ride.id)).toMatchObject({ gear_id: "b10566312", commute: true });
  });

  test("bad bodies and field types are 400s; an unknown id is a 404", async () => {
    const any = (await list())[0]!;
    expect((await s.send("PUT", `/activities/${any.id}`, "{not json", "application/json")).status).toBe(400);
    expect((await s.send("PUT", `/activities/${any.id}`, JSON.stringify({ trainer: "maybe" }), "application/json")).status).toBe(400);
    expect((await s.send("PUT", `/activities/${any.id}`, JSON.stringify({ sport_type: "Jogging" }), "application/json")).status).toBe(400);
    expect((await s.send("PUT", `/activities/${any.id}`, JSON.stringify({ name: "" }), "application/json")).status).toBe(400);
    const missing = await s.send("PUT", "/activities/12345", JSON.stringify({ name: "x" }), "application/json");
    expect([missing.status, missing.text]).toEqual([
      404,
      '{"message":"Record Not Found","errors":[{"resource":"Activity","field":"id","code":"invalid"}]}',
    ]);
  });
});

describe("uploads", () => {
  interface Upload {
    id: number;
    id_str: string;
    external_id: string;
    error: string | null;
    status: string;
    activity_id: number | null;
  }
  const post = async (file: Buffer | string, filename: string, fields: Record<string, string>): Promise<Upload> => {
    const answer = await s.send("POST", "/uploads", uploadForm(file, filename, fields), null);
    expect(answer.status, answer.text).toBe(201);
    return s.json<Upload>(answer);
  };
  const status = async (id: number): Promise<Upload> => s.json<Upload>(await s.get(`/uploads/${id}`));
  const runFile = fitActivity({
    startMs: testNow - 6 * 3_600_000,
    elapsedS: 2_400,
    distanceM: 7_250,
    sport: 1,
    lat: 40.0021,
    lng: -105.2594,
  });

  test("a FIT upload is processed after the processing time; then its activity is listed with the file's data", async () => {
    const upload = await post(runFile, "morning.fit", {
      data_type: "fit",
      name: "Creek path tempo",
      external_id: "watch-0001",
      description: "From the watch",
    });
    expect(upload).toEqual({
      id: upload.id,
      id_str: String(upload.id),
      external_id: "watch-0001",
      error: null,
      status: "Your activity is still being processed.",
      activity_id: null,
    });
    clock.advance(7_999);
    expect((await status(upload.id)).status).toBe("Your activity is still being processed.");
    const countBefore = (await list()).length;
    clock.advance(1);
    const ready = await status(upload.id);
    expect(ready.status).toBe("Your activity is ready.");
    expect(ready.error).toBeNull();
    expect(ready.activity_id).toBeGreaterThan(0);
    expect((await list()).length).toBe(countBefore + 1);
    const activity = await detail(ready.activity_id!);
    expect(activity).toMatchObject({
      name: "Creek path tempo",
      description: "From the watch",
      sport_type: "Run",
      start_date: new Date(Math.floor((testNow - 6 * 3_600_000) / 1000) * 1000).toISOString().replace(".000Z", "Z"),
      elapsed_time: 2_400,
      distance: 7_250,
      upload_id: upload.id,
      external_id: "watch-0001",
      manual: false,
      start_latlng: [40.0021, -105.2594],
    });
    const streams = s.json<{ distance: { data: number[] } }>(
      await s.get(`/activities/${ready.activity_id}/streams?keys=distance&key_by_type=true`),
    );
    expect(streams.distance.data.at(-1)).toBe(7_250);
  });

  test("the same file again is a duplicate: Strava's HTML error naming the first activity", async () => {
    const first = (await list()).find((a) => a.external_id === "watch-0001")!;
    const again = await post(runFile, "again.fit", { data_type: "fit" });
    expect(again.status).toBe("Your activity is still being processed.");
    clock.advance(8_000);
    expect(await status(again.id)).toEqual({
      id: again.id,
      id_str: String(again.id),
      external_id: "again.fit",
      error: `again.fit duplicate of <a href='/activities/${first.id}' target='_blank'>Creek path tempo</a>`,
      status: "There was an error processing your activity.",
      activity_id: null,
    });
  });

  test("an unreadable file is an error upload whose message names the file", async () => {
    const bad = await post(Buffer.from("this is not a FIT file at all"), "broken.fit", { data_type: "fit" });
    clock.advance(8_000);
    const done = await status(bad.id);
    expect(done.status).toBe("There was an error processing your activity.");
    expect(done.error).toMatch(/^broken\.fit: .*FIT/);
    expect(done.activity_id).toBeNull();
    const corrupt = Buffer.from(runFile);
    corrupt[30] = (corrupt[30]! + 1) % 256;
    const crc = await post(corrupt, "corrupt.fit", { data_type: "fit" });
    clock.advance(8_000);
    expect((await status(crc.id)).error).toContain("CRC");
  });

  test("GPX and gzipped TCX files create rides and runs with the file's start and length", async () => {
    const gpxStart = testNow - 30 * 3_600_000;
    const gpx = await post(gpxTrack({ startMs: gpxStart, points: 61, name: "Lunch Run along the creek", type: "running" }), "lunch.gpx", {
      data_type: "gpx",
    });
    const tcxStart = testNow - 50 * 3_600_000;
    const tcx = await post(gzip(tcxActivity({ startMs: tcxStart, seconds: 3_600, metres: 28_000 })), "ride.tcx.gz", {
      data_type: "tcx.gz",
      trainer: "true",
    });
    clock.advance(8_000);
    const gpxActivity = await detail((await status(gpx.id)).activity_id!);
    expect(gpxActivity).toMatchObject({ name: "Lunch Run along the creek", sport_type: "Run", elapsed_time: 600 });
    expect(gpxActivity.distance).toBeGreaterThan(2_000);
    const tcxActivityDetail = await detail((await status(tcx.id)).activity_id!);
    expect(tcxActivityDetail).toMatchObject({ sport_type: "Ride", elapsed_time: 3_600, distance: 28_000, trainer: true });
  });

  test("JSON bodies, a missing file or data type and unknown ids are refused", async () => {
    const json = await s.send("POST", "/uploads", JSON.stringify({ file: "aGVsbG8=", data_type: "fit" }), "application/json");
    expect([json.status, json.text]).toEqual([
      400,
      '{"message":"Bad Request","errors":[{"resource":"Upload","field":"file","code":"missing"}]}',
    ]);
    const noType = await s.send("POST", "/uploads", uploadForm(runFile, "a.fit", {}), null);
    expect(noType.text).toContain('"field":"data_type","code":"missing"');
    const badType = await s.send("POST", "/uploads", uploadForm(runFile, "a.fit", { data_type: "zip" }), null);
    expect(badType.text).toContain('"field":"data_type","code":"invalid"');
    const noFile = new FormData();
    noFile.append("data_type", "fit");
    expect((await s.send("POST", "/uploads", noFile, null)).text).toContain('"field":"file","code":"missing"');
    const unknown = await s.get("/uploads/42");
    expect([unknown.status, unknown.text]).toEqual([
      404,
      '{"message":"Record Not Found","errors":[{"resource":"Upload","field":"id","code":"invalid"}]}',
    ]);
  });
});
