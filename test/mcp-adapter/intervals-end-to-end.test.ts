/**
 * The MCP server on intervals.icu, end to end: `INTERVALS_API_KEY=<the sandbox's key> INTERVALS_API_BASE=<its
 * intervals.icu face> npm start` as a child process, the face reached through a proxy that keeps every request,
 * so what the server sent is said exactly. Over HTTP and stdio: tools/list names each tool's log, every offered
 * tool answers from intervals.icu-shaped data, an update sends only the fields given, a Strava-synced stub is said
 * to be one and cannot be changed; a wrong key starts the server and its first call names INTERVALS_API_KEY with
 * nothing else sent; both logs set, and intervals.icu's key in OAuth mode, are refused at start; the built-in
 * sandbox's intervals.icu face (SANDBOX_FACE); no key in any log line.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { intervalsToolTable } from "../../tools/intervals-icu/table.ts";
import { stubNote } from "../../tools/intervals-icu/activity-answers.ts";
import { startRecordingProxy, type RecordingProxy } from "../support/recording-proxy.ts";
import { gpxTrack } from "../sandbox/activity-file-fixtures.ts";
import { baseEnv, repositoryRoot, spawnMcpChild, type McpChild } from "./mcp-child.ts";

const authToken = `icu-${randomBytes(16).toString("hex")}`;
const wrongKey = `wrong${randomBytes(10).toString("hex")}`;

let sandbox: RunningSandbox;
let proxy: RecordingProxy;
let server: McpChild;
let client: Client;
let mcpUrl: string;
const children: McpChild[] = [];

function intervalsEnv(extra: Record<string, string>): Record<string, string> {
  return baseEnv({ PORT: "0", AUTH_TOKEN: authToken, INTERVALS_API_BASE: `${proxy.baseUrl}/intervals/api/v1`, ...extra });
}

function started(child: McpChild): McpChild {
  children.push(child);
  return child;
}

async function connect(url: string): Promise<Client> {
  const connected = new Client({ name: "fitness-icu-e2e", version: "1.0.0" });
  await connected.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${authToken}` } } }),
  );
  return connected;
}

beforeAll(async () => {
  sandbox = await startSandbox({ uploadProcessingMs: 50, rateLimits: { overall: [100_000, 100_000], read: [100_000, 100_000] } });
  proxy = await startRecordingProxy(sandbox.baseUrl);
  // Strava's addresses are set too: addresses are no clash with intervals.icu's key, only credentials are.
  server = started(
    spawnMcpChild({ viaNpm: true, env: intervalsEnv({ INTERVALS_API_KEY: sandbox.intervalsApiKey, STRAVA_API_BASE: sandbox.apiBase }) }),
  );
  const listening = await server.waitForEvent("listening");
  // The address is the sandbox's intervals.icu face: the server says so (a real intervals.icu address says intervals.icu).
  expect(listening).toMatchObject({ upstream: "sandbox", log: "intervals.icu" });
  mcpUrl = String(listening["url"]);
  client = await connect(mcpUrl);
});

afterAll(async () => {
  await client?.close().catch(() => {});
  for (const child of children) await child.stop();
  await proxy?.close();
  await sandbox?.close();
  for (const child of children) {
    expect(child.stderrLines.filter((line) => line.includes(sandbox.intervalsApiKey) || line.includes(wrongKey))).toEqual([]);
  }
});

async function call(name: string, args: Record<string, unknown>, on: Client = client): Promise<CallToolResult> {
  return (await on.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  const item = result.content[0];
  if (item?.type !== "text") throw new Error("expected a text item");
  return item.text;
}

function json<T>(result: CallToolResult, tool: string): T {
  expect(result.isError, `${tool}: ${textOf(result)}`).toBeUndefined();
  return JSON.parse(textOf(result)) as T;
}

/** The requests the proxy saw from a given index on, as "METHOD /path?query" below the face's prefix. */
function sentSince(index: number): string[] {
  return proxy.requests.slice(index).map((request) => `${request.method} ${request.url.replace("/intervals/api/v1", "")}`);
}

