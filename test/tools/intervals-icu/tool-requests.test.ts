/**
 * The intervals.icu tools without a network: the request each builds from its arguments (intervals.icu's paths,
 * the athlete's local dates with `newest` sent as the end of its day, the defaults from the athlete's today,
 * what is refused before anything is sent), and how each answer is shaped (Strava-synced stubs said in words,
 * `fields`, the zones of an activity, the profile without its key field, streams reduced with intervals.icu's
 * position in `data` and `data2`).
 */
import { describe, expect, it } from "vitest";
import type { RequestContext, ToolDefinition } from "../../../tools/definition/tool-definition.ts";
import { intervalsToolTable } from "../../../tools/intervals-icu/table.ts";
import { ToolInputError, validateArguments } from "../../../tools/arguments/validate-arguments.ts";
import { stubNote } from "../../../tools/intervals-icu/activity-answers.ts";

const tool = (name: string): ToolDefinition => intervalsToolTable.find((candidate) => candidate.name === name)!;

/** The service as intervals.icu's dependencies give it: athlete "0" (the key's own), whose local date is `today`. */
function context(today = "2026-11-21"): RequestContext & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    athleteId: async () => "0",
    today: async () => {
      asked.push("today");
      return today;
    },
  };
}

async function requestOf(name: string, args: unknown, service = context()) {
  const definition = tool(name);
  return definition.request(validateArguments(name, definition.parameters, args), service);
}

function answerOf(name: string, body: unknown, args: unknown = {}): string {
  const definition = tool(name);
  const text = JSON.stringify(body);
  const withId = "id" in definition.parameters.properties ? { id: "i1", ...(args as object) } : args;
  return definition.resultText?.(text, validateArguments(name, definition.parameters, withId)) ?? text;
}

const stub = {
  id: "15848970269",
  icu_athlete_id: "i218734",
  start_date_local: "2026-11-25T18:04:29",
  source: "STRAVA",
  _note: "STRAVA activities are not available via the API",
};
const ride = {
  id: "i849122417",
  start_date_local: "2026-11-27T12:20:17",
  type: "Ride",
  name: "Lunch loop",
  source: "GARMIN_CONNECT",
  distance: 42000,
};

describe("get_activities on intervals.icu", () => {
  it("lists the 28 days ending the athlete's today by default, newest sent as the end of its day", async () => {
    const service = context("2026-11-21");
    expect(await requestOf("get_activities", {}, service)).toEqual({
      method: "GET",
      path: "/athlete/0/activities",
      query: { oldest: "2026-10-25", newest: "2026-11-21T23:59:59", limit: undefined },
    });
    expect(service.asked).toEqual(["today"]);
  });

  it("takes both dates as given (both included) without asking for today, and passes limit on", async () => {
    const service = context();
    expect(await requestOf("get_activities", { oldest: "2026-02-27", newest: "2026-03-01", limit: 5 }, service)).toMatchObject({
      query: { oldest: "2026-02-27", newest: "2026-03-01T23:59:59", limit: 5 },
    });
    expect(service.asked).toEqual([]);
    expect(await requestOf("get_activities", { newest: "2024-03-01" })).toMatchObject({ query: { oldest: "2024-02-03" } });
  });

  it("refuses before anything is sent: a day that does not exist, oldest after newest, a field intervals.icu's Activity lacks", async () => {
    await expect(requestOf("get_activities", { oldest: "2026-02-30" })).rejects.toThrow(
      'oldest must be a real date, YYYY-MM-DD; "2026-02-30" has no such day.',
    );
    await expect(requestOf("get_activities", { oldest: "2026-11-22", newest: "2026-11-21" })).rejects.toThrow(
      "oldest (2026-11-22) must not be after newest (2026-11-21); both are the athlete's local dates, both included.",
    );
    await expect(requestOf("get_activities", { fields: ["id", "sport_type"] })).rejects.toThrow(ToolInputError);
    await expect(requestOf("get_activities", { fields: ["id", "sport_type"] })).rejects.toThrow(
      `"sport_type" is not a field of intervals.icu's Activity.`,
    );
    expect(() => validateArguments("get_activities", tool("get_activities").parameters, { after: 1 })).toThrow(
      'unknown parameter "after". Allowed: oldest, newest, limit, fields, summary.',
    );
    expect(() => validateArguments("get_activities", tool("get_activities").parameters, { oldest: "21.11.2026" })).toThrow(ToolInputError);
  });

  it("says a Strava-synced stub is one, in words, and keeps the list as sent when it holds none", () => {
    const worded = JSON.parse(answerOf("get_activities", [ride, stub])) as Array<Record<string, unknown>>;
    expect(worded[0]).toEqual(ride);
    expect(worded[1]).toEqual({ id: stub.id, start_date_local: stub.start_date_local, source: "STRAVA", note: stubNote });
    expect(tool("get_activities").resultText?.(JSON.stringify([ride]), {})).toBeUndefined();
  });

  it("keeps only the fields asked of each activity, in intervals.icu's order; a stub stays a stub in words", () => {
    const projected = JSON.parse(answerOf("get_activities", [ride, stub], { fields: ["name", "id"] })) as unknown[];
    expect(projected).toEqual([
      { id: ride.id, name: ride.name },
      { id: stub.id, start_date_local: stub.start_date_local, source: "STRAVA", note: stubNote },
    ]);
  });
});

