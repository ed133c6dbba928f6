/**
 * Every tool's upstream request (method, path, query, body, headers) and result, with Strava faked at the
 * connection layer (undici's MockAgent; the multipart upload against a local server, to see its bytes) and
 * the real core in between.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileBackedCore, textOf, type FileBackedCore } from "../support/core-harness.ts";
import { once } from "node:events";
import { mockStrava, pathAnyQuery, type StravaMock } from "../support/strava-mock.ts";
import { streamKeys } from "../../tools/arguments/parameter-schemas.ts";
import { testNow } from "../support/test-clock.ts";

const now = testNow;
const credentials = {
  client_id: "1234",
  client_secret: "secret-xyz",
  refresh_token: "refresh-1",
  access_token: "access-valid",
  expires_at: now / 1000 + 6 * 3600,
};
let core: FileBackedCore;
let mock: StravaMock;

beforeEach(async () => {
  mock = mockStrava();
  core = await fileBackedCore({ credentials, now: () => now, dispatcher: mock.agent });
});
afterEach(async () => {
  await mock.close();
  await core.cleanup();
});

const authorized = { authorization: "Bearer access-valid", accept: "application/json" };
/** A GET with the access token, answered once (or `times`). */
function get(path: string | ((path: string) => boolean), query?: Record<string, string>) {
  return mock.strava.intercept({ path, method: "GET", headers: authorized, ...(query ? { query } : {}) });
}

