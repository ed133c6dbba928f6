/**
 * How the MCP server starts and stops: incomplete Strava credentials stop it with a message naming what is
 * missing; a bad or busy PORT is named before anything else starts; with no credentials and no
 * AUTH_TOKEN it serves the embedded sandbox behind a token kept in the config directory (never logged),
 * the same after a restart; an older Node gets a message naming the Node 24 to use; SIGINT stops it
 * cleanly.
 */
import { once } from "node:events";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { baseEnv, repositoryRoot, scratchDirectory, spawnMcpChild, type McpChild } from "./mcp-child.ts";

let child: McpChild | undefined;
afterEach(async () => {
  await child?.stop();
  child = undefined;
});

function startupFailure(running: McpChild): string {
  const line = running.stderrLines.find((text) => text.includes('"event":"startup_failed"'));
  if (line === undefined) throw new Error(`no startup_failed line:\n${running.stderrLines.join("\n")}`);
  return String((JSON.parse(line) as { message: string }).message);
}

describe("the MCP server start-up", () => {
  test("some but not all STRAVA_* variables: exits non-zero naming the missing ones", async () => {
    child = spawnMcpChild({ env: baseEnv({ PORT: "0", STRAVA_CLIENT_ID: "12345", AUTH_TOKEN: "irrelevant-token-value" }) });
    const code = await child.exited;
    expect(code).not.toBe(0);
    const failure = startupFailure(child);
    expect(failure).toContain("STRAVA_CLIENT_SECRET");
    expect(failure).toContain("STRAVA_REFRESH_TOKEN");
    expect(failure).not.toContain("STRAVA_CLIENT_ID is");
    expect(child.stderrLines.join("\n")).not.toContain("irrelevant-token-value");
    expect(child.stdout()).toBe("");
  });

  test("a token file that could not be written: exits non-zero naming FITNESS_TOKEN_FILE, before any refresh", async () => {
    const scratch = scratchDirectory();
    try {
      // A regular file where the token file's directory would have to be.
      const blocker = join(scratch.path, "not-a-directory");
      writeFileSync(blocker, "");
      child = spawnMcpChild({
        env: baseEnv({
          PORT: "0",
          AUTH_TOKEN: "irrelevant-token-value",
          STRAVA_CLIENT_ID: "1",
          STRAVA_CLIENT_SECRET: "s",
          STRAVA_REFRESH_TOKEN: "r",
          STRAVA_TOKEN_URL: "http://127.0.0.1:9/oauth/token",
          FITNESS_TOKEN_FILE: join(blocker, "tokens.json"),
        }),
      });
      expect(await child.exited).not.toBe(0);
      expect(startupFailure(child)).toBe(
        `Rotated Strava tokens could not be kept: ${blocker} is not a directory. Set FITNESS_TOKEN_FILE to a file this user may write ` +
          "(its directory is created 0700 if missing); the server refuses to start rather than spend a refresh token it could not keep.",
      );
    } finally {
      scratch.remove();
    }
  });

  test("an AUTH_TOKEN no client could send, or a short one beyond loopback, or none and nowhere to keep one, or none beyond loopback: exits non-zero naming AUTH_TOKEN, printing no token", async () => {
    const refusals: string[] = [];
    const scratch = scratchDirectory();
    try {
      const configFile = join(scratch.path, "config-is-a-file");
      writeFileSync(configFile, "");
      const cases: Record<string, string>[] = [
        { AUTH_TOKEN: "ünïcode-token-value-1234" },
        { AUTH_TOKEN: "shrt", HOST: "0.0.0.0" },
        { XDG_CONFIG_HOME: configFile },
        { HOST: "0.0.0.0", XDG_CONFIG_HOME: join(scratch.path, "config") },
      ];
      for (const env of cases) {
        const running = spawnMcpChild({ env: baseEnv({ PORT: "0", ...env }) });
        expect(await running.exited).not.toBe(0);
        refusals.push(startupFailure(running));
        expect(running.stderrLines.join("\n")).not.toMatch(/ünïcode|shrt"|auth_token":/);
      }
    } finally {
      scratch.remove();
    }
    expect(refusals[0]).toBe(
      "AUTH_TOKEN must be visible ASCII characters without spaces (what an HTTP header can carry), or no client could ever send it.",
    );
    expect(refusals[1]).toBe(
      "AUTH_TOKEN has 4 characters; bound to 0.0.0.0, beyond loopback, it is all that keeps others out: use at least 16 (for example the output of openssl rand -base64 32).",
    );
    expect(refusals[2]).toMatch(
      /^AUTH_TOKEN is not set and no token could be kept in .*config-is-a-file\/openclaw-fitness\/mcp-auth-token \(.*\)\. Set AUTH_TOKEN/,
    );
    expect(refusals[3]).toBe(
      "HOST=0.0.0.0 listens beyond loopback, where the bearer token is all that keeps others out: set AUTH_TOKEN to a token you made " +
        "and give it to your clients, for example AUTH_TOKEN=$(openssl rand -hex 32) npm start " +
        `(the token generated into ${join(scratch.path, "config")}/openclaw-fitness/mcp-auth-token serves loopback only).`,
    );
  });

  test("OAuth mode does not use AUTH_TOKEN, so a short one left in the environment does not stop it", async () => {
    child = spawnMcpChild({
      env: baseEnv({
        PORT: "0",
        HOST: "0.0.0.0",
        MCP_AUTH: "oauth",
        PUBLIC_URL: "https://fitness.example.com",
        MCP_ATHLETES: "48201735",
        AUTH_TOKEN: "shrt",
      }),
    });
    await child.waitForEvent("listening");
  });

  test("a token file at the default place that was not named leaves the server on the sandbox, and says so", async () => {
    const config = scratchDirectory();
    try {
      mkdirSync(join(config.path, "openclaw-fitness"), { recursive: true });
      writeFileSync(join(config.path, "openclaw-fitness", "strava-tokens.json"), "{}", { mode: 0o600 });
      child = spawnMcpChild({ env: baseEnv({ PORT: "0", XDG_CONFIG_HOME: config.path }) });
      expect((await child.waitForEvent("listening"))["upstream"]).toBe("sandbox");
      const said = await child.waitForEvent("token_file_not_used");
      expect(String(said["message"])).toContain("Set FITNESS_TOKEN_FILE to that path to serve its athlete.");
    } finally {
      config.remove();
    }
  });

  test("a bad PORT: exits non-zero naming PORT", async () => {
    child = spawnMcpChild({ env: baseEnv({ PORT: "eighty" }) });
    expect(await child.exited).not.toBe(0);
    expect(child.stderrLines.join("\n")).toMatch(/PORT must be a whole number/);
  });

  test("a busy PORT: exits non-zero naming PORT, before the sandbox or the token file is touched", async () => {
    const holder = createServer();
    await once(holder.listen(0, "127.0.0.1"), "listening");
    const busy = (holder.address() as { port: number }).port;
    const config = scratchDirectory();
    try {
      child = spawnMcpChild({ env: baseEnv({ PORT: String(busy), XDG_CONFIG_HOME: config.path }) });
      expect(await child.exited).toBe(1);
      const failure = startupFailure(child);
      expect(failure).toContain(`PORT ${busy} is already in use on 127.0.0.1`);
      expect(failure).toContain("PORT=0");
      const events = child.stderrLines.map((line) => (JSON.parse(line) as { event: string }).event);
      expect(events).not.toContain("upstream_sandbox");
      expect(events).not.toContain("auth_token_generated");
      expect(() => statSync(join(config.path, "openclaw-fitness", "mcp-auth-token"))).toThrow();
    } finally {
      holder.close();
      config.remove();
    }
  });

  test("no credentials and no AUTH_TOKEN: the sandbox behind a token kept in the config directory (0600, never logged), the same after a restart", async () => {
    const config = scratchDirectory();
    const tokenFile = join(config.path, "openclaw-fitness", "mcp-auth-token");
    try {
      child = spawnMcpChild({ env: baseEnv({ PORT: "0", XDG_CONFIG_HOME: config.path }) });
      const generated = await child.waitForEvent("auth_token_generated");
      expect(generated["file"]).toBe(tokenFile);
      expect(generated).not.toHaveProperty("auth_token");
      const token = readFileSync(tokenFile, "utf8").trim();
      expect(token.length).toBeGreaterThanOrEqual(32);
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      expect(statSync(join(config.path, "openclaw-fitness")).mode & 0o777).toBe(0o700);
      const listening = await child.waitForEvent("listening");
      expect(listening["upstream"]).toBe("sandbox");
      const notice = await child.waitForEvent("upstream_sandbox");
      expect(String(notice["message"])).toContain("NOT your Strava account");

      const base = `http://127.0.0.1:${Number(listening["port"])}`;
      const health = await fetch(`${base}/health`, { headers: { authorization: `Bearer ${token}` } });
      expect(await health.json()).toMatchObject({ status: "ok", upstream: "sandbox" });
      expect((await fetch(`${base}/health`, { headers: { authorization: "Bearer not-it" } })).status).toBe(401);

      const client = new Client({ name: "startup-e2e", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(String(listening["url"])), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      const athlete = (await client.callTool({ name: "get_athlete", arguments: {} })) as CallToolResult;
      expect(athlete.isError).toBeUndefined();
      await client.close();

      expect(await child.stop("SIGINT")).toBe(0);
      expect(child.stderrLines.filter((line) => line.includes(token))).toEqual([]);

      // Restarted: the same token, read from the file, so saved client configurations keep working.
      child = spawnMcpChild({ env: baseEnv({ PORT: "0", XDG_CONFIG_HOME: config.path }) });
      const loaded = await child.waitForEvent("auth_token_loaded");
      expect(loaded["file"]).toBe(tokenFile);
      const again = await child.waitForEvent("listening");
      const reused = await fetch(`http://127.0.0.1:${Number(again["port"])}/health`, { headers: { authorization: `Bearer ${token}` } });
      expect(reused.status).toBe(200);
      expect(await child.stop("SIGINT")).toBe(0);
      expect(child.stderrLines.filter((line) => line.includes(token))).toEqual([]);
    } finally {
      config.remove();
    }
  });

  test("--help and --version print to standard output and exit 0", () => {
    const version = (JSON.parse(readFileSync(join(repositoryRoot, "package.json"), "utf8")) as { version: string }).version;
    const run = (arg: string) =>
      execFileSync(process.execPath, ["mcp-adapter/start.mjs", arg], { cwd: repositoryRoot, env: baseEnv({}), encoding: "utf8" });
    expect(run("--version").trim()).toBe(version);
    expect(run("--help")).toContain("--stdio");
  });
});

describe("on a Node older than 24.11", () => {
  // The system's own Node, when it is an older one (this project's machines have Node 20 on PATH and
  // Node 24 from the node package in node_modules). Without an older Node there is nothing to run.
  const systemNode = spawnSync("/usr/bin/env", ["-i", "PATH=/usr/local/bin:/usr/bin:/bin", "node", "--version"], { encoding: "utf8" });
  const olderNode = systemNode.status === 0 && !/^v(2[4-9]|[3-9]\d)\./.test(systemNode.stdout.trim());
  test.skipIf(!olderNode)(
    `the launcher exits 1 with a message naming the Node 24 to use (system Node: ${systemNode.stdout.trim() || "none"})`,
    () => {
      const result = spawnSync("/usr/bin/env", ["-i", "PATH=/usr/local/bin:/usr/bin:/bin", "node", "mcp-adapter/start.mjs", "--stdio"], {
        cwd: repositoryRoot,
        encoding: "utf8",
      });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe("");
      const line = JSON.parse(result.stderr.trim()) as { event: string; message: string };
      expect(line.event).toBe("startup_failed");
      expect(line.message).toContain("needs Node 24.11 or newer");
      expect(line.message).toContain(join(repositoryRoot, "node_modules", "node", "bin", "node"));
    },
  );
  if (!olderNode)
    console.warn(
      `SKIPPED: no Node older than 24 on the system PATH (found: ${systemNode.stdout.trim() || "none"}), so the old-Node message is not exercised here.`,
    );
});
