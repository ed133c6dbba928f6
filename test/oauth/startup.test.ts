/**
 * OAuth mode's start-up refusals, each a message naming the setting: no https PUBLIC_URL beyond
 * loopback, a PUBLIC_URL with a path, bound beyond loopback without PUBLIC_URL, a malformed athlete
 * list or one longer than the application's athlete limit, an unknown MCP_AUTH, a table without its
 * signing key secret. Nothing listens afterwards.
 */
import { describe, expect, it } from "vitest";
import { baseEnv, scratchDirectory, spawnMcpChild } from "../mcp/mcp-child.ts";
import { mkdirSync, renameSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import { startOAuthServer } from "../support/oauth-server.ts";
import { RecordingOAuthProvider } from "../support/sdk-oauth-provider.ts";
import { connectWithOAuth, rawToolCall } from "../support/oauth-session.ts";

async function refusal(env: Record<string, string>): Promise<string> {
  const scratch = scratchDirectory();
  const child = spawnMcpChild({ env: baseEnv({ MCP_AUTH: "oauth", PORT: "0", FITNESS_OAUTH_DIR: scratch.path, ...env }) });
  try {
    expect(await child.exited).toBe(1);
    const failed = child.stderrLines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line["event"] === "startup_failed");
    return String(failed?.["message"]);
  } finally {
    scratch.remove();
  }
}

describe("OAuth mode refuses to start", () => {
  it("without https beyond loopback, or with a PUBLIC_URL that is not an origin", async () => {
    expect(await refusal({ PUBLIC_URL: "http://fitness.example.com" })).toMatch(/PUBLIC_URL must use https/);
    expect(await refusal({ PUBLIC_URL: "https://fitness.example.com/mcp" })).toMatch(/origin only/);
    expect(await refusal({ HOST: "0.0.0.0" })).toMatch(/PUBLIC_URL is required/);
  });

  it("with a bad athlete list, an unknown MCP_AUTH, or a table without its key", async () => {
    expect(await refusal({ MCP_ATHLETES: "maya" })).toMatch(/MCP_ATHLETES must be Strava athlete ids/);
    expect(await refusal({ MCP_ATHLETES: "1,2,3", STRAVA_ATHLETE_LIMIT: "2" })).toMatch(/more than the Strava application serves/);
    expect(await refusal({ MCP_AUTH: "basic" })).toMatch(/MCP_AUTH must be "bearer"/);
    expect(await refusal({ MCP_OAUTH_TABLE: "t" })).toMatch(/MCP_SIGNING_KEY_SECRET must name/);
  });
});

describe("an owner nobody has claimed yet", () => {
  const events = (lines: string[], name: string): Record<string, unknown>[] =>
    lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line["event"] === name);

  it("is announced at start, with what to do, until the first athlete has signed in", async () => {
    const state = scratchDirectory();
    try {
      const first = await startOAuthServer({}, { stateDirectory: state.path });
      try {
        await first.child.waitForEvent("oauth_ready");
        const [announced] = events(first.child.stderrLines, "owner_unclaimed");
        // Loopback: information, not a warning (nobody else can reach it).
        expect(announced).toMatchObject({ level: "info", issuer: first.issuer });
        expect(String(announced?.["message"])).toMatch(/first one to sign in .* becomes this server's owner.*MCP_ATHLETES/);
        (await connectWithOAuth(first.mcpUrl, new RecordingOAuthProvider()))?.close();
      } finally {
        await first.stop();
      }
      const second = await startOAuthServer({}, { stateDirectory: state.path });
      try {
        await second.child.waitForEvent("oauth_ready");
        expect(events(second.child.stderrLines, "owner_unclaimed")).toEqual([]);
      } finally {
        await second.stop();
      }
    } finally {
      state.remove();
    }
  });

  it("is a warning on a server others can reach (PUBLIC_URL beyond loopback)", async () => {
    const server = await startOAuthServer({ PUBLIC_URL: "https://fitness.example.com" });
    try {
      await server.child.waitForEvent("oauth_ready");
      expect(events(server.child.stderrLines, "owner_unclaimed")).toMatchObject([{ level: "warn", issuer: "https://fitness.example.com" }]);
    } finally {
      await server.stop();
    }
  });

  it("is not announced when MCP_ATHLETES names who is served", async () => {
    const server = await startOAuthServer({ MCP_ATHLETES: "48201735" });
    try {
      await server.child.waitForEvent("oauth_ready");
      expect(events(server.child.stderrLines, "owner_unclaimed")).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});

describe("OAuth mode stops", () => {
  it("on SIGTERM with exit code 0, after logging that it stopped", async () => {
    const server = await startOAuthServer();
    expect((await fetch(`${server.issuer}/health`)).status).toBe(200);
    expect(await server.child.stop("SIGTERM")).toBe(0);
    await server.stop();
  });
});

describe("a store that cannot be read", () => {
  it("answers 503 with Retry-After, not a challenge that would make the client sign in again; then recovers", async () => {
    const server = await startOAuthServer();
    try {
      const provider = new RecordingOAuthProvider();
      (await connectWithOAuth(server.mcpUrl, provider))?.close();
      const state = join(server.stateDirectory, "state.json");
      renameSync(state, `${state}.aside`);
      mkdirSync(state);
      const broken = await rawToolCall(server.mcpUrl, provider.tokens()?.access_token, "get_athlete");
      expect(broken.status).toBe(503);
      expect(broken.headers.get("retry-after")).toBe("5");
      expect(broken.headers.get("www-authenticate")).toBeNull();
      rmdirSync(state);
      renameSync(`${state}.aside`, state);
      expect((await rawToolCall(server.mcpUrl, provider.tokens()?.access_token, "get_athlete")).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
