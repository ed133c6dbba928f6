/**
 * `npm run hosted` as a person runs it with nothing configured: the hosted function's own handler and routes
 * (OAuth mode) behind the local stand-in for its function URL, with the built-in sandbox playing Strava and
 * its state on local files in a scratch directory. It says so before it says it is ready, an MCP client signs
 * in and calls a tool, and SIGTERM to npm stops it and removes the scratch state. A busy PORT is one line.
 */
import { existsSync, readdirSync } from "node:fs";
import { once } from "node:events";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { afterAll, describe, expect, test } from "vitest";
import { baseEnv } from "../mcp-adapter/mcp-child.ts";
import { connectWithOAuth, resultText } from "../support/oauth-session.ts";
import { RecordingOAuthProvider } from "../support/sdk-oauth-provider.ts";
import { runNpm, type NpmRun } from "../support/npm-run.ts";

const running: NpmRun[] = [];

afterAll(async () => {
  await Promise.all(running.map((run) => run.stop()));
});

/** The JSON log lines of a run's standard error, in order. */
function logLines(run: NpmRun): Record<string, unknown>[] {
  return run
    .stderr()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("npm run hosted with nothing configured", () => {
  test(
    "serves the hosted handler on the built-in sandbox with scratch local state, says so at start, and stops with npm",
    { timeout: 90_000 },
    async () => {
      const hosted = runNpm(["run", "hosted"], baseEnv({ PORT: "0" }));
      running.push(hosted);
      await hosted.waitFor(/"event":"local_function_url"[^\n]*\n/);
      const lines = logLines(hosted);
      const ready = lines.findIndex((line) => line["event"] === "local_function_url");
      const sandboxLine = lines.findIndex((line) => line["event"] === "upstream_sandbox");
      expect(sandboxLine).toBeGreaterThanOrEqual(0);
      expect(sandboxLine).toBeLessThan(ready);
      expect(lines[sandboxLine]).toMatchObject({
        level: "warn",
        message: expect.stringContaining("built-in SANDBOX, simulated athletes with made-up activities, NOT Strava"),
      });
      const local = lines[ready] as { url: string; mcp: string; upstream: string; state: string };
      expect(local.upstream).toBe("sandbox");
      const stateDirectory = /^local files in (\S+) \(removed when it stops\)$/.exec(local.state)?.[1];
      expect(stateDirectory?.startsWith(tmpdir())).toBe(true);
      expect(existsSync(stateDirectory!)).toBe(true);

      const health = (await (await fetch(`${local.url}/health`)).json()) as Record<string, unknown>;
      expect(health).toMatchObject({ status: "ok", auth: "oauth", upstream: "sandbox", issuer: local.url });
      // Until someone signs in, the command that frees the ownership is the one that acts on this run's own state.
      const unclaimed = logLines(hosted).find((line) => line["event"] === "owner_unclaimed");
      expect(String(unclaimed?.["message"])).toContain(`until \`FITNESS_OAUTH_DIR=${stateDirectory} npm run oauth-admin -- reset-owner\``);
      const provider = new RecordingOAuthProvider();
      const client = await connectWithOAuth(local.mcp, provider);
      if (!client) throw new Error(`sign-in failed: ${JSON.stringify(provider.outcome).slice(0, 1500)}\n${hosted.stderr()}`);
      expect(resultText(await client.callTool({ name: "get_athlete", arguments: {} }))).toContain('"firstname":"Maya"');
      await client.close();
      expect(readdirSync(stateDirectory!).length).toBeGreaterThan(0);

      expect(await hosted.stop("SIGTERM"), hosted.stderr()).toBe(0);
      expect(existsSync(stateDirectory!), hosted.stderr()).toBe(false);
      expect(hosted.stderr()).not.toMatch(/^\s+at /m);
    },
  );

  test("--bundle (the deployed build, which leaves the sandbox out) with no Strava application is refused with what to set", async () => {
    const hosted = runNpm(["run", "hosted", "--", "--bundle", "dist/hosted/mcp/lambda-handler.mjs"], baseEnv({ PORT: "0" }));
    running.push(hosted);
    expect(await hosted.exited).toBe(1);
    expect(hosted.stderr()).toContain(
      "The bundle leaves the built-in sandbox out (a deployment always talks to Strava): with --bundle, set FITNESS_SECRET_NAME",
    );
  });

  test("a busy PORT is one line naming it, exit code 1, no stack trace", async () => {
    const holder = createServer();
    await once(holder.listen(0, "127.0.0.1"), "listening");
    const port = (holder.address() as { port: number }).port;
    try {
      const hosted = runNpm(["run", "hosted"], baseEnv({ PORT: String(port) }));
      running.push(hosted);
      expect(await hosted.exited).toBe(1);
      const lines = hosted
        .stderr()
        .split("\n")
        .filter((line) => line.trim() !== "");
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        level: "error",
        event: "startup_failed",
        message: `PORT ${port} is already in use on 127.0.0.1: another process (perhaps another copy of this server) listens there. Stop it, or set PORT to a free port (PORT=0 picks one and logs it).`,
      });
    } finally {
      holder.close();
    }
  });
});
