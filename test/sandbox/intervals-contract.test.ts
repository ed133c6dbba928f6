/**
 * The sandbox's intervals.icu face checked against intervals.icu's own OpenAPI description: every answer the
 * tools will read (athlete, activity list and detail, a Strava-synced stub, streams, wellness, the writes and the
 * upload), and the request bodies the intervals.icu client sends for a manual activity and an update. How the
 * description's schemas are read (nulls, closed objects, oneOf): test/support/intervals-openapi.ts. Without the
 * description these tests are skipped, with one notice for the run saying how to get it.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ValidateFunction } from "ajv";
import { intervalsTypes } from "../../sandbox/intervals-face/activity-json.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { activityUpdateRequest, manualActivityRequest } from "../../intervals/activity-writes.ts";
import { intervalsSpecPath, loadIntervalsSchemas, type IntervalsSchemas } from "../support/intervals-openapi.ts";
import { manualClock, testNow } from "../support/test-clock.ts";
import { fitActivity, uploadForm } from "./activity-file-fixtures.ts";
import { intervalsFaceClient, type IntervalsFaceClient } from "./intervals-client.ts";

const skip = intervalsSpecPath === undefined;

function expectValid(validate: ValidateFunction, value: unknown, label: string): void {
  if (!validate(value))
    throw new Error(`${label} does not match intervals.icu's API description: ${JSON.stringify(validate.errors?.slice(0, 5), null, 1)}`);
}

type ActivityItem = Record<string, unknown> & { id: string; source: string; type?: string };

describe.skipIf(skip)(
  `the intervals.icu face matches intervals.icu's API description${skip ? " (SKIPPED: the description is missing; see the notice)" : ""}`,
  () => {
    let schemas: IntervalsSchemas;
    let sandbox: RunningSandbox;
    let icu: IntervalsFaceClient;
    let activities: ActivityItem[];

    beforeAll(async () => {
      schemas = loadIntervalsSchemas(intervalsSpecPath!);
      sandbox = await startSandbox({ clock: manualClock(testNow).now });
      icu = intervalsFaceClient(sandbox);
      activities = icu.json<ActivityItem[]>(await icu.get("/athlete/0/activities?oldest=2020-01-01"));
    });
    afterAll(() => sandbox?.close());

    test("GET /athlete/{id}: the athlete with her sport settings", async () => {
      const answer = await icu.get("/athlete/0");
      expect(answer.status).toBe(200);
      expectValid(schemas.response("GET", "/athlete/{id}"), JSON.parse(answer.text), "the athlete");
    });

    test("GET /athlete/{id}/activities: every full item is an Activity, every Strava-synced one the stub (Hidden)", () => {
      expect(activities.length).toBeGreaterThan(50);
      // The operation declares items of Activity and says "An empty stub object is returned for Strava activities":
      // that stub is the description's Hidden model (with `_note`, which Activity lacks), so each item is checked as what it is.
      const stubs = activities.filter((a) => a.source === "STRAVA");
      expect(stubs.length).toBeGreaterThan(0);
      const full = activities.filter((a) => a.source !== "STRAVA");
      expectValid(schemas.response("GET", "/athlete/{id}/activities"), full, "the full activities");
      for (const stub of stubs) expectValid(schemas.schema("Hidden"), stub, `the stub ${stub.id}`);
    });

    test("GET /activity/{id}: an activity of each type, a stub, and one with intervals", async () => {
      const validate = schemas.response("GET", "/activity/{id}", "default");
      const byType = new Map<string, ActivityItem>();
      for (const a of activities) if (!byType.has(`${a.type}:${a.source}`)) byType.set(`${a.type}:${a.source}`, a);
      for (const a of byType.values()) {
        const answer = await icu.get(`/activity/${a.id}`);
        expect(answer.status).toBe(200);
        expectValid(validate, JSON.parse(answer.text), `activity ${a.id} (${a.type ?? a.source})`);
      }
      const ride = activities.find((a) => a.type === "Ride" && a.source !== "STRAVA")!;
      expectValid(
        schemas.schema("ActivityWithIntervals"),
        JSON.parse((await icu.get(`/activity/${ride.id}?intervals=true`)).text),
        "a ride with intervals",
      );
      const stub = activities.find((a) => a.source === "STRAVA")!;
      expectValid(schemas.schema("Hidden"), JSON.parse((await icu.get(`/activity/${stub.id}`)).text), "a Strava-synced stub");
    });

    test("GET /activity/{id}/streams{ext}: a ride's streams, positions included", async () => {
      const ride = activities.find((a) => a.type === "Ride" && a.source !== "STRAVA")!;
      const answer = await icu.get(`/activity/${ride.id}/streams`);
      expect(answer.status).toBe(200);
      const streams = JSON.parse(answer.text) as Array<{ type: string }>;
      expect(streams.map((s) => s.type)).toEqual(expect.arrayContaining(["time", "watts", "heartrate", "latlng"]));
      expectValid(schemas.response("GET", "/activity/{id}/streams{ext}"), streams, "a ride's streams");
    });

    test("GET /athlete/{id}/wellness{ext} and /wellness/{date}: every day's record", async () => {
      const list = JSON.parse((await icu.get("/athlete/0/wellness")).text) as Array<{ id: string }>;
      expect(list.length).toBeGreaterThan(80);
      expectValid(schemas.response("GET", "/athlete/{id}/wellness{ext}"), list, "the wellness list");
      expectValid(
        schemas.response("GET", "/athlete/{id}/wellness/{date}"),
        JSON.parse((await icu.get(`/athlete/0/wellness/${list.at(-1)!.id}`)).text),
        "today's wellness",
      );
    });

    test("the client's manual activity and update bodies are intervals.icu's Activity, and the answers too", async () => {
      const manual = manualActivityRequest("0", {
        name: "Mount Sanitas again",
        type: "Hike",
        startDateLocal: "2026-11-21T09:30:00",
        elapsedTime: 7_200,
        distance: 9_800,
        description: "Logged by hand.",
        trainer: false,
        commute: false,
      });
      const manualBody = manual.body?.kind === "json" ? manual.body.value : undefined;
      expectValid(schemas.requestBody("POST", "/athlete/{id}/activities/manual"), manualBody, "the manual activity body");
      const created = await icu.send("POST", manual.path, JSON.stringify(manualBody), "application/json");
      expect(created.status).toBe(200);
      const activity = JSON.parse(created.text) as ActivityItem;
      expectValid(schemas.response("POST", "/athlete/{id}/activities/manual"), activity, "the created activity");

      const update = activityUpdateRequest(activity.id, { name: "Sanitas, by hand", commute: true });
      const updateBody = update.body?.kind === "json" ? update.body.value : undefined;
      expect(updateBody).toEqual({ name: "Sanitas, by hand", commute: true });
      expectValid(schemas.requestBody("PUT", "/activity/{id}"), updateBody, "the update body");
      const updated = await icu.send("PUT", update.path, JSON.stringify(updateBody), "application/json");
      expect(updated.status).toBe(200);
      expectValid(schemas.response("PUT", "/activity/{id}"), JSON.parse(updated.text), "the updated activity");
    });

    test("POST /athlete/{id}/activities: an upload's answer", async () => {
      const file = fitActivity({ startMs: testNow - 3 * 86_400_000, elapsedS: 1_800, distanceM: 6_000, sport: 1 });
      const answer = await icu.send("POST", "/athlete/0/activities", uploadForm(file, "run.fit", {}), null);
      expect(answer.status).toBe(201);
      expectValid(schemas.response("POST", "/athlete/{id}/activities"), JSON.parse(answer.text), "the upload's answer");
    });
  },
);

describe.skipIf(skip)(
  `the intervals.icu face's activity types${skip ? " (SKIPPED: the description is missing; see the notice)" : ""}`,
  () => {
    // The sandbox keeps its own list (it imports only common/, so a mistake in the tools' list cannot hide in the
    // fake that checks them): both lists are checked against the description, this one here.
    test("are SportInfo.type's values", () => {
      const description = JSON.parse(readFileSync(intervalsSpecPath!, "utf8")) as {
        components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }> }> };
      };
      expect([...intervalsTypes]).toEqual(description.components.schemas["SportInfo"]!.properties["type"]!.enum);
    });
  },
);
