/**
 * The MCP server over streamable HTTP, end to end: the server runs as a child process (as `npm start` runs
 * it) against a sandbox started here, so every upstream request it makes is counted. One server
 * serves the whole file; the v1 SDK's client (a 2025-era client), raw HTTP requests and the MCP
 * Inspector CLI talk to it. The current protocol revision's client is in protocol-versions.test.ts. The edge's
 * refusals (bearer 401s, a foreign Host or Origin, discovery probes without OAuth, GET and DELETE /mcp) are
 * checked in process, step by step, in test/mcp-adapter/http/ (route-steps/, route-table, mcp-node-route).
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { toolTable } from "../../tools/table.ts";
import { jsonRpcMessages, jsonRpcReply } from "../support/mcp-replies.ts";
import { baseEnv, repositoryRoot, sandboxEnv, scratchDirectory, spawnMcpChild, type McpChild } from "./mcp-child.ts";

const packageJson = JSON.parse(readFileSync(join(repositoryRoot, "package.json"), "utf8")) as { name: string; version: string };
const authToken = `e2e-${randomBytes(16).toString("hex")}`;
const mcpHeaders = { accept: "application/json, text/event-stream", "content-type": "application/json" };

let sandbox: RunningSandbox;
let server: McpChild;
let scratch: ReturnType<typeof scratchDirectory>;
let mcpUrl: string;
let port: number;
let client: Client;
let transport: StreamableHTTPClientTransport;
let accessToken: string;

beforeAll(async () => {
  // Refresh tokens do not rotate here so that this test can hold its own access token beside the
  // server's (the sandbox returns the same one while it has more than an hour left).
  const plenty: [number, number] = [100_000, 100_000];
  sandbox = await startSandbox({ uploadProcessingMs: 50, rotateRefreshTokens: false, rateLimits: { overall: plenty, read: plenty } });
  scratch = scratchDirectory();
  server = spawnMcpChild({
    env: sandboxEnv(sandbox, { authToken, tokenDirectory: scratch.path }),
  });
  const listening = await server.waitForEvent("listening");
  mcpUrl = String(listening["url"]);
  port = Number(listening["port"]);
  transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${authToken}` } } });
  client = new Client({ name: "fitness-e2e", version: "1.0.0" });
  await client.connect(transport);
  const answer = await fetch(sandbox.tokenUrl, {
    method: "POST",
    body: new URLSearchParams({
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
      grant_type: "refresh_token",
      refresh_token: sandbox.refreshToken(),
    }),
  });
  accessToken = ((await answer.json()) as { access_token: string }).access_token;
});

afterAll(async () => {
  await client?.close().catch(() => {});
  await server?.stop();
  await sandbox?.close();
  scratch?.remove();
});

/** The upstream's own answer to a GET, for comparing with a tool's text. */
async function upstreamText(path: string): Promise<string> {
  const response = await fetch(`${sandbox.apiBase}${path}`, { headers: { authorization: `Bearer ${accessToken}` } });
  expect(response.status).toBe(200);
  return response.text();
}

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  expect(result.content).toHaveLength(1);
  const item = result.content[0]!;
  if (item.type !== "text") throw new Error(`expected a text item, got ${item.type}`);
  return item.text;
}

