/**
 * One server factory, both protocol eras: a client of the SDK's v2 line that negotiates
 * (`versionNegotiation: {mode: "auto"}`) gets the current revision, 2026-07-28, and calls every tool;
 * the same client in its default mode (2025-era `initialize`) gets 2025-11-25 from the same server.
 * Over HTTP (stateless, each request carrying its own `_meta` envelope) and over stdio. The server is a
 * child process on a counted sandbox, as in the other end-to-end files.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { toolTable } from "../../tools/table.ts";
import { baseEnv, repositoryRoot, sandboxAsStravaEnv, sandboxEnv, scratchDirectory, spawnMcpChild, type McpChild } from "./mcp-child.ts";

const currentRevision = "2026-07-28";
const authToken = `versions-${randomBytes(16).toString("hex")}`;

let sandbox: RunningSandbox;
let scratch: ReturnType<typeof scratchDirectory>;
let server: McpChild;
let mcpUrl: URL;
let accessToken: string;

beforeAll(async () => {
  const plenty: [number, number] = [100_000, 100_000];
  sandbox = await startSandbox({ uploadProcessingMs: 50, rotateRefreshTokens: false, rateLimits: { overall: plenty, read: plenty } });
  scratch = scratchDirectory();
  server = spawnMcpChild({ env: sandboxEnv(sandbox, { authToken, tokenDirectory: scratch.path }) });
  mcpUrl = new URL(String((await server.waitForEvent("listening"))["url"]));
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
  await server?.stop();
  await sandbox?.close();
  scratch?.remove();
});

function httpClient(mode: "auto" | "legacy"): { client: Client; transport: StreamableHTTPClientTransport } {
  const transport = new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { authorization: `Bearer ${authToken}` } } });
  return { client: new Client({ name: `versions-${mode}`, version: "1.0.0" }, { versionNegotiation: { mode } }), transport };
}

function textOf(result: CallToolResult): string {
  const item = result.content[0];
  if (item?.type !== "text") throw new Error(`expected a text item, got ${JSON.stringify(result).slice(0, 300)}`);
  return item.text;
}

async function upstreamText(path: string): Promise<string> {
  const response = await fetch(`${sandbox.apiBase}${path}`, { headers: { authorization: `Bearer ${accessToken}` } });
  expect(response.status).toBe(200);
  return response.text();
}

/** Calls each of the 11 tools once, through `client`, and checks each answer against the upstream. */
async function callEveryTool(client: Client): Promise<string[]> {
  const called: string[] = [];
  const call = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError, `${name}: ${JSON.stringify(result).slice(0, 300)}`).toBeFalsy();
    called.push(name);
    return textOf(result);
  };
  const activities = JSON.parse(await call("get_activities", { per_page: 30 })) as { id: number; sport_type: string }[];
  const run = activities.find((activity) => activity.sport_type === "Run") ?? activities[0]!;
  expect(await call("get_activity_by_id", { id: run.id })).toBe(await upstreamText(`/activities/${run.id}`));
  expect(await call("get_activity_zones", { id: run.id })).toBe(await upstreamText(`/activities/${run.id}/zones`));
  expect(await call("get_athlete", {})).toBe(await upstreamText("/athlete"));
  expect(await call("get_athlete_stats", {})).toBe(await upstreamText(`/athletes/${sandbox.athleteId}/stats`));
  expect(JSON.parse(await call("get_activity_streams", { id: run.id, keys: ["time"] }))).toEqual(
    JSON.parse(await upstreamText(`/activities/${run.id}/streams?keys=time`)),
  );
  expect(await call("get_club_activities", { id: sandbox.clubId, per_page: 2 })).toBe(
    await upstreamText(`/clubs/${sandbox.clubId}/activities?page=1&per_page=2`),
  );
  const created = JSON.parse(
    await call("create_activity", {
      name: "Versions | Strength",
      sport_type: "WeightTraining",
      start_date_local: "2026-11-21T07:00:00Z",
      elapsed_time: 1800,
    }),
  ) as { id: number };
  expect((JSON.parse(await call("update_activity", { id: created.id, name: "Versions | Legs" })) as { name: string }).name).toBe(
    "Versions | Legs",
  );
  const gpx =
    '<?xml version="1.0"?><gpx version="1.1" creator="versions"><trk><trkseg>' +
    [0, 1, 2].map((minute) => `<trkpt lat="40.0${minute}" lon="-105.27"><time>2026-11-19T07:0${minute}:00Z</time></trkpt>`).join("") +
    "</trkseg></trk></gpx>";
  const upload = JSON.parse(
    await call("create_upload", {
      file: Buffer.from(gpx).toString("base64"),
      data_type: "gpx",
      external_id: `versions-${randomBytes(4).toString("hex")}`,
    }),
  ) as {
    id: number;
  };
  expect((JSON.parse(await call("get_upload", { id: upload.id })) as { id: number }).id).toBe(upload.id);
  // Waits for the upload to become an activity, so the next test finds the sandbox at rest: its new ride
  // adds to the bike's distance, and landing between a tool call and the upstream read it is compared with
  // would make the two differ.
  await vi.waitFor(
    async () => {
      const status = JSON.parse(await call("get_upload", { id: upload.id })) as { activity_id: number | null; error: string | null };
      expect(status.error).toBeNull();
      expect(status.activity_id).toEqual(expect.any(Number));
    },
    { timeout: 10_000, interval: 100 },
  );
  return called;
}