describe("one activity, its zones, the athlete on intervals.icu", () => {
  it("reads an activity by its i... id or a stub's digits, with intervals.icu's 404 explained", async () => {
    expect(await requestOf("get_activity_by_id", { id: "i849122417" })).toEqual({ method: "GET", path: "/activity/i849122417" });
    expect(await requestOf("get_activity_by_id", { id: "15848970269" })).toEqual({ method: "GET", path: "/activity/15848970269" });
    expect(() => validateArguments("get_activity_by_id", tool("get_activity_by_id").parameters, { id: 849122417 })).toThrow(
      /id must be .*intervals\.icu activity id/,
    );
    expect(tool("get_activity_by_id").errorHint?.(404, undefined)).toContain('such as "i1234567"');
  });

  it("answers a stub in words, never as an empty record", () => {
    expect(JSON.parse(answerOf("get_activity_by_id", stub))).toEqual({
      id: stub.id,
      start_date_local: stub.start_date_local,
      source: "STRAVA",
      note: stubNote,
    });
    expect(stubNote).toMatch(/^Only a stub: this activity reached intervals\.icu from Strava/);
  });

  it("keeps an activity's zones and time in zones only", () => {
    const activity = {
      ...ride,
      icu_hr_zones: [140, 155],
      icu_hr_zone_times: [600, 1200],
      icu_zone_times: [{ id: "Z1", secs: 300 }],
      average_heartrate: 150,
    };
    expect(JSON.parse(answerOf("get_activity_zones", activity))).toEqual({
      id: ride.id,
      type: "Ride",
      icu_hr_zones: [140, 155],
      icu_hr_zone_times: [600, 1200],
      icu_zone_times: [{ id: "Z1", secs: 300 }],
    });
  });

  it("asks for the athlete of INTERVALS_ATHLETE_ID and never hands on the API key field", async () => {
    expect(await requestOf("get_athlete", {})).toEqual({ method: "GET", path: "/athlete/0" });
    const text = tool("get_athlete").resultText?.(JSON.stringify({ id: "i218734", name: "Maya", icu_api_key: "k3y" }), {});
    expect(JSON.parse(text!)).toEqual({ id: "i218734", name: "Maya" });
  });
});

describe("wellness on intervals.icu", () => {
  it("reads the 28 days ending today by default, dates as days, and keeps the date with any fields", async () => {
    expect(await requestOf("get_wellness", {})).toEqual({
      method: "GET",
      path: "/athlete/0/wellness",
      query: { oldest: "2026-10-25", newest: "2026-11-21", fields: undefined },
    });
    expect(await requestOf("get_wellness", { oldest: "2026-11-01", fields: ["hrv", "restingHR"] })).toMatchObject({
      query: { oldest: "2026-11-01", newest: "2026-11-21", fields: "id,hrv,restingHR" },
    });
  });

  it("answers at most 366 days at once", async () => {
    expect(await requestOf("get_wellness", { oldest: "2023-03-01", newest: "2024-02-29" })).toMatchObject({
      query: { oldest: "2023-03-01" },
    });
    await expect(requestOf("get_wellness", { oldest: "2025-11-20" })).rejects.toThrow(
      "The dates span 367 days (2025-11-20 to 2026-11-21); at most 366 are answered at once: ask for a shorter span.",
    );
  });
});

