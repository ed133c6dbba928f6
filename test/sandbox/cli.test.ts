/**
 * `npm run sandbox` (sandbox/cli.ts) as a user runs it: it prints a base URL and working credentials
 * with the export lines, they work, and SIGTERM stops it cleanly; bad knobs are refused by name.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { sandboxOptionsFromEnv } from "../../sandbox/options-from-env.ts";
import { baseEnv, scratchDirectory, spawnMcpChild } from "../mcp-adapter/mcp-child.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const children: ChildProcessWithoutNullStreams[] = [];

function startCli(env: Record<string, string>): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, ["--import", "tsx", "sandbox/cli.ts"], { cwd: repoRoot, env: { ...process.env, ...env } });
  children.push(child);
  return child;
}

function collect(child: ChildProcessWithoutNullStreams, until: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(until)) resolvePromise(out);
    });
    child.on("exit", (code) => reject(new Error(`sandbox CLI exited with ${code} before printing "${until}": ${out}`)));
  });
}

function exited(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise) => {
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("exit", (code) => resolvePromise({ code, stdout, stderr }));
  });
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

describe("npm run sandbox", () => {
  test("prints the base URL, credentials and export lines that work; SIGTERM shuts it down with exit code 0", async () => {
    const child = startCli({ PORT: "0", HOST: "127.0.0.1" });
    const out = await collect(child, "Ctrl-C to stop.");
    const exports = Object.fromEntries([...out.matchAll(/export ((?:STRAVA|FITNESS)_[A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
    expect(Object.keys(exports).sort()).toEqual([
      "FITNESS_TOKEN_FILE",
      "STRAVA_API_BASE",
      "STRAVA_CLIENT_ID",
      "STRAVA_CLIENT_SECRET",
      "STRAVA_REFRESH_TOKEN",
      "STRAVA_TOKEN_URL",
    ]);
    expect(out).toMatch(/Strava sandbox listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(out).toContain("Maya Lindgren");
    const token = await fetch(exports["STRAVA_TOKEN_URL"]!, {
      method: "POST",
      body: new URLSearchParams({
        client_id: exports["STRAVA_CLIENT_ID"]!,
        client_secret: exports["STRAVA_CLIENT_SECRET"]!,
        grant_type: "refresh_token",
        refresh_token: exports["STRAVA_REFRESH_TOKEN"]!,
      }),
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const athlete = await fetch(`${exports["STRAVA_API_BASE"]}/athlete`, { headers: { Authorization: `Bearer ${access_token}` } });
    expect(athlete.status).toBe(200);
    const done = exited(child);
    child.kill("SIGTERM");
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("SIGTERM, shutting down");
  });

  test("prints the intervals.icu face's address and key as export lines that work", async () => {
    const child = startCli({ PORT: "0", HOST: "127.0.0.1" });
    const out = await collect(child, "Ctrl-C to stop.");
    const exports = Object.fromEntries([...out.matchAll(/export (INTERVALS_[A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
    expect(Object.keys(exports).sort()).toEqual(["INTERVALS_API_BASE", "INTERVALS_API_KEY"]);
    const authorization = `Basic ${Buffer.from(`API_KEY:${exports["INTERVALS_API_KEY"]}`).toString("base64")}`;
    const athlete = await fetch(`${exports["INTERVALS_API_BASE"]}/athlete/0`, { headers: { Authorization: authorization } });
    expect(athlete.status).toBe(200);
    expect(((await athlete.json()) as { firstname: string }).firstname).toBe("Maya");
    expect(out).toContain(`curl -u API_KEY:${exports["INTERVALS_API_KEY"]} ${exports["INTERVALS_API_BASE"]}/athlete/0`);
  });

  test("the export lines keep the server's tokens in a scratch file, never in the default token file of a real account", async () => {
    const scratch = scratchDirectory();
    try {
      const child = startCli({ PORT: "0", HOST: "127.0.0.1", TMPDIR: scratch.path });
      const out = await collect(child, "Ctrl-C to stop.");
      // The Strava block, as a person copies it (the intervals.icu block is the other log: a server serves one).
      const stravaBlock = out.slice(
        out.indexOf("Point the tools at it as Strava"),
        out.indexOf("\n\n", out.indexOf("Point the tools at it as Strava")),
      );
      const exportLines = [...stravaBlock.matchAll(/^ {2}(export \S+=\S+)$/gm)].map((m) => m[1]!);
      expect(exportLines).toContain(`export FITNESS_TOKEN_FILE=${join(scratch.path, "sandbox-env-tokens.json")}`);
      // A person's shell: a home of its own, the printed lines, then npm start's server and one call.
      const home = join(scratch.path, "home");
      const env = baseEnv({ HOME: home, PORT: "0", AUTH_TOKEN: "sandbox-export-lines-token" });
      delete env["XDG_CONFIG_HOME"];
      for (const line of exportLines) {
        const [name, value] = line.slice("export ".length).split(/=(.*)/s) as [string, string];
        env[name] = value;
      }
      const server = spawnMcpChild({ env });
      try {
        const listening = await server.waitForEvent("listening");
        const call = await fetch(String(listening["url"]), {
          method: "POST",
          headers: {
            authorization: "Bearer sandbox-export-lines-token",
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_athlete", arguments: {} } }),
        });
        expect(await call.text()).toContain("Lindgren");
      } finally {
        await server.stop();
      }
      expect(existsSync(join(scratch.path, "sandbox-env-tokens.json"))).toBe(true);
      expect(existsSync(join(home, ".config/openclaw-fitness/strava-tokens.json"))).toBe(false);
    } finally {
      scratch.remove();
    }
  });

  test("a bad knob stops it with exit code 2 and a message naming the variable", async () => {
    const result = await exited(startCli({ PORT: "0", SANDBOX_RATE_LIMITS: "lots" }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("SANDBOX_RATE_LIMITS must be four whole numbers");
  });
});

describe("sandboxOptionsFromEnv", () => {
  test("reads every knob", () => {
    expect(
      sandboxOptionsFromEnv({
        PORT: "9100",
        HOST: "0.0.0.0",
        SANDBOX_TOKEN_LIFETIME_SECONDS: "600",
        SANDBOX_UPLOAD_PROCESSING_MS: "50",
        SANDBOX_RATE_LIMITS: "10,100,5,50",
        SANDBOX_ROTATE_REFRESH_TOKENS: "false",
        SANDBOX_SCOPES: "read,activity:read",
        SANDBOX_SEED: "42",
      }),
    ).toEqual({
      host: "0.0.0.0",
      port: 9100,
      tokenLifetimeSeconds: 600,
      uploadProcessingMs: 50,
      rateLimits: { overall: [10, 100], read: [5, 50] },
      rotateRefreshTokens: false,
      grantedScopes: ["read", "activity:read"],
      seed: 42,
    });
    expect(sandboxOptionsFromEnv({})).toEqual({ host: "127.0.0.1", port: 8900 });
  });

  test("names the variable and a good value when one is wrong", () => {
    expect(() => sandboxOptionsFromEnv({ PORT: "eighty" })).toThrow(/PORT must be a whole number from 0 to 65535/);
    expect(() => sandboxOptionsFromEnv({ SANDBOX_SCOPES: "read,admin" })).toThrow(/unknown scope\(s\) admin/);
    expect(() => sandboxOptionsFromEnv({ SANDBOX_ROTATE_REFRESH_TOKENS: "yes" })).toThrow(/true or false/);
    expect(() => sandboxOptionsFromEnv({ SANDBOX_TOKEN_LIFETIME_SECONDS: "0" })).toThrow(/SANDBOX_TOKEN_LIFETIME_SECONDS/);
  });
});