describe("over HTTP", () => {
  test(`a v2 client negotiating (mode auto) gets ${currentRevision}, the 11 tools with cache hints, and calls every tool`, async () => {
    const { client, transport } = httpClient("auto");
    await client.connect(transport);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(currentRevision);
      expect(client.getServerVersion()).toMatchObject({ name: "openclaw-fitness" });
      const listed = await client.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual(toolTable.map((tool) => tool.name));
      expect(listed).toMatchObject({ ttlMs: 300_000, cacheScope: "public" });
      const called = await callEveryTool(client);
      expect([...new Set(called)].sort()).toEqual(toolTable.map((tool) => tool.name).sort());
      expect(transport.sessionId).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  test("the same client in its default mode gets a 2025-era session from the same server", async () => {
    const { client, transport } = httpClient("legacy");
    await client.connect(transport);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      expect((await client.listTools()).tools).toHaveLength(toolTable.length);
      expect(textOf((await client.callTool({ name: "get_athlete", arguments: {} })) as CallToolResult)).toBe(
        await upstreamText("/athlete"),
      );
    } finally {
      await client.close();
    }
  });

  test(`a ${currentRevision} request with bad arguments is a protocol error that reads like ours`, async () => {
    const { client, transport } = httpClient("auto");
    await client.connect(transport);
    try {
      const error = await client.callTool({ name: "get_athlete", arguments: null as unknown as Record<string, unknown> }).then(
        () => undefined,
        (caught: unknown) => caught as { code?: number; message: string },
      );
      expect(error?.code).toBe(-32602);
      expect(error?.message).toContain("params.arguments must be an object");
      expect(error?.message).not.toContain('"expected"');
    } finally {
      await client.close();
    }
  });
});

describe("over stdio", () => {
  test(`a v2 client negotiating (mode auto) gets ${currentRevision}, lists the tools and calls one`, async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["mcp-adapter/start.mjs", "--stdio"],
      cwd: repositoryRoot,
      env: baseEnv(sandboxAsStravaEnv(sandbox, join(scratch.path, "stdio-tokens.json"))),
      stderr: "pipe",
    });
    const client = new Client({ name: "versions-stdio", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(transport);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(currentRevision);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(toolTable.map((tool) => tool.name));
      expect(textOf((await client.callTool({ name: "get_athlete", arguments: {} })) as CallToolResult)).toBe(
        await upstreamText("/athlete"),
      );
    } finally {
      await client.close();
    }
  });
});