/** An activity written through the sandbox's Strava face: on intervals.icu it is only a stub (it came from Strava). */
async function activityThroughStrava(): Promise<number> {
  const tokens = (await (
    await fetch(sandbox.tokenUrl, {
      method: "POST",
      body: new URLSearchParams({
        client_id: sandbox.clientId,
        client_secret: sandbox.clientSecret,
        grant_type: "refresh_token",
        refresh_token: sandbox.refreshToken(),
      }),
    })
  ).json()) as { access_token: string };
  // Two days back: a day before the athlete's today in any time zone, well inside the list's default 28 days.
  const day = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const created = await fetch(`${sandbox.apiBase}/activities`, {
    method: "POST",
    headers: { authorization: `Bearer ${tokens.access_token}` },
    body: new URLSearchParams({
      name: "Typed into Strava",
      sport_type: "Workout",
      start_date_local: `${day}T06:00:00Z`,
      elapsed_time: "1800",
    }),
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { id: number }).id;
}

describe("npm start on intervals.icu (INTERVALS_API_KEY, INTERVALS_API_BASE)", () => {
  test("says intervals.icu in the server's instructions, and sandbox in /health and the log (the address is the sandbox's)", async () => {
    const health = await fetch(mcpUrl.replace(/\/mcp$/, "/health"), { headers: { authorization: `Bearer ${authToken}` } });
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", upstream: "sandbox", trainingLog: "intervals.icu" });
    expect(client.getInstructions()).toMatch(/^Tools for one athlete's intervals\.icu training log/);
    expect(client.getServerVersion()?.title).toBe("intervals.icu fitness tools");
    expect(await server.waitForEvent("upstream_selected")).toMatchObject({ upstream: "sandbox", credentials: "INTERVALS_API_KEY" });
  });

  test("tools/list: intervals.icu's tools, each saying it reads intervals.icu; Strava's without a counterpart are not offered", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(intervalsToolTable.map((tool) => tool.name));
    for (const tool of tools) {
      const definition = intervalsToolTable.find((candidate) => candidate.name === tool.name)!;
      expect(tool.description).toBe(definition.description);
      expect(tool.description).toMatch(/intervals\.icu/);
      expect(tool.inputSchema).toEqual({ required: [], ...JSON.parse(JSON.stringify(definition.parameters)) });
    }
    expect(tools.map((tool) => tool.name)).not.toEqual(expect.arrayContaining(["get_athlete_stats"]));
    expect((await call("get_upload", { id: 1 }).catch((error: Error) => error)).toString()).toMatch(/Unknown tool "get_upload"/);
  });

  let rideId = "";
  test("reads the athlete, the activities, one activity by its i... id, its zones and streams, and the wellness", async () => {
    const athlete = json<Record<string, unknown>>(await call("get_athlete", {}), "get_athlete");
    expect(athlete).toMatchObject({ id: sandbox.intervalsAthleteId, timezone: "America/Denver" });
    expect(athlete).not.toHaveProperty("icu_api_key");

    const activities = json<Array<Record<string, unknown>>>(await call("get_activities", { limit: 20 }), "get_activities");
    expect(activities.length).toBeGreaterThan(3);
    const full = activities.filter((activity) => activity["source"] !== "STRAVA");
    expect(full.every((activity) => /^i\d+$/.test(String(activity["id"])) && "icu_training_load" in activity)).toBe(true);
    const ride = full.find((activity) => activity["type"] === "Ride" && activity["has_heartrate"] === true)!;
    expect(ride, "a ride with heart rate in the last 28 days").toBeDefined();
    rideId = String(ride["id"]);

    const detail = json<Record<string, unknown>>(await call("get_activity_by_id", { id: rideId }), "get_activity_by_id");
    expect(detail).toMatchObject({ id: rideId, type: "Ride" });
    const picked = json<Record<string, unknown>>(
      await call("get_activity_by_id", { id: rideId, fields: ["name", "icu_training_load"] }),
      "fields",
    );
    expect(Object.keys(picked).sort()).toEqual(["icu_training_load", "name"]);

    const zones = json<Record<string, unknown>>(await call("get_activity_zones", { id: rideId }), "get_activity_zones");
    expect(Array.isArray(zones["icu_hr_zone_times"])).toBe(true);
    expect(Object.keys(zones).every((key) => key === "id" || key === "type" || /zone|sweet_spot/.test(key))).toBe(true);

    const summary = json<Array<Record<string, unknown>>>(
      await call("get_activity_streams", { id: rideId, summary: true }),
      "streams summary",
    );
    expect(summary.find((stream) => stream["type"] === "heartrate")?.["summary"]).toMatchObject({ max: expect.any(Number) });
    const low = json<Array<{ type: string; data: unknown[]; data2?: unknown[] }>>(
      await call("get_activity_streams", { id: rideId, types: ["heartrate", "latlng"], resolution: "low" }),
      "streams low",
    );
    expect(low.map((stream) => stream.type).sort()).toEqual(["heartrate", "latlng", "time"]);
    expect(low.every((stream) => stream.data.length <= 100)).toBe(true);
    const position = low.find((stream) => stream.type === "latlng")!;
    expect(position.data2).toHaveLength(position.data.length);

    const wellness = json<Array<Record<string, unknown>>>(await call("get_wellness", {}), "get_wellness");
    expect(wellness).toHaveLength(28);
    expect(wellness.every((day) => typeof day["ctl"] === "number" && /^\d{4}-\d{2}-\d{2}$/.test(String(day["id"])))).toBe(true);
    const hrv = json<Array<Record<string, unknown>>>(await call("get_wellness", { fields: ["hrv"] }), "get_wellness fields");
    expect(hrv.every((day) => Object.keys(day).every((key) => key === "id" || key === "hrv"))).toBe(true);
  });

  test("an activity that came from Strava is said to be a stub, in words, and a change to it is refused before anything is sent", async () => {
    const stravaId = String(await activityThroughStrava());
    const listed = json<Array<Record<string, unknown>>>(await call("get_activities", { limit: 50 }), "get_activities");
    expect(listed.find((activity) => activity["id"] === stravaId)).toEqual({
      id: stravaId,
      start_date_local: expect.any(String),
      source: "STRAVA",
      note: stubNote,
    });
    expect(json<Record<string, unknown>>(await call("get_activity_by_id", { id: stravaId }), "stub")).toMatchObject({ note: stubNote });
    const before = proxy.requests.length;
    const refused = await call("update_activity", { id: stravaId, name: "Renamed" });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(
      `Error: Activity ${stravaId} reached intervals.icu from Strava, and intervals.icu cannot change such an activity`,
    );
    expect(sentSince(before)).toEqual([]);
  });

  test("creates a manual activity, then an update sends only the fields given, and the rest stays as it was", async () => {
    let index = proxy.requests.length;
    const created = json<Record<string, unknown>>(
      await call("create_activity", {
        name: "Iron Temple | Squat",
        type: "WeightTraining",
        start_date_local: "2026-11-20T18:30",
        elapsed_time: 3600,
        description: "5x5 @ 80 kg",
      }),
      "create_activity",
    );
    expect(created["id"]).toMatch(/^i\d+$/);
    expect(sentSince(index)).toEqual(["POST /athlete/0/activities/manual"]);
    expect(JSON.parse(proxy.requests[index]!.body)).toEqual({
      name: "Iron Temple | Squat",
      type: "WeightTraining",
      start_date_local: "2026-11-20T18:30:00",
      elapsed_time: 3600,
      moving_time: 3600,
      description: "5x5 @ 80 kg",
    });

    index = proxy.requests.length;
    const updated = json<Record<string, unknown>>(
      await call("update_activity", { id: created["id"], name: "Iron Temple | Squat 5x5" }),
      "update",
    );
    expect(sentSince(index)).toEqual([`PUT /activity/${String(created["id"])}`]);
    expect(JSON.parse(proxy.requests[index]!.body)).toEqual({ name: "Iron Temple | Squat 5x5" });
    expect(updated).toMatchObject({ name: "Iron Temple | Squat 5x5", description: "5x5 @ 80 kg", type: "WeightTraining" });
    // At the sandbox itself, not through the server: the description and type are as they were.
    const atSandbox = (await (
      await fetch(`${sandbox.intervalsApiBase}/activity/${String(created["id"])}`, {
        headers: { authorization: `Basic ${Buffer.from(`API_KEY:${sandbox.intervalsApiKey}`).toString("base64")}` },
      })
    ).json()) as Record<string, unknown>;
    expect(atSandbox).toMatchObject({
      name: "Iron Temple | Squat 5x5",
      description: "5x5 @ 80 kg",
      type: "WeightTraining",
      trainer: false,
    });
  });

  test("uploads a file and gets the new activity at once: nothing to poll", async () => {
    const file = Buffer.from(gpxTrack({ startMs: Date.now() - 2 * 86_400_000, points: 120, name: "Mesa trail", type: "hiking" })).toString(
      "base64",
    );
    const index = proxy.requests.length;
    const answer = json<{ id: string; activities: Array<{ id: string }> }>(
      await call("create_upload", { file, data_type: "gpx", name: "Mesa trail hike" }),
      "create_upload",
    );
    expect(answer.id).toMatch(/^i\d+$/);
    expect(answer.activities[0]?.id).toBe(answer.id);
    expect(sentSince(index)).toEqual(["POST /athlete/0/activities?name=Mesa%20trail%20hike"]);
    expect(json<Record<string, unknown>>(await call("get_activity_by_id", { id: answer.id, fields: ["name"] }), "uploaded")).toEqual({
      name: "Mesa trail hike",
    });
  });

  test("bad arguments are refused before anything is sent, in intervals.icu's terms", async () => {
    const index = proxy.requests.length;
    const numeric = await call("get_activity_by_id", { id: 849122417 });
    expect(textOf(numeric)).toMatch(/^Error: Invalid arguments for get_activity_by_id: id must be .*intervals\.icu activity id/);
    const tooLong = await call("get_wellness", { oldest: "2020-01-01", newest: "2021-06-30" });
    expect(textOf(tooLong)).toContain("at most 366 are answered at once");
    expect(sentSince(index)).toEqual([]);
  });
});

describe("a wrong key, both logs at once, OAuth mode", () => {
  test("a wrong key does not stop the server starting; the first call names INTERVALS_API_KEY, nothing else is sent, and health says so", async () => {
    const index = proxy.requests.length;
    const child = started(spawnMcpChild({ env: intervalsEnv({ INTERVALS_API_KEY: wrongKey }) }));
    const listening = await child.waitForEvent("listening");
    // Start-up's one look, without the key, at whether the address is the sandbox (mcp-adapter/upstream-kind.ts); nothing keyed.
    expect(sentSince(index)).toEqual(["GET /athlete"]);
    expect(proxy.requests.slice(index).every((request) => !JSON.stringify(request).includes(wrongKey))).toBe(true);
    const startup = proxy.requests.length;
    const wrong = await connect(String(listening["url"]));
    try {
      // The list's default dates need the athlete's today: the first request (their time zone) is refused, and the list is never asked.
      const result = await call("get_activities", {}, wrong);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("Error: intervals.icu answered 403 Forbidden to GET /athlete/0: Access denied.");
      expect(textOf(result)).toContain("Check INTERVALS_API_KEY");
      expect(textOf(result)).toContain("Nothing was retried.");
      expect(sentSince(startup)).toEqual(["GET /athlete/0"]);
    } finally {
      await wrong.close();
    }
    const health = await fetch(String(listening["url"]).replace(/\/mcp$/, "/health"), {
      headers: { authorization: `Bearer ${authToken}` },
    });
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({
      status: "needs_authorization",
      upstream: "sandbox",
      credentials: { state: "needs_authorization", message: expect.stringContaining("INTERVALS_API_KEY") },
    });
    expect(await child.stop()).toBe(0);
  });

  test("INTERVALS_API_KEY with a Strava credential: exits non-zero at start naming both, having sent nothing", async () => {
    const index = proxy.requests.length;
    const child = started(
      spawnMcpChild({ env: intervalsEnv({ INTERVALS_API_KEY: sandbox.intervalsApiKey, STRAVA_REFRESH_TOKEN: "a-refresh-token" }) }),
    );
    expect(await child.exited).toBe(1);
    const failure = child.stderrLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line["event"] === "startup_failed");
    expect(String(failure?.["message"])).toContain(
      "Both training logs are set: INTERVALS_API_KEY (intervals.icu) and STRAVA_REFRESH_TOKEN (Strava).",
    );
    expect(child.stderrLines.some((line) => line.includes('"event":"listening"'))).toBe(false);
    expect(sentSince(index)).toEqual([]);
  });

  test("OAuth mode serves Strava only and says so when given intervals.icu's key", async () => {
    const child = started(spawnMcpChild({ env: intervalsEnv({ INTERVALS_API_KEY: sandbox.intervalsApiKey, MCP_AUTH: "oauth" }) }));
    expect(await child.exited).toBe(1);
    expect(child.stderrLines.join("\n")).toContain("OAuth mode (MCP_AUTH=oauth, and the hosted function) serves Strava only");
  });
});