/** A raw HTTP exchange, for what fetch cannot do (a foreign Host header, a lying Content-Length). */
function rawRequest(options: { method: string; path: string; headers: Record<string, string | number>; body?: string }): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, method: options.method, path: options.path, headers: options.headers, agent: false },
      (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const toolCallBody = (id: number): string =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_activity_by_id", arguments: { id } } });

describe("the MCP server over streamable HTTP", () => {
  test("initialize: the package's name and version, the tools capability, and no session", () => {
    expect(client.getServerVersion()).toMatchObject({ name: packageJson.name, version: packageJson.version });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(transport.sessionId).toBeUndefined();
  });

  test("tools/list: the 11 tools of the table, with JSON Schema inputs and annotations", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(toolTable.map((tool) => tool.name));
    expect(tools).toHaveLength(11);
    for (const tool of tools) {
      const definition = toolTable.find((candidate) => candidate.name === tool.name)!;
      expect(tool.title).toBe(definition.title);
      expect(tool.description).toBe(definition.description);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.inputSchema.properties).toBeTypeOf("object");
      expect(Array.isArray(tool.inputSchema.required)).toBe(true);
      expect(tool.inputSchema).toEqual({ required: [], ...JSON.parse(JSON.stringify(definition.parameters)) });
      expect(tool.annotations).toMatchObject(definition.annotations);
    }
    const byId = tools.find((tool) => tool.name === "get_activity_by_id")!;
    expect(byId.inputSchema.required).toEqual(["id"]);
    expect(byId.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((tool) => tool.name === "update_activity")!.annotations?.readOnlyHint).toBe(false);
  });

  test("every read tool returns the upstream's JSON", async () => {
    const activities = JSON.parse(await upstreamText("/athlete/activities?per_page=50")) as { id: number; sport_type: string }[];
    const run = activities.find((activity) => activity.sport_type === "Run")!;

    expect(textOf(await call("get_activities", { per_page: 5 }))).toBe(await upstreamText("/athlete/activities?page=1&per_page=5"));
    expect(textOf(await call("get_activity_by_id", { id: run.id }))).toBe(await upstreamText(`/activities/${run.id}`));
    expect(textOf(await call("get_activity_zones", { id: run.id }))).toBe(await upstreamText(`/activities/${run.id}/zones`));
    expect(textOf(await call("get_athlete", {}))).toBe(await upstreamText("/athlete"));
    expect(textOf(await call("get_athlete_stats", {}))).toBe(await upstreamText(`/athletes/${sandbox.athleteId}/stats`));
    // The tool asks with key_by_type=true and returns the array form, which is Strava's answer without it.
    expect(JSON.parse(textOf(await call("get_activity_streams", { id: run.id, keys: ["time", "heartrate"] })))).toEqual(
      JSON.parse(await upstreamText(`/activities/${run.id}/streams?keys=time,heartrate`)),
    );
    expect(textOf(await call("get_club_activities", { id: sandbox.clubId, per_page: 3 }))).toBe(
      await upstreamText(`/clubs/${sandbox.clubId}/activities?page=1&per_page=3`),
    );
  });

  test("the write tools create, update and upload through the upstream", async () => {
    const created = await call("create_activity", {
      name: "Iron Temple | Squat + Metcon",
      sport_type: "Workout",
      start_date_local: "2026-11-20T18:00:00Z",
      elapsed_time: 3600,
      description: "Back squat 5x5",
    });
    expect(created.isError).toBeUndefined();
    const activity = JSON.parse(textOf(created)) as { id: number; name: string };
    expect(activity.name).toBe("Iron Temple | Squat + Metcon");
    expect(textOf(await call("get_activity_by_id", { id: activity.id }))).toBe(await upstreamText(`/activities/${activity.id}`));

    const updated = JSON.parse(textOf(await call("update_activity", { id: activity.id, name: "Iron Temple | Legs" }))) as { name: string };
    expect(updated.name).toBe("Iron Temple | Legs");

    const start = Date.UTC(2026, 10, 19, 7, 0, 0);
    const points = Array.from(
      { length: 6 },
      (_, index) =>
        `<trkpt lat="${(40.015 + index * 0.0004).toFixed(5)}" lon="-105.27"><ele>1650</ele><time>${new Date(start + index * 60_000).toISOString()}</time></trkpt>`,
    ).join("");
    const gpx = `<?xml version="1.0"?><gpx version="1.1" creator="e2e"><trk><name>Morning loop</name><type>running</type><trkseg>${points}</trkseg></trk></gpx>`;
    const upload = JSON.parse(
      textOf(
        await call("create_upload", { file: Buffer.from(gpx).toString("base64"), data_type: "gpx", external_id: `e2e-${Date.now()}` }),
      ),
    ) as { id: number; status: string };
    expect(upload.id).toBeTypeOf("number");
    let status: { activity_id: number | null; error: string | null } = { activity_id: null, error: null };
    for (let attempt = 0; attempt < 40 && status.activity_id === null && status.error === null; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = JSON.parse(textOf(await call("get_upload", { id: upload.id })));
    }
    expect(status.error).toBeNull();
    expect(status.activity_id).toBeTypeOf("number");
  });

  test("an upstream 404 is an error result naming it", async () => {
    const result = await call("get_activity_by_id", { id: 1 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Error: .*404/);
    expect(result).not.toHaveProperty("upstreamStatus");
  });

  test("bad arguments are an error result naming the field, and nothing goes upstream", async () => {
    const before = sandbox.counters().requests;
    const result = await call("get_activity_by_id", { id: "twelve" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Error: .*\bid\b/);
    const missing = await call("create_activity", { name: "No sport" });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain("sport_type");
    expect(sandbox.counters().requests).toBe(before);
  });

  test("upstream connection failures through the server's HTTP client become error results naming them", async () => {
    const activities = JSON.parse(await upstreamText("/athlete/activities?per_page=3")) as { id: number }[];
    const id = activities[0]!.id;
    sandbox.injectFault({ match: `GET /activities/${id}`, kind: "reset" });
    const reset = await call("get_activity_by_id", { id });
    expect(reset.isError).toBe(true);
    expect(textOf(reset)).toMatch(/connection reset|ECONNRESET/i);
    sandbox.injectFault({ match: `GET /activities/${id}`, kind: "truncate" });
    const truncated = await call("get_activity_by_id", { id });
    expect(truncated.isError).toBe(true);
    expect(textOf(truncated)).toMatch(/^Error: /);
    // And the next call is fine again on a fresh connection.
    expect(textOf(await call("get_activity_by_id", { id }))).toBe(await upstreamText(`/activities/${id}`));
  });

  test("a client that hangs up cancels its call: the handler's signal aborts the upstream request", async () => {
    const activities = JSON.parse(await upstreamText("/athlete/activities?per_page=3")) as { id: number }[];
    const id = activities[1]!.id;
    sandbox.injectFault({ match: `GET /activities/${id}`, kind: "delay", delayMs: 5_000 });
    const hangUp = new AbortController();
    const pending = fetch(mcpUrl, {
      method: "POST",
      headers: { ...mcpHeaders, authorization: `Bearer ${authToken}` },
      body: toolCallBody(id),
      signal: hangUp.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    hangUp.abort();
    await expect(pending).rejects.toThrow();
    // Logged at info as cancelled, not as a failure: the client withdrew it.
    const cancelled = await server.waitForEvent("tool_call_cancelled", 4_000);
    expect(cancelled).toMatchObject({ tool: "get_activity_by_id", level: "info" });
    // Cancelled well before the upstream's 5 s delay would have answered.
    expect(Number(cancelled["ms"])).toBeLessThan(4_000);
  });

  test("an unknown tool is a protocol error (invalid params)", async () => {
    const error = await call("delete_everything", {}).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message).toContain("delete_everything");
  });

  test("GET /health answers the status, name, version, upstream kind (the sandbox, named as such) and the stored credentials' state", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/health`, { headers: { authorization: `Bearer ${authToken}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: "ok",
      name: packageJson.name,
      version: packageJson.version,
      // STRAVA_API_BASE points at the sandbox, which says so in every answer: /health and the log name it.
      upstream: "sandbox",
      trainingLog: "strava",
      credentials: { state: expect.stringMatching(/^(ok|unchecked)$/), since: expect.any(String) },
    });
    const selected = server.stderrLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line["event"] === "upstream_selected");
    expect(selected).toMatchObject({
      upstream: "sandbox",
      message: "STRAVA_API_BASE points at the sandbox (made-up athletes), not Strava.",
    });
  });

  test("transport rules: Accept, Content-Type, JSON, protocol version, body limit, notifications, batches", async () => {
    const post = (headers: Record<string, string>, body: string) =>
      fetch(mcpUrl, { method: "POST", headers: { authorization: `Bearer ${authToken}`, ...headers }, body });
    const list = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" });

    expect((await post({ "content-type": "application/json", accept: "application/json" }, list)).status).toBe(406);
    expect((await post({ ...mcpHeaders, "content-type": "text/plain" }, list)).status).toBe(415);
    const badJson = await post(mcpHeaders, "{not json");
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ error: { code: -32700 } });
    expect((await post(mcpHeaders, JSON.stringify({ hello: "world" }))).status).toBe(400);
    expect((await post({ ...mcpHeaders, "mcp-protocol-version": "1999-01-01" }, list)).status).toBe(400);

    const notification = await post(mcpHeaders, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    expect(notification.status).toBe(202);
    expect(await notification.text()).toBe("");

    // A 2025-era request is answered with one JSON body (no SSE), its length declared.
    const single = await post({ ...mcpHeaders, "mcp-protocol-version": "2025-06-18" }, list);
    expect(single.status).toBe(200);
    expect(single.headers.get("mcp-session-id")).toBeNull();
    expect(single.headers.get("content-type")).toContain("application/json");
    expect(single.headers.get("content-length")).toMatch(/^\d+$/);
    expect(jsonRpcReply<{ id: number; result: { tools: unknown[] } }>(await single.text()).result.tools).toHaveLength(11);

    const batch = await post(
      mcpHeaders,
      JSON.stringify([
        { jsonrpc: "2.0", id: "a", method: "tools/list" },
        { jsonrpc: "2.0", id: "b", method: "ping" },
      ]),
    );
    const answers = jsonRpcMessages(await batch.text()) as { id: string }[];
    expect(answers.map((answer) => answer.id)).toEqual(["a", "b"]);

    // Declared over 40 MiB: refused from the headers, before the body is read.
    const tooLarge = await rawRequest({
      method: "POST",
      path: "/mcp",
      headers: { ...mcpHeaders, authorization: `Bearer ${authToken}`, "content-length": 40 * 1024 * 1024 + 1 },
      body: "{",
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers["connection"]).toBe("close");
    expect(JSON.parse(tooLarge.body)).toMatchObject({
      jsonrpc: "2.0",
      error: { code: -32000, message: expect.stringContaining("Payload Too Large") },
    });
  });

  test("a third-party client, the MCP Inspector CLI, lists the tools and calls one", async () => {
    const inspector = join(repositoryRoot, "node_modules/@modelcontextprotocol/inspector-cli/build/cli.js");
    const run = (args: string[]) =>
      promisify(execFile)(
        process.execPath,
        [inspector, "--cli", mcpUrl, "--transport", "http", "--header", `Authorization: Bearer ${authToken}`, ...args],
        {
          // inspector-cli 1.0.3 looks for its package.json at "../package.json" relative to the working
          // directory (and imports it relative to itself): any directory one level inside a package works.
          cwd: join(repositoryRoot, "test"),
          timeout: 30_000,
        },
      );
    const listed = JSON.parse((await run(["--method", "tools/list"])).stdout) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toEqual(toolTable.map((tool) => tool.name));
    const called = JSON.parse((await run(["--method", "tools/call", "--tool-name", "get_athlete"])).stdout) as CallToolResult;
    expect(called.isError).toBeFalsy();
    expect(textOf(called)).toBe(await upstreamText("/athlete"));
  });

  test("logs: one JSON object per standard error line, standard output untouched, no secret anywhere", () => {
    expect(server.stderrLines.length).toBeGreaterThan(0);
    for (const line of server.stderrLines) {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      expect(parsed).toHaveProperty("event");
      expect(parsed).toHaveProperty("level");
    }
    expect(server.stdout()).toBe("");
    const stderr = server.stderrLines.join("\n");
    expect(server.stderrLines.some((line) => line.includes('"event":"tool_call"'))).toBe(true);
    for (const secret of [authToken, sandbox.clientSecret, sandbox.refreshToken(), accessToken]) {
      expect(stderr).not.toContain(secret);
    }
  });

  test("SIGTERM while a call waits on the upstream: the call is answered, new connections are refused, then exit 0", async () => {
    await client.close();
    const activities = JSON.parse(await upstreamText("/athlete/activities?per_page=3")) as { id: number }[];
    const id = activities[2]!.id;
    sandbox.injectFault({ match: `GET /activities/${id}`, kind: "delay", delayMs: 1_200 });
    const inFlight = fetch(mcpUrl, {
      method: "POST",
      headers: { ...mcpHeaders, authorization: `Bearer ${authToken}` },
      body: toolCallBody(id),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.process.kill("SIGTERM");
    await server.waitForEvent("stopping");
    await expect(fetch(`http://127.0.0.1:${port}/health`, { headers: { authorization: `Bearer ${authToken}` } })).rejects.toThrow();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    const reply = jsonRpcReply<{ result: CallToolResult }>(await answer.text());
    expect(reply.result.isError).toBeUndefined();
    expect(textOf(reply.result)).toBe(await upstreamText(`/activities/${id}`));
    expect(await server.exited).toBe(0);
    expect(server.stderrLines.find((line) => line.includes('"event":"stopping"'))).toContain('"calls_in_flight":1');
    expect(server.stderrLines.some((line) => line.includes('"event":"stopped"'))).toBe(true);
  });
});