describe("read tools", () => {
  it("get_activities sends before/after/page/per_page and returns the body", async () => {
    const body = '[{"id":16012345678,"name":"Morning Run","distance":5012.3,"moving_time":1500,"type":"Run"}]';
    get("/api/v3/athlete/activities", { before: "1763700000", after: "1763000000", page: "2", per_page: "10" }).reply(200, body, {
      headers: { "content-type": "application/json" },
    });
    const result = await core.call("get_activities", { before: 1763700000, after: 1763000000, page: 2, per_page: 10 });
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe(body);
    expect(mock.pending()).toEqual([]);
  });

  it("get_activities applies the defaults page 1 and per_page 30", async () => {
    get("/api/v3/athlete/activities", { page: "1", per_page: "30" }).reply(200, "[]");
    expect(textOf(await core.call("get_activities", {}))).toBe("[]");
    expect(mock.pending()).toEqual([]);
  });

  it("get_activity_by_id returns Strava's bytes as they came: segment-effort ids above 2^53 exact", async () => {
    const body = '{"id":16012345678,"name":"Lunch Ride","segment_efforts":[{"id":3456789012345678901,"name":"a b","distance":1.50}]}';
    get("/api/v3/activities/16012345678").reply(200, body);
    expect(textOf(await core.call("get_activity_by_id", { id: 16012345678 }))).toBe(body);
    expect(mock.pending()).toEqual([]);
  });

  it("get_activity_zones, get_athlete and get_upload map to one GET each", async () => {
    get("/api/v3/activities/42/zones").reply(
      200,
      '[{"type":"heartrate","distribution_buckets":[{"min":0,"max":120,"time":600}],"sensor_based":true}]',
    );
    get("/api/v3/athlete").reply(200, '{"id":9001,"firstname":"Ada"}');
    get("/api/v3/uploads/777").reply(200, '{"id":777,"status":"Your activity is ready.","activity_id":16000000001,"error":null}');
    expect(textOf(await core.call("get_activity_zones", { id: 42 }))).toContain('"heartrate"');
    expect(textOf(await core.call("get_athlete", {}))).toBe('{"id":9001,"firstname":"Ada"}');
    expect(textOf(await core.call("get_upload", { id: 777 }))).toContain('"activity_id":16000000001');
    expect(mock.pending()).toEqual([]);
  });

  it("get_athlete accepts missing arguments (MCP clients omit them)", async () => {
    get("/api/v3/athlete").reply(200, '{"id":9001}');
    expect(textOf(await core.call("get_athlete", undefined))).toBe('{"id":9001}');
    expect(mock.pending()).toEqual([]);
  });

  it("get_athlete_stats without id looks the athlete up once and keeps the id", async () => {
    get("/api/v3/athlete").reply(200, '{"id":9001,"firstname":"Ada"}');
    get("/api/v3/athletes/9001/stats").reply(200, '{"recent_run_totals":{"count":3}}').times(2);
    expect(textOf(await core.call("get_athlete_stats", {}))).toBe('{"recent_run_totals":{"count":3}}');
    expect(textOf(await core.call("get_athlete_stats"))).toBe('{"recent_run_totals":{"count":3}}');
    expect(mock.pending()).toEqual([]);
  });

  it("get_athlete_stats with an id uses it without a lookup", async () => {
    get("/api/v3/athletes/555/stats").reply(200, "{}");
    await core.call("get_athlete_stats", { id: 555 });
    expect(mock.pending()).toEqual([]);
  });

  it("get_activity_streams sends keys and key_by_type=true and returns an array of typed streams", async () => {
    get("/api/v3/activities/42/streams", { keys: "time,heartrate", key_by_type: "true" }).reply(200, {
      time: { data: [0, 1, 2], series_type: "distance", original_size: 3, resolution: "high" },
      heartrate: { data: [90, 95, 101], series_type: "distance", original_size: 3, resolution: "high" },
    });
    const streams = JSON.parse(textOf(await core.call("get_activity_streams", { id: 42, keys: ["time", "heartrate"] })));
    expect(streams).toEqual([
      { type: "time", data: [0, 1, 2], series_type: "distance", original_size: 3, resolution: "high" },
      { type: "heartrate", data: [90, 95, 101], series_type: "distance", original_size: 3, resolution: "high" },
    ]);
    expect(mock.pending()).toEqual([]);
  });

  it("get_activity_streams without keys (or with an empty list) asks for all 11, never keys=", async () => {
    get("/api/v3/activities/42/streams", { keys: streamKeys.join(","), key_by_type: "true" })
      .reply(200, "{}")
      .times(2);
    expect(textOf(await core.call("get_activity_streams", { id: 42 }))).toBe("[]");
    expect(textOf(await core.call("get_activity_streams", { id: 42, keys: [] }))).toBe("[]");
    expect(mock.pending()).toEqual([]);
  });

  it("get_activity_streams passes an array answer through unchanged", async () => {
    const body = '[{"type":"time","data":[0,1],"series_type":"time","original_size":2,"resolution":"high"}]';
    get(pathAnyQuery("/api/v3/activities/42/streams")).reply(200, body);
    expect(textOf(await core.call("get_activity_streams", { id: 42, keys: ["time"] }))).toBe(body);
    expect(mock.pending()).toEqual([]);
  });

  it("include_all_efforts goes upstream exactly as given, and not at all when absent; fields never go upstream", async () => {
    const body = '{"id":42,"name":"Ride","segment_efforts":[{"id":3456789012345678901,"hidden":true}]}';
    get("/api/v3/activities/42", { include_all_efforts: "true" }).reply(200, body);
    get("/api/v3/activities/42", { include_all_efforts: "false" }).reply(200, body);
    get("/api/v3/activities/42").reply(200, body);
    expect(textOf(await core.call("get_activity_by_id", { id: 42, include_all_efforts: true }))).toBe(body);
    expect(textOf(await core.call("get_activity_by_id", { id: 42, include_all_efforts: false, fields: ["segment_efforts"] }))).toBe(
      '{"segment_efforts":[{"id":3456789012345678901,"hidden":true}]}',
    );
    expect(textOf(await core.call("get_activity_by_id", { id: 42 }))).toBe(body);
    expect(mock.pending()).toEqual([]);
  });

  it("get_activity_streams with resolution or summary also asks for time; without them the request is unchanged", async () => {
    const keyed = '{"heartrate":{"data":[120,130],"series_type":"time","original_size":2,"resolution":"high"}}';
    get("/api/v3/activities/42/streams", { keys: "time,heartrate", key_by_type: "true" }).reply(200, keyed).times(2);
    get("/api/v3/activities/42/streams", { keys: "heartrate", key_by_type: "true" }).reply(200, keyed);
    expect(JSON.parse(textOf(await core.call("get_activity_streams", { id: 42, keys: ["heartrate"], resolution: "low" })))).toEqual([
      { type: "heartrate", data: [120, 130], series_type: "time", original_size: 2, resolution: "low" },
    ]);
    expect(textOf(await core.call("get_activity_streams", { id: 42, keys: ["heartrate"], summary: true }))).toContain(
      '"summary":{"min":120,"max":130',
    );
    expect(textOf(await core.call("get_activity_streams", { id: 42, keys: ["heartrate"], summary: false }))).toBe(
      '[{"type":"heartrate","data":[120,130],"series_type":"time","original_size":2,"resolution":"high"}]',
    );
    expect(mock.pending()).toEqual([]);
  });

  it("get_club_activities sends page and per_page", async () => {
    get("/api/v3/clubs/31337/activities", { page: "1", per_page: "5" }).reply(
      200,
      '[{"athlete":{"firstname":"Bo","lastname":"K."},"name":"Tempo"}]',
    );
    expect(textOf(await core.call("get_club_activities", { id: 31337, per_page: 5 }))).toContain("Tempo");
    expect(mock.pending()).toEqual([]);
  });
});

