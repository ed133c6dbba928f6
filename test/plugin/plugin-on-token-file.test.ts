/**
 * The plugin on a host with no AWS account: `credentialStore: "token-file"`, the token file written as
 * `npm run authorize -- --store file` writes it, no AWS variable in the environment at all. Tools work, a
 * refresh is written back to the file (which keeps client_id and client_secret), and an MCP server
 * started with FITNESS_TOKEN_FILE alone shares the file with the plugin across rotations of the refresh
 * token, neither ever meeting a spent one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { openAuthorizationStore } from "../../credentials/store-choice.ts";
import { baseEnv, spawnMcpChild, type McpChild } from "../mcp-adapter/mcp-child.ts";
import { registerPlugin, textOf, type RecordingHost } from "./recording-host-api.ts";

let sandbox: RunningSandbox;
let directory: string;
let tokenFile: string;
let host: RecordingHost;
let server: McpChild | undefined;
const savedEnv = { ...process.env };

beforeAll(async () => {
  for (const name of Object.keys(process.env)) if (name.startsWith("AWS_")) delete process.env[name];
  sandbox = await startSandbox({ rateLimits: { overall: [10_000, 100_000], read: [10_000, 100_000] } });
  process.env["STRAVA_API_BASE"] = sandbox.apiBase;
  process.env["STRAVA_TOKEN_URL"] = sandbox.tokenUrl;
  directory = mkdtempSync(join(tmpdir(), "plugin-token-file-"));
  tokenFile = join(directory, "strava-tokens.json");
  const store = await openAuthorizationStore({ kind: "token-file", path: tokenFile });
  await store.writeAuthorization(
    {
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
      refresh_token: sandbox.refreshToken(),
      access_token: "not-yet",
      expires_at: 0,
    },
    AbortSignal.timeout(5_000),
  );
  host = registerPlugin({ credentialStore: "token-file", tokenFile });
});

afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
  rmSync(directory, { recursive: true, force: true });
  process.env = savedEnv;
});

const stored = (): Record<string, unknown> => JSON.parse(readFileSync(tokenFile, "utf8")) as Record<string, unknown>;

async function call(tool: string, params: Record<string, unknown> = {}): Promise<string> {
  const result = await host.invoke(`fitness_${tool}`, params);
  expect(result.isError, textOf(result)).toBeUndefined();
  return textOf(result);
}

describe("the plugin on a local token file, with no AWS credentials", () => {
  it("serves the tools, writes every refresh back to the file and keeps the application's credentials there", async () => {
    expect(await call("get_athlete")).toContain('"firstname":"Maya"');
    const first = stored()["refresh_token"];
    sandbox.expireAccessTokens();
    expect(await call("get_activities", { per_page: 1 })).toMatch(/^\[\{/);
    const after = stored();
    expect(after["refresh_token"]).not.toBe(first);
    expect(after).toMatchObject({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret });
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(host.logs.map((line) => line.message).join("\n")).toContain(tokenFile);
  });

  it("shares the file with an MCP server started on it alone: both keep working across rotations", { timeout: 60_000 }, async () => {
    server = spawnMcpChild({
      env: baseEnv({
        PORT: "0",
        AUTH_TOKEN: "token-file-test-0123456789",
        FITNESS_TOKEN_FILE: tokenFile,
        STRAVA_API_BASE: sandbox.apiBase,
        STRAVA_TOKEN_URL: sandbox.tokenUrl,
      }),
    });
    const listening = await server.waitForEvent("listening");
    // The sandbox at STRAVA_API_BASE, named as such, and served from the token file (not the built-in one).
    expect(listening["upstream"]).toBe("sandbox");
    expect((await server.waitForEvent("upstream_selected"))["credentials"]).toBe(`token file ${tokenFile}`);
    const mcpCall = async (): Promise<string> => {
      const response = await fetch(String(listening["url"]), {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
          authorization: "Bearer token-file-test-0123456789",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_athlete", arguments: {} } }),
      });
      return response.text();
    };
    for (let round = 0; round < 3; round++) {
      sandbox.expireAccessTokens();
      expect(await mcpCall()).toContain("Maya");
      sandbox.expireAccessTokens();
      expect(await call("get_athlete")).toContain('"firstname":"Maya"');
    }
    expect(sandbox.counters().refreshTokenRejections).toBe(0);
    expect(stored()).toMatchObject({
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
      refresh_token: sandbox.refreshToken(),
    });
  });
});