describe("writes on intervals.icu", () => {
  it("creates a manual activity as intervals.icu's JSON, its start the athlete's wall clock", async () => {
    const request = await requestOf("create_activity", {
      name: "Squat",
      type: "WeightTraining",
      start_date_local: "2026-11-21T18:30",
      elapsed_time: 3600,
      trainer: true,
    });
    expect(request).toEqual({
      method: "POST",
      path: "/athlete/0/activities/manual",
      body: {
        kind: "json",
        value: {
          name: "Squat",
          type: "WeightTraining",
          start_date_local: "2026-11-21T18:30:00",
          elapsed_time: 3600,
          moving_time: 3600,
          trainer: true,
        },
      },
    });
    await expect(
      requestOf("create_activity", { name: "x", type: "Run", start_date_local: "2026-11-31T07:00", elapsed_time: 60 }),
    ).rejects.toThrow('start_date_local must be a real date, YYYY-MM-DD; "2026-11-31" has no such day.');
    expect(() =>
      validateArguments("create_activity", tool("create_activity").parameters, {
        name: "x",
        type: "Basketball",
        start_date_local: "2026-11-21T07:00",
        elapsed_time: 60,
      }),
    ).toThrow(/type must be one of/);
  });

  it("sends an update with only the fields given", async () => {
    expect(await requestOf("update_activity", { id: "i849122417", name: "Renamed" })).toEqual({
      method: "PUT",
      path: "/activity/i849122417",
      body: { kind: "json", value: { name: "Renamed" } },
    });
    await expect(requestOf("update_activity", { id: "i849122417" })).rejects.toThrow(
      "Nothing to update: give at least one of name, type, description, trainer, commute besides id.",
    );
  });

  it("refuses a change to a Strava-synced stub before anything is sent, saying why", async () => {
    await expect(requestOf("update_activity", { id: "15848970269", name: "Renamed" })).rejects.toThrow(
      "Activity 15848970269 reached intervals.icu from Strava, and intervals.icu cannot change such an activity: its API holds it only as a stub (Strava's rules).",
    );
  });

  it("uploads a file as a multipart file part named by its format, the rest in the query", async () => {
    const request = await requestOf("create_upload", { file: Buffer.from("<gpx/>").toString("base64"), data_type: "gpx", name: "Hike" });
    expect(request).toMatchObject({
      method: "POST",
      path: "/athlete/0/activities",
      query: { name: "Hike", description: undefined, external_id: undefined },
      body: { kind: "multipart", fields: {}, file: { field: "file", filename: "activity.gpx" } },
    });
  });

  it("shows intervals.icu's words in the approval", () => {
    const create = tool("create_activity").writeApproval!.summary({
      name: "Squat",
      type: "WeightTraining",
      start_date_local: "2026-11-21T18:30",
      elapsed_time: 3600,
    });
    expect(create.title).toBe("Create intervals.icu activity");
    expect(create.description).toContain("Sport type: WeightTraining");
    const update = tool("update_activity").writeApproval!.summary(
      { id: "i1", type: "Run" },
      { name: "Ride", type: "Ride", description: "" },
    );
    expect(update.title).toBe("Update intervals.icu activity");
    expect(update.description).toContain('Sport type: "Ride" → "Run"');
  });
});

describe("streams on intervals.icu", () => {
  const streams = [
    { type: "time", name: null, data: [0, 1, 2, 3] },
    { type: "latlng", name: null, data: [40.01, 40.02, 40.03, 40.04], data2: [-105.2, -105.3, -105.4, -105.5] },
    { type: "heartrate", name: null, data: [120, 130, 140, 150] },
  ];

  it("asks for the types given, adding time when the answer is reduced", async () => {
    expect(await requestOf("get_activity_streams", { id: "i1", types: ["heartrate"] })).toEqual({
      method: "GET",
      path: "/activity/i1/streams.json",
      query: { types: "heartrate" },
    });
    expect(await requestOf("get_activity_streams", { id: "i1", types: ["heartrate"], summary: true })).toMatchObject({
      query: { types: "time,heartrate" },
    });
    expect(await requestOf("get_activity_streams", { id: "i1" })).toMatchObject({ query: { types: undefined } });
  });

  it("gives every sample as sent by default", () => {
    expect(tool("get_activity_streams").resultText?.(JSON.stringify(streams), { id: "i1" })).toBeUndefined();
  });

  it("reduces with intervals.icu's position kept as data and data2, and summarises it as a bounding box", () => {
    const reduced = JSON.parse(answerOf("get_activity_streams", streams, { resolution: "low", summary: true })) as Array<
      Record<string, unknown>
    >;
    const latlng = reduced.find((stream) => stream["type"] === "latlng")!;
    expect(latlng["data"]).toEqual([40.01, 40.02, 40.03, 40.04]);
    expect(latlng["data2"]).toEqual([-105.2, -105.3, -105.4, -105.5]);
    expect(latlng["summary"]).toMatchObject({ min: [40.01, -105.5], max: [40.04, -105.2] });
    expect(latlng["resolution"]).toBe("low");
    const heart = reduced.find((stream) => stream["type"] === "heartrate")!;
    expect(heart["summary"]).toMatchObject({ min: 120, max: 150 });
    const summaryOnly = JSON.parse(answerOf("get_activity_streams", streams, { summary: true })) as Array<Record<string, unknown>>;
    expect(summaryOnly.every((stream) => !("data" in stream) && !("data2" in stream) && "summary" in stream)).toBe(true);
  });
});