describe("npm start, stopped by a supervisor", () => {
  test("SIGTERM to npm reaches the server: it stops as documented and nothing is left running", async () => {
    // npm runs the start script through sh; without `exec` in the script, sh died on the SIGTERM npm passed
    // on and the server kept running as an orphan, holding its port, its refresh never settled.
    const child = spawnMcpChild({ env: baseEnv({ PORT: "0", AUTH_TOKEN: authToken }), viaNpm: true });
    await child.waitForEvent("listening");
    const npmPid = child.process.pid!;
    const serverPids = readFileSync(`/proc/${npmPid}/task/${npmPid}/children`, "utf8").trim().split(/\s+/).map(Number);
    expect(serverPids).toHaveLength(1);
    const serverPid = serverPids[0]!;
    try {
      expect(readFileSync(`/proc/${serverPid}/cmdline`, "utf8")).toContain("mcp-adapter/start.mjs");
      expect(await child.stop("SIGTERM")).toBe(0);
      expect(child.stderrLines.some((line) => line.includes('"event":"stopped"'))).toBe(true);
      expect(() => process.kill(serverPid, 0)).toThrow(/ESRCH/);
    } finally {
      // An orphan left by a failure must not outlive the test run.
      try {
        process.kill(serverPid, "SIGKILL");
      } catch {
        // already gone, as it should be
      }
    }
  });
});
