/**
 * OAuth mode's start-up refusals, each a message naming the setting: no https PUBLIC_URL beyond
 * loopback, a PUBLIC_URL with a path, bound beyond loopback without PUBLIC_URL or MCP_ATHLETES, a malformed athlete
 * list or one longer than the application's athlete limit, an unknown MCP_AUTH, a table without its
 * signing key secret. Nothing listens afterwards.
 */
import { describe, expect, it } from "vitest";
import { baseEnv, scratchDirectory, spawnMcpChild } from "../mcp-adapter/mcp-child.ts";
import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { startOAuthServer } from "../support/oauth-server.ts";
import { RecordingOAuthProvider } from "../support/sdk-oauth-provider.ts";
import { connectWithOAuth } from "../support/oauth-session.ts";

async function refusal(env: Record<string, string>): Promise<string> {
  const scratch = scratchDirectory();
  const child = spawnMcpChild({ env: baseEnv({ MCP_AUTH: "oauth", PORT: "0", FITNESS_OAUTH_DIR: join(scratch.path, "oauth"), ...env }) });
  try {
    expect(await child.exited).toBe(1);
    const failed = child.stderrLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line["event"] === "startup_failed");
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

  it("beyond loopback without MCP_ATHLETES: on the internet, whoever signed in first would own it", async () => {
    expect(await refusal({ PUBLIC_URL: "https://fitness.example.com" })).toMatch(
      /MCP_ATHLETES is required when the server is reached beyond loopback \(https:\/\/fitness.example.com\): set it to the Strava athlete ids it serves, such as MCP_ATHLETES=48201735/,
    );
  });

  it("with a state directory other users may enter, or inside one they may write: the chmod to run", async () => {
    const scratch = scratchDirectory();
    try {
      const loose = join(scratch.path, "oauth");
      mkdirSync(loose, { mode: 0o700 });
      chmodSync(loose, 0o777);
      expect(await refusal({ FITNESS_OAUTH_DIR: loose })).toMatch(
        new RegExp(
          `The OAuth state directory ${loose} lets other users in \\(permissions 777\\)\\. It holds the key that signs every access token: make it this user's alone \\(chmod 700 ${loose}\\)`,
        ),
      );
      chmodSync(loose, 0o700);
      chmodSync(scratch.path, 0o777);
      expect(await refusal({ FITNESS_OAUTH_DIR: loose })).toMatch(
        new RegExp(`inside ${scratch.path}, which others may write to .* \\(chmod go-w ${scratch.path}\\)`),
      );
    } finally {
      chmodSync(scratch.path, 0o700);
      scratch.remove();
    }
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
