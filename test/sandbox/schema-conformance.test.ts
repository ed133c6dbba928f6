/**
 * Every sandbox answer for the 11 operations (and the token endpoint) checked against Strava's official
 * API description: the operation's declared response schema, and for the richest items every property
 * the schema declares (Strava's API description itself requires none). See strava-schemas.ts for how the Swagger
 * schemas are read, which nulls are allowed and why.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ValidateFunction } from "ajv";
import { stravaSwaggerPath } from "./strava-spec.ts";
import { loadStravaSchemas, type StravaSchemas } from "./strava-schemas.ts";
import { form, openSession, type ActivityLike, type SandboxSession } from "./sandbox-client.ts";
import { manualClock, testNow } from "../support/test-clock.ts";
import { fitActivity, uploadForm } from "./activity-file-fixtures.ts";

function expectValid(validate: ValidateFunction, value: unknown, label: string): void {
  if (!validate(value)) throw new Error(`${label} does not match the schema: ${JSON.stringify(validate.errors?.slice(0, 5), null, 1)}`);
}

const streamDefinitions: Record<string, string> = {
  time: "TimeStream",
  distance: "DistanceStream",
  latlng: "LatLngStream",
  altitude: "AltitudeStream",
  velocity_smooth: "SmoothVelocityStream",
  heartrate: "HeartrateStream",
  cadence: "CadenceStream",
  watts: "PowerStream",
  temp: "TemperatureStream",
  moving: "MovingStream",
  grade_smooth: "SmoothGradeStream",
};
const allKeys = Object.keys(streamDefinitions).join(",");

// Without the description the run says once what it skipped (test/support/api-descriptions-notice.ts).
describe.skipIf(stravaSwaggerPath === undefined)("sandbox answers match Strava's API description", () => {
  let schemas: StravaSchemas;
  let session: SandboxSession;
  const clock = manualClock(testNow);
  let activities: ActivityLike[];
  let longRide: ActivityLike;
  /** One activity of each sport type, plus the long ride. */
  let sample: ActivityLike[];

  beforeAll(async () => {
    schemas = loadStravaSchemas(stravaSwaggerPath!);
    session = await openSession({ clock: clock.now, uploadProcessingMs: 1000 });
    activities = session.json<ActivityLike[]>(await session.get("/athlete/activities?per_page=200"));
    longRide = activities.find((a) => a.elapsed_time === 21_600)!;
    const bySport = new Map<string, ActivityLike>();
    for (const a of activities) if (!bySport.has(a.sport_type)) bySport.set(a.sport_type, a);
    sample = [...bySport.values(), longRide];
  });
  afterAll(() => session.sandbox.close());

  test("GET /athlete/activities: SummaryActivity items; the long ride's item has every declared property", async () => {
    expectValid(schemas.responseValidator("get", "/athlete/activities", "200"), activities, "activity list");
    expect(activities.length).toBeGreaterThan(50);
    expectValid(schemas.validatorFor("SummaryActivity", { complete: true }), longRide, "the long ride's summary");
  });

  test("GET /activities/{id}: a DetailedActivity for every sport type; the long ride's is complete, a run's has best efforts", async () => {
    const validate = schemas.responseValidator("get", "/activities/{id}", "200");
    for (const a of sample) {
      const answer = await session.get(`/activities/${a.id}`);
      expect(answer.status).toBe(200);
      expectValid(validate, JSON.parse(answer.text), `detail of ${a.sport_type} ${a.id}`);
    }
    const ride = JSON.parse((await session.get(`/activities/${longRide.id}`)).text);
    // best_efforts: Strava sends them for runs only.
    expectValid(schemas.validatorFor("DetailedActivity", { complete: true, optional: ["best_efforts"] }), ride, "the long ride's detail");
    for (const part of ["laps", "splits_metric", "segment_efforts"]) expect(ride[part].length, part).toBeGreaterThan(0);
    expect(ride.gear.id).toBe(ride.gear_id);
    // include_all_efforts=true: still a complete DetailedActivity, hidden efforts included.
    const all = JSON.parse((await session.get(`/activities/${longRide.id}?include_all_efforts=true`)).text);
    expectValid(
      schemas.validatorFor("DetailedActivity", { complete: true, optional: ["best_efforts"] }),
      all,
      "the long ride's detail with all efforts",
    );
    expect(all.segment_efforts.filter((effort: { hidden: boolean }) => effort.hidden).length).toBeGreaterThan(0);
    expect(ride.map.polyline.length).toBeGreaterThan(100);
    const run = activities.find((a) => a.sport_type === "Run" && a.distance > 5000)!;
    const runDetail = JSON.parse((await session.get(`/activities/${run.id}`)).text);
    expect(runDetail.best_efforts.length).toBeGreaterThan(0);
    expectValid(schemas.validatorFor("DetailedSegmentEffort", { complete: false }), runDetail.best_efforts[0], "a best effort");
  });

  test("POST /activities answers 201 with a DetailedActivity; PUT /activities/{id} answers a DetailedActivity", async () => {
    const created = await session.send(
      "POST",
      "/activities",
      form({
        name: "Iron Temple | Squat + Metcon",
        sport_type: "Workout",
        start_date_local: "2026-11-21T06:00:00Z",
        elapsed_time: "3600",
        description: "Back squat 5x5",
        trainer: "1",
        commute: "0",
      }),
      "application/x-www-form-urlencoded",
    );
    expect(created.status).toBe(201);
    const body = JSON.parse(created.text);
    expectValid(schemas.responseValidator("post", "/activities", "201"), body, "created activity");
    const updated = await session.send(
      "PUT",
      `/activities/${body.id}`,
      JSON.stringify({ name: "Iron Temple | Squat", sport_type: "WeightTraining" }),
      "application/json",
    );
    expect(updated.status).toBe(200);
    expectValid(schemas.responseValidator("put", "/activities/{id}", "200"), JSON.parse(updated.text), "updated activity");
  });

  test("GET /activities/{id}/zones: ActivityZone arrays; a heart-rate zone has every declared property", async () => {
    const validate = schemas.responseValidator("get", "/activities/{id}/zones", "200");
    for (const a of sample) {
      const zones = JSON.parse((await session.get(`/activities/${a.id}/zones`)).text);
      expectValid(validate, zones, `zones of ${a.sport_type}`);
    }
    const rideZones = JSON.parse((await session.get(`/activities/${longRide.id}/zones`)).text) as Array<{ type: string }>;
    expect(rideZones.map((z) => z.type)).toEqual(["heartrate", "power"]);
    expectValid(schemas.validatorFor("ActivityZone", { complete: true }), rideZones[0], "heart-rate zone");
  });

  test("GET /athlete/zones: complete Zones, heart rate and power", async () => {
    const zones = JSON.parse((await session.get("/athlete/zones")).text);
    expectValid(schemas.responseValidator("get", "/athlete/zones", "200"), zones, "athlete zones");
    expectValid(schemas.validatorFor("Zones", { complete: true }), zones, "athlete zones");
    expectValid(schemas.validatorFor("HeartRateZoneRanges", { complete: true }), zones.heart_rate, "heart-rate zones");
  });

  test("GET /athlete: a complete DetailedAthlete", async () => {
    const athlete = JSON.parse((await session.get("/athlete")).text);
    expectValid(schemas.responseValidator("get", "/athlete", "200"), athlete, "athlete");
    expectValid(schemas.validatorFor("DetailedAthlete", { complete: true }), athlete, "athlete");
  });

  test("GET /athletes/{id}/stats: complete ActivityStats", async () => {
    const stats = JSON.parse((await session.get(`/athletes/${session.sandbox.athleteId}/stats`)).text);
    expectValid(schemas.responseValidator("get", "/athletes/{id}/stats", "200"), stats, "stats");
    expectValid(schemas.validatorFor("ActivityStats", { complete: true }), stats, "stats");
    for (const key of Object.keys(stats).filter((k) => k.endsWith("_totals"))) {
      expectValid(schemas.validatorFor("ActivityTotal", { complete: true }), stats[key], key);
    }
  });

  test("GET /activities/{id}/streams: key_by_type=true is a StreamSet (all 11 types for the long ride); without it each item is its typed stream", async () => {
    const keyed = JSON.parse((await session.get(`/activities/${longRide.id}/streams?keys=${allKeys}&key_by_type=true`)).text);
    expectValid(schemas.responseValidator("get", "/activities/{id}/streams", "200"), keyed, "keyed streams");
    expect(Object.keys(keyed).sort()).toEqual(Object.keys(streamDefinitions).sort());
    // An activity entered by hand has no streams (Strava answers 404).
    for (const a of sample.filter((activity) => !activity.manual)) {
      const list = JSON.parse((await session.get(`/activities/${a.id}/streams?keys=${allKeys}`)).text) as Array<{ type: string }>;
      expect(list.length).toBeGreaterThan(0);
      for (const stream of list) {
        const definition = streamDefinitions[stream.type];
        expect(definition, `stream type ${stream.type}`).toBeDefined();
        expectValid(schemas.validatorFor(definition!, { complete: true }), stream, `${a.sport_type} ${stream.type} stream`);
      }
    }
  });

  test("GET /clubs/{id}/activities: complete ClubActivity items", async () => {
    const feed = JSON.parse((await session.get(`/clubs/${session.sandbox.clubId}/activities?per_page=50`)).text) as unknown[];
    expect(feed.length).toBe(50);
    expectValid(schemas.responseValidator("get", "/clubs/{id}/activities", "200"), feed, "club feed");
    const complete = schemas.validatorFor("ClubActivity", { complete: true });
    feed.forEach((item, i) => expectValid(complete, item, `club item ${i}`));
  });

  test("POST /uploads and GET /uploads/{uploadId}: an Upload while processing, when ready and after an error", async () => {
    const created = schemas.responseValidator("post", "/uploads", "201");
    const read = schemas.responseValidator("get", "/uploads/{uploadId}", "200");
    const complete = schemas.validatorFor("Upload", { complete: true });
    const file = fitActivity({ startMs: testNow - 5 * 3_600_000, elapsedS: 1800, distanceM: 6000, sport: 1 });
    const good = await session.send("POST", "/uploads", uploadForm(file, "run.fit", { data_type: "fit", external_id: "run-1" }), null);
    const bad = await session.send("POST", "/uploads", uploadForm(Buffer.from("not a fit file"), "junk.fit", { data_type: "fit" }), null);
    for (const answer of [good, bad]) {
      expect(answer.status).toBe(201);
      expectValid(created, JSON.parse(answer.text), "new upload");
      expectValid(complete, JSON.parse(answer.text), "new upload");
    }
    clock.advance(1000);
    for (const answer of [good, bad]) {
      const later = JSON.parse((await session.get(`/uploads/${JSON.parse(answer.text).id}`)).text);
      expectValid(read, later, "processed upload");
      expectValid(complete, later, "processed upload");
    }
  });

  test("errors are Faults: 400, 401, 403, 404 and 429 bodies match the default response", async () => {
    const fault = schemas.validatorFor("Fault", { complete: true });
    const answers = [
      await session.get("/athlete/activities?per_page=0"),
      await session.get("/athlete", "not-a-token"),
      await session.get("/athletes/1/stats"),
      await session.get("/activities/1"),
      await session.get(`/activities/${longRide.id}/streams?keys=`),
      await session.get("/clubs/1/activities"),
      await session.tokenRequest({
        client_id: session.sandbox.clientId,
        client_secret: session.sandbox.clientSecret,
        grant_type: "refresh_token",
        refresh_token: "0".repeat(40),
      }),
    ];
    expect(answers.map((a) => a.status)).toEqual([400, 401, 403, 404, 400, 404, 400]);
    for (const answer of answers) expectValid(fault, JSON.parse(answer.text), `${answer.status} body`);
    // On a clock of its own that stands still: on the real one, the window could turn between the two requests
    // (at the quarter hour), and the second would be let through.
    const limited = await openSession({ clock: manualClock(testNow).now, rateLimits: { overall: [1, 10] } });
    try {
      await limited.get("/athlete");
      const over = await limited.get("/athlete");
      expect(over.status).toBe(429);
      expectValid(fault, JSON.parse(over.text), "429 body");
    } finally {
      await limited.sandbox.close();
    }
  });

  test("POST /oauth/token: both grants answer Strava's token shape; the code exchange's athlete is a SummaryAthlete", async () => {
    const tokenShape = schemas.compile({
      type: "object",
      required: ["token_type", "access_token", "expires_at", "expires_in", "refresh_token"],
      properties: {
        token_type: { enum: ["Bearer"] },
        access_token: { type: "string", pattern: "^[0-9a-f]{40}$" },
        refresh_token: { type: "string", pattern: "^[0-9a-f]{40}$" },
        expires_at: { type: "integer" },
        expires_in: { type: "integer", minimum: 0 },
        athlete: { $ref: "strava.json#/definitions/SummaryAthlete" },
      },
    });
    const refresh = await session.tokenRequest({
      client_id: session.sandbox.clientId,
      client_secret: session.sandbox.clientSecret,
      grant_type: "refresh_token",
      refresh_token: session.sandbox.refreshToken(),
    });
    expectValid(tokenShape, JSON.parse(refresh.text), "refresh answer");
    const authorize = new URL(session.sandbox.authorizeUrl);
    authorize.search = new URLSearchParams({
      client_id: session.sandbox.clientId,
      redirect_uri: "http://127.0.0.1:9/callback",
      response_type: "code",
      scope: "read,activity:read_all",
      state: "s1",
    }).toString();
    const redirect = await fetch(authorize, { redirect: "manual" });
    const code = new URL(redirect.headers.get("location")!).searchParams.get("code")!;
    const exchange = JSON.parse(
      (
        await session.tokenRequest({
          client_id: session.sandbox.clientId,
          client_secret: session.sandbox.clientSecret,
          grant_type: "authorization_code",
          code,
        })
      ).text,
    );
    expectValid(tokenShape, exchange, "code exchange answer");
    expect(exchange.athlete.id).toBe(session.sandbox.athleteId);
    expectValid(schemas.validatorFor("SummaryAthlete", { complete: true }), exchange.athlete, "token athlete");
  });
});