describe("write tools", () => {
  it("create_activity posts form-encoded fields with booleans as 1/0", async () => {
    let contentType = "";
    let sent = "";
    mock.strava.intercept({ path: "/api/v3/activities", method: "POST", headers: authorized }).reply(201, (request) => {
      contentType = String((request.headers as Record<string, string>)["content-type"]);
      sent = String(request.body);
      return '{"id":16099999999,"name":"Iron Temple | Squat + Metcon"}';
    });
    const result = await core.call("create_activity", {
      name: "Iron Temple | Squat + Metcon",
      sport_type: "WeightTraining",
      start_date_local: "2026-11-21T18:30:00",
      elapsed_time: 3600,
      description: "Strength: back squat 5x5 @ 100 kg",
      distance: 0,
      trainer: true,
      commute: false,
    });
    expect(result.isError).toBeUndefined();
    expect(result.upstreamStatus).toBe(201);
    expect(contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(sent))).toEqual({
      name: "Iron Temple | Squat + Metcon",
      sport_type: "WeightTraining",
      start_date_local: "2026-11-21T18:30:00Z",
      elapsed_time: "3600",
      description: "Strength: back squat 5x5 @ 100 kg",
      distance: "0",
      trainer: "1",
      commute: "0",
    });
    expect(mock.pending()).toEqual([]);
  });

  it("update_activity sends JSON with only the given fields", async () => {
    let sent = "";
    let contentType = "";
    mock.strava.intercept({ path: "/api/v3/activities/16012345678", method: "PUT", headers: authorized }).reply(200, (request) => {
      contentType = String((request.headers as Record<string, string>)["content-type"]);
      sent = String(request.body);
      return '{"id":16012345678,"name":"New"}';
    });
    await core.call("update_activity", { id: 16012345678, name: "New", gear_id: "none" });
    expect(JSON.parse(sent)).toEqual({ name: "New", gear_id: "none" });
    expect(contentType).toBe("application/json");
    expect(mock.pending()).toEqual([]);
  });

  it("create_upload sends real multipart/form-data with the decoded file as a file part", async () => {
    const fileBytes = Buffer.from([0x0e, 0x10, 0x43, 0x08, 0x2e, 0x46, 0x49, 0x54, 0xff, 0x00]);
    let raw: Buffer = Buffer.alloc(0);
    let contentType = "";
    let requested = "";
    // A real server: the bytes on the wire are what this test is about.
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        requested = `${request.method} ${request.url} ${request.headers.authorization}`;
        contentType = String(request.headers["content-type"]);
        raw = Buffer.concat(chunks);
        response.writeHead(201, { "content-type": "application/json" });
        response.end(
          '{"id":777,"id_str":"777","external_id":"watch-1","error":null,"status":"Your activity is still being processed.","activity_id":null}',
        );
      });
    });
    await once(server.listen(0, "127.0.0.1"), "listening");
    const local = await fileBackedCore({
      credentials,
      now: () => now,
      settings: { apiBase: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3` },
    });
    const result = await local.call("create_upload", {
      file: fileBytes.toString("base64"),
      data_type: "fit",
      name: "Long ride",
      trainer: false,
      external_id: "watch-1",
    });
    expect(result.isError, textOf(result)).toBeUndefined();
    const boundary = /boundary=(.+)$/.exec(contentType)?.[1];
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(boundary).toBeTruthy();
    const parsed = await new Response(raw, { headers: { "content-type": contentType } }).formData();
    const file = parsed.get("file");
    expect(file).toBeInstanceOf(Blob);
    expect((file as File).name).toBe("activity.fit");
    expect(parsed.get("data_type")).toBe("fit");
    expect(parsed.get("name")).toBe("Long ride");
    expect(parsed.get("trainer")).toBe("0");
    expect(parsed.get("external_id")).toBe("watch-1");
    expect(parsed.get("description")).toBeNull();
    expect(Buffer.from(await (file as Blob).arrayBuffer())).toEqual(fileBytes);
    expect(requested).toBe("POST /api/v3/uploads Bearer access-valid");
    await local.cleanup();
    server.close();
  });
});

describe("start_date_local on the wire", () => {
  it("gets seconds and Strava's local-time Z when the caller gives neither, and is kept when zoned", async () => {
    const { asStravaLocalTime } = await import("../../tools/create-activity.ts");
    expect(asStravaLocalTime("2026-11-21T18:30")).toBe("2026-11-21T18:30:00Z");
    expect(asStravaLocalTime("2026-11-21T18:30:05")).toBe("2026-11-21T18:30:05Z");
    expect(asStravaLocalTime("2026-11-21T18:30:05.5")).toBe("2026-11-21T18:30:05.5Z");
    expect(asStravaLocalTime("2026-11-21T18:30:05Z")).toBe("2026-11-21T18:30:05Z");
    expect(asStravaLocalTime("2026-11-21T18:30+01:00")).toBe("2026-11-21T18:30:00+01:00");
  });

  it("a date or time that does not exist is refused before Strava is asked", async () => {
    const { asStravaLocalTime } = await import("../../tools/create-activity.ts");
    expect(() => asStravaLocalTime("2026-02-30T10:00")).toThrow(
      'start_date_local must be a real date and time; "2026-02-30T10:00" has no such day.',
    );
    expect(() => asStravaLocalTime("2026-13-01T10:00")).toThrow("has no such day");
    expect(() => asStravaLocalTime("2026-11-21T25:61:00")).toThrow("has no such time of day");
    expect(asStravaLocalTime("2028-02-29T23:59:59")).toBe("2028-02-29T23:59:59Z");
  });
});
