/**
 * Starts the MCP server as a child process, the way `npm start` and MCP clients do (node running
 * mcp-adapter/start.mjs), with an environment built from scratch (so a developer's own STRAVA_* or
 * AUTH_TOKEN never leak in, and a generated bearer token is kept in a scratch config directory, never in
 * the developer's own), and keeps every standard error line for the assertions on logs and secrets.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import type { RunningSandbox } from "../../sandbox/server.ts";
import { clockEnv } from "../support/test-clock.ts";

export const repositoryRoot = resolve(import.meta.dirname, "../..");

/** This test process's config directory for its children (XDG_CONFIG_HOME), removed when it exits. */
const scratchConfigHome = mkdtempSync(join(tmpdir(), "mcp-config-"));
process.once("exit", () => rmSync(scratchConfigHome, { recursive: true, force: true }));

/**
 * What a child needs from the parent's environment to run at all, and the test's clock (clockEnv); nothing else
 * is passed on. Its rescue copies
 * of new tokens (credentials/rescue/rescue-directory.ts) stay in this test process's scratch directory: in the shared
 * default one, a copy left by one test file could meet another file's secret of the same name whose sandbox
 * (same seed) started from the same refresh token.
 */
export function baseEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {
    XDG_CONFIG_HOME: scratchConfigHome,
    FITNESS_TOKEN_RESCUE_DIR: join(scratchConfigHome, "token-rescue"),
    ...clockEnv(),
  };
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG", "NODE_OPTIONS"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}

/** The variables that make a server take `sandbox` for Strava, with an athlete's grant and its tokens kept in `tokenFile`. */
export function sandboxAsStravaEnv(sandbox: RunningSandbox, tokenFile: string): Record<string, string> {
  return {
    STRAVA_CLIENT_ID: sandbox.clientId,
    STRAVA_CLIENT_SECRET: sandbox.clientSecret,
    STRAVA_REFRESH_TOKEN: sandbox.refreshToken(),
    STRAVA_API_BASE: sandbox.apiBase,
    STRAVA_TOKEN_URL: sandbox.tokenUrl,
    FITNESS_TOKEN_FILE: tokenFile,
  };
}

/** The environment of a server on `sandbox` as if it were Strava: HTTP on a free port, tokens saved under `tokenDirectory`. */
export function sandboxEnv(sandbox: RunningSandbox, options: { authToken: string; tokenDirectory: string }): Record<string, string> {
  return baseEnv({ PORT: "0", AUTH_TOKEN: options.authToken, ...sandboxAsStravaEnv(sandbox, join(options.tokenDirectory, "tokens.json")) });
}

export interface McpChild {
  readonly process: ChildProcess;
  readonly stderrLines: string[];
  /** Every stdout chunk as received (stdio mode checks it; HTTP mode must leave it empty). */
  readonly stdout: () => string;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  readonly exited: Promise<number | string>;
  /** The first stderr line whose JSON `event` is `event` and that `matches` accepts (waits for it). */
  waitForEvent(event: string, timeoutMs?: number, matches?: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** SIGTERM (unless it already exited) and the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

export function spawnMcpChild(options: {
  env: Record<string, string>;
  args?: string[];
  stdin?: "pipe" | "ignore";
  /** Run the documented command itself, `npm start --silent -- ARGS`, instead of what it runs (node mcp-adapter/start.mjs ARGS). */
  viaNpm?: boolean;
  /** Node flags before the script (`node FLAGS mcp-adapter/start.mjs`; start.mjs keeps them when it re-executes itself). */
  nodeFlags?: string[];
}): McpChild {
  const args = options.args ?? [];
  const [file, argv] = options.viaNpm
    ? ["npm", ["start", "--silent", "--", ...args]]
    : [process.execPath, [...(options.nodeFlags ?? []), "mcp-adapter/start.mjs", ...args]];
  const child = spawn(file, argv, {
    cwd: repositoryRoot,
    env: options.env,
    stdio: [options.stdin ?? "ignore", "pipe", "pipe"],
  });
  const stderrLines: string[] = [];
  const listeners = new Set<() => void>();
  createInterface({ input: child.stderr! }).on("line", (line) => {
    stderrLines.push(line);
    for (const listener of listeners) listener();
  });
  let stdout = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")));

  const findEvent = (event: string, matches: (line: Record<string, unknown>) => boolean): Record<string, unknown> | undefined => {
    for (const line of stderrLines) {
      try {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        if (parsed["event"] === event && matches(parsed)) return parsed;
      } catch {
        // not a JSON line: the test on log format reports it
      }
    }
    return undefined;
  };

  return {
    process: child,
    stderrLines,
    stdout: () => stdout,
    exited,
    waitForEvent: (event, timeoutMs = 45_000, matches = () => true) =>
      new Promise((resolvePromise, reject) => {
        const found = findEvent(event, matches);
        if (found) return resolvePromise(found);
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no "${event}" log line within ${timeoutMs} ms; stderr so far:\n${stderrLines.join("\n")}`));
        }, timeoutMs);
        const check = (): void => {
          const line = findEvent(event, matches);
          if (!line) return;
          clearTimeout(timer);
          listeners.delete(check);
          resolvePromise(line);
        };
        listeners.add(check);
        void exited.then((code) => {
          if (!listeners.has(check)) return;
          clearTimeout(timer);
          listeners.delete(check);
          reject(new Error(`the server exited (${code}) before logging "${event}":\n${stderrLines.join("\n")}`));
        });
      }),
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** A temporary directory for token files, removed by the returned function. */
export function scratchDirectory(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), "mcp-test-"));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
