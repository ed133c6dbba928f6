/**
 * Arguments are checked before any network call: bad ones give an error result that names the field,
 * and nothing is sent (the connection layer is a MockAgent with no answers, which counts every request).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileBackedCore, textOf, type FileBackedCore } from "../support/core-harness.ts";
import { mockStrava, type StravaMock } from "../support/strava-mock.ts";
import { toolTable } from "../../tools/table.ts";

let core: FileBackedCore;
let mock: StravaMock;

beforeAll(async () => {
  mock = mockStrava();
  core = await fileBackedCore({
    credentials: { client_id: "1", client_secret: "s", refresh_token: "r", access_token: "a", expires_at: 4_000_000_000 },
    dispatcher: mock.agent,
  });
});
afterAll(async () => {
  await mock.close();
  await core.cleanup();
});

const cases: Array<[tool: string, args: unknown, expected: RegExp]> = [
  ["get_activities", { per_page: 500 }, /per_page must be an integer from 1 to 200.*got 500/],
  ["get_activities", { per_page: 0 }, /per_page must be an integer from 1 to 200/],
  ["get_activities", { page: 0 }, /page must be an integer from 1/],
  ["get_activities", { page: 1.5 }, /page must be an integer/],
  ["get_activities", { before: "yesterday" }, /before must be an integer.*epoch seconds.*got "yesterday"/],
  ["get_activities", { after: -5 }, /after must be an integer from 0/],
  ["get_activities", { after: 1_800_000_000, before: 1_700_000_000 }, /after \(1800000000\) must be earlier than before/],
  ["get_activities", { perPage: 10 }, /unknown parameter "perPage".*Allowed: before, after, page, per_page/],
  ["get_activities", "per_page=10", /expected an object of named parameters, got a string/],
  ["get_activities", [1, 2], /expected an object of named parameters, got a list/],
  ["get_activity_by_id", {}, /id is required: an integer from 1/],
  ["get_activity_by_id", { id: "123" }, /id must be an integer.*got "123"/],
  ["get_activity_by_id", { id: -1 }, /id must be an integer from 1/],
  ["get_activity_by_id", { id: 2 ** 60 }, /id must be an integer from 1 to 9007199254740991/],
  [
    "create_activity",
    { name: "x", sport_type: "Jogging", start_date_local: "2026-11-21T10:00:00", elapsed_time: 60 },
    /sport_type must be one of "Run", "TrailRun"/,
  ],
  [
    "create_activity",
    { name: "x", sport_type: "Run", start_date_local: "yesterday 10am", elapsed_time: 60 },
    /start_date_local must be a string.*format/,
  ],
  ["create_activity", { name: "x", sport_type: "Run", start_date_local: "2026-11-21T10:00:00" }, /elapsed_time is required/],
  [
    "create_activity",
    { name: "", sport_type: "Run", start_date_local: "2026-11-21T10:00:00", elapsed_time: 60 },
    /name must be a string, non-empty/,
  ],
  [
    "create_activity",
    { name: "x", sport_type: "Run", start_date_local: "2026-11-21T10:00:00", elapsed_time: 60, distance: -3 },
    /distance must be a number from 0/,
  ],
  [
    "create_activity",
    { name: "x", sport_type: "Run", start_date_local: "2026-11-21T10:00:00", elapsed_time: 60, trainer: "yes" },
    /trainer must be true or false/,
  ],
  ["update_activity", { id: 1 }, /Nothing to update: give at least one of name, sport_type, description, trainer, commute, gear_id/],
  ["update_activity", { id: 1, distance: 5000 }, /unknown parameter "distance"/],
  ["update_activity", { id: 1, sport_type: "run" }, /sport_type must be one of/],
  ["get_athlete", { id: 5 }, /unknown parameter "id".*takes no parameters/],
  ["get_athlete_stats", { id: 0 }, /id must be an integer from 1/],
  ["get_activity_streams", { id: 1, keys: ["power"] }, /keys\.0 must be one of "time", "distance"/],
  ["get_activity_streams", { id: 1, keys: "time,heartrate" }, /keys must be a list/],
  ["get_activity_streams", { id: 1, keys: ["time", "time"] }, /keys must be a list.*without repeats/],
  ["get_club_activities", { id: 1, per_page: 201 }, /per_page must be an integer from 1 to 200/],
  ["create_upload", { file: "AAAA", data_type: "zip" }, /data_type must be one of "fit", "fit.gz", "tcx", "tcx.gz", "gpx", "gpx.gz"/],
  ["create_upload", { data_type: "fit" }, /file is required/],
  ["create_upload", { file: "not base64!", data_type: "fit" }, /file must be base64-encoded; it contains "!"/],
  ["create_upload", { file: "QUJD=RA==", data_type: "gpx" }, /padding may only appear/],
  ["create_upload", { file: "QUJD=", data_type: "gpx" }, /padding may only appear/],
  ["create_upload", { file: "QUJDR", data_type: "gpx" }, /not complete base64/],
  ["create_upload", { file: "\n\n", data_type: "gpx" }, /empty once decoded/],
  ["get_activity_zones", { id: 3.5 }, /id must be an integer/],
  ["get_upload", { id: null }, /id must be an integer.*got null/],
];

describe("argument validation", () => {
  it.each(cases)("%s %j", async (tool, args, expected) => {
    const before = mock.requests();
    const result = await core.call(tool, args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Error: /);
    expect(textOf(result)).toMatch(expected);
    expect(mock.requests()).toBe(before);
  });

  it("covers every tool", () => {
    expect(new Set(cases.map(([tool]) => tool))).toEqual(new Set(toolTable.map((tool) => tool.name)));
  });

  it("accepts gzipped upload types, URL-safe base64 and wrapped lines (then needs the network)", async () => {
    // Valid arguments get past validation: the only failure left is that the mock has no answer.
    const before = mock.requests();
    const result = await core.call("create_upload", { file: "H4sI\nAAAA-_8=", data_type: "fit.gz" });
    expect(textOf(result)).toMatch(/Network failure on POST \/uploads/);
    expect(mock.requests()).toBe(before + 1);
  });

  it("logs each rejected call", () => {
    expect(core.logs.some((line) => line.includes('"event":"tool_input_rejected"'))).toBe(true);
  });
});
