/**
 * `npm run sandbox` (sandbox/cli.ts) as a user runs it: it prints where it listens with throwaway token files in
 * TMPDIR, and SIGTERM stops it cleanly; bad knobs are refused by name with exit code 2. That every printed line
 * works is checked in process (sandbox-banner.test.ts).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { join } from "node:path";
import { sandboxOptionsFromEnv } from "../../sandbox/options-from-env.ts";
import { scratchDirectory } from "../mcp-adapter/mcp-child.ts";

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
  test("prints where it listens, keeps its throwaway token files in TMPDIR, and SIGTERM shuts it down with exit code 0", async () => {
    const scratch = scratchDirectory();
    try {
      const child = startCli({ PORT: "0", HOST: "127.0.0.1", TMPDIR: scratch.path });
      const out = await collect(child, "Ctrl-C to stop.");
      expect(out).toMatch(/Strava sandbox listening on http:\/\/127\.0\.0\.1:\d+/);
      expect(out).toContain(`export FITNESS_TOKEN_FILE=${join(scratch.path, "sandbox-env-tokens.json")}`);
      expect(out).toContain(`--token-file ${join(scratch.path, "sandbox-tokens.json")}`);
      const done = exited(child);
      child.kill("SIGTERM");
      const result = await done;
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("SIGTERM, shutting down");
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