describe("intervals.icu over stdio, and the built-in sandbox's intervals.icu face", () => {
  test("stdio: the same tools, answering from intervals.icu", async () => {
    const stderr: string[] = [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["mcp-adapter/start.mjs", "--stdio"],
      cwd: repositoryRoot,
      env: baseEnv({ INTERVALS_API_KEY: sandbox.intervalsApiKey, INTERVALS_API_BASE: sandbox.intervalsApiBase }),
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
    const stdio = new Client({ name: "fitness-icu-stdio", version: "1.0.0" });
    await stdio.connect(transport);
    try {
      expect((await stdio.listTools()).tools.map((tool) => tool.name)).toEqual(intervalsToolTable.map((tool) => tool.name));
      const wellness = json<unknown[]>(await call("get_wellness", { oldest: "2026-11-01", newest: "2026-11-07" }, stdio), "stdio wellness");
      expect(wellness.length).toBeLessThanOrEqual(7);
    } finally {
      await stdio.close();
    }
    expect(stderr.join("")).toContain('"upstream":"sandbox"');
    expect(stderr.join("")).not.toContain(sandbox.intervalsApiKey);
  });

  test("SANDBOX_FACE=intervals.icu npm start: the built-in sandbox plays intervals.icu, and /health says sandbox", async () => {
    const child = started(spawnMcpChild({ env: baseEnv({ PORT: "0", AUTH_TOKEN: authToken, SANDBOX_FACE: "intervals.icu" }) }));
    const listening = await child.waitForEvent("listening");
    expect(listening).toMatchObject({ upstream: "sandbox", log: "intervals.icu" });
    expect(String((await child.waitForEvent("upstream_sandbox"))["message"])).toContain("NOT your intervals.icu account");
    const health = await fetch(String(listening["url"]).replace(/\/mcp$/, "/health"), {
      headers: { authorization: `Bearer ${authToken}` },
    });
    expect(await health.json()).toMatchObject({ status: "ok", upstream: "sandbox", trainingLog: "intervals.icu" });
    const face = await connect(String(listening["url"]));
    try {
      expect((await face.listTools()).tools.map((tool) => tool.name)).toContain("get_wellness");
      expect(json<unknown[]>(await call("get_wellness", {}, face), "sandbox wellness")).toHaveLength(28);
    } finally {
      await face.close();
    }
  });
});
