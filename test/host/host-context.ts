/**
 * A scratch OpenClaw installation for host checks: its own HOME, state directory and config file,
 * the openclaw CLI run with Node 24, and a gateway on loopback. Every check module gets one through
 * `withHost`; nothing outside the scratch folder is written (the gateway log included), and every
 * process started here is stopped when the body ends.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { freePort } from "../support/free-port.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InstalledHost } from "./host-install.ts";

export interface CommandResult {
  command: string;
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface RunningGateway {
  url: string;
  port: number;
  /** The gateway's process id (its environment is in /proc/<pid>/environ). */
  pid: number | undefined;
  /** The gateway's bearer token (for CLI commands that take --token). */
  token: string;
  /** POST /tools/invoke with the gateway's bearer token. */
  invoke(tool: string, args: Record<string, unknown>, agentId?: string): Promise<{ status: number; body: InvokeBody }>;
  /**
   * A gateway RPC through `openclaw gateway call <method> --json` (for example `tools.catalog` with
   * `{agentId}`, or `tools.effective` with `{sessionKey}`); returns the parsed answer.
   */
  call(method: string, params?: Record<string, unknown>): Promise<unknown>;
  /** The gateway's console output so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

export type InvokeBody = {
  ok: boolean;
  result?: { content?: Array<{ type: string; text: string }>; details?: Record<string, unknown>; isError?: boolean };
  /** `requiresApproval`: the call was held for a plugin approval that was not given. */
  error?: { type: string; message: string; requiresApproval?: boolean };
};

export interface HostContext {
  readonly host: InstalledHost;
  readonly dir: string;
  readonly home: string;
  readonly stateDir: string;
  readonly configPath: string;
  readonly workspaceDir: string;
  /** Environment of every host process (scratch HOME/state/config, Node 24 first on PATH, the upstream and AWS endpoints). */
  readonly env: NodeJS.ProcessEnv;
  /** The smallest config a headless host accepts, plus `logging.file` inside the scratch folder. */
  baseConfig(): Record<string, unknown>;
  writeConfig(config: Record<string, unknown>, path?: string): Promise<void>;
  readConfig(path?: string): Promise<Record<string, unknown>>;
  /** Runs `openclaw <args>`; never throws for a non-zero exit (check `code`). */
  run(args: string[], options?: { timeoutMs?: number; env?: NodeJS.ProcessEnv }): Promise<CommandResult>;
  /** Runs `openclaw <args>` and parses its standard output as JSON (throws with the output when it is not). */
  runJson<T>(args: string[], options?: { timeoutMs?: number; env?: NodeJS.ProcessEnv }): Promise<{ result: CommandResult; json: T }>;
  /** Starts `openclaw gateway run` on loopback; `env` adds to (or overrides) the host environment for the gateway only. */
  startGateway(options?: { readyTimeoutMs?: number; env?: NodeJS.ProcessEnv }): Promise<RunningGateway>;
}

export interface HostOptions {
  host: InstalledHost;
  /** Extra environment for the host processes (upstream addresses, AWS endpoint and test credentials). */
  env: Record<string, string>;
  /** Keep the scratch folder afterwards (for debugging). */
  keep?: boolean;
  /**
   * Use this folder (created when missing) instead of a new temporary one, and keep it afterwards:
   * a host prepared in one phase (a plugin installed with the network) is checked in the next.
   */
  dir?: string;
}

/** Variables that must not leak from the caller into the scratch host. */
const dropped = /^(AWS_|OPENCLAW_|STRAVA_|FITNESS_|npm_|NODE_OPTIONS$|NODE_ENV$)/;

export async function withHost<T>(options: HostOptions, body: (context: HostContext) => Promise<T>): Promise<T> {
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), "openclaw-host-check-")));
  const home = join(dir, "home");
  const stateDir = join(dir, "state");
  const workspaceDir = join(dir, "workspace");
  const configPath = join(dir, "openclaw.json");
  const temporaryDir = join(dir, "tmp");
  await Promise.all([home, stateDir, workspaceDir, temporaryDir].map((path) => mkdir(path, { recursive: true })));
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !dropped.test(name)));
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    PATH: options.host.path,
    HOME: home,
    OPENCLAW_STATE_DIR: stateDir,
    OPENCLAW_CONFIG_PATH: configPath,
    // The host also keeps state locks (and, without logging.file, logs) under the temporary folder.
    TMPDIR: temporaryDir,
    NO_COLOR: "1",
    FORCE_COLOR: "0",
    ...options.env,
  };
  const children = new Set<ChildProcess>();

  const run = (args: string[], runOptions: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<CommandResult> =>
    new Promise((resolve) => {
      const started = performance.now();
      const child = spawn(options.host.node, [options.host.openclawEntry, ...args], {
        cwd: dir,
        env: { ...env, ...runOptions.env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.add(child);
      let stdout = "";
      let stderr = "";
      child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const timeoutMs = runOptions.timeoutMs ?? 240_000;
      const timer = setTimeout(() => {
        stderr += `\n[killed after ${timeoutMs / 1000} s]`;
        child.kill("SIGKILL");
      }, timeoutMs);
      child.on("error", (error) => (stderr += `\n[could not start: ${error.message}]`));
      child.on("close", (code) => {
        clearTimeout(timer);
        children.delete(child);
        resolve({ command: `openclaw ${args.join(" ")}`, code, stdout, stderr, ms: performance.now() - started });
      });
    });

  const context: HostContext = {
    host: options.host,
    dir,
    home,
    stateDir,
    configPath,
    workspaceDir,
    env,
    baseConfig: () => ({
      gateway: { mode: "local" },
      tools: { toolSearch: false },
      logging: { file: join(dir, "openclaw.log") },
      agents: { defaults: { workspace: workspaceDir } },
    }),
    writeConfig: (config, path = configPath) => writeFile(path, `${JSON.stringify(config, null, 2)}\n`),
    readConfig: async (path = configPath) => JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>,
    run,
    async runJson<T>(args: string[], runOptions?: { timeoutMs?: number; env?: NodeJS.ProcessEnv }) {
      const result = await run(args, runOptions);
      try {
        return { result, json: JSON.parse(result.stdout) as T };
      } catch {
        throw new Error(
          `${result.command} exited ${result.code} without JSON on standard output:\n${tail(result.stdout)}\n${tail(result.stderr)}`,
        );
      }
    },
    startGateway: (gatewayOptions = {}) =>
      startGateway(options.host, { ...env, ...gatewayOptions.env }, dir, children, gatewayOptions.readyTimeoutMs ?? 240_000, context),
  };

  try {
    return await body(context);
  } finally {
    await Promise.all([...children].map((child) => stopProcess(child)));
    if (!options.keep && !options.dir) await rm(dir, { recursive: true, force: true });
  }
}

async function startGateway(
  host: InstalledHost,
  env: NodeJS.ProcessEnv,
  dir: string,
  children: Set<ChildProcess>,
  readyTimeoutMs: number,
  context: HostContext,
): Promise<RunningGateway> {
  const port = await freePort();
  const token = randomBytes(24).toString("hex");
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    host.node,
    [host.openclawEntry, "gateway", "run", "--port", String(port), "--bind", "loopback", "--auth", "token", "--token", token],
    {
      cwd: dir,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.add(child);
  let output = "";
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  child.on("close", () => children.delete(child));

  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the gateway exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${tail(output)}`);
    }
    try {
      // Not /healthz: the gateway answers it before "starting channels and sidecars", work that then
      // blocks its event loop for tens of seconds; a tool call in flight meanwhile can time out.
      const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stopProcess(child);
      throw new Error(`the gateway was not ready (${url}/readyz) within ${readyTimeoutMs / 1000} s:\n${tail(output)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }

  return {
    url,
    port,
    pid: child.pid,
    token,
    async invoke(tool, args, agentId) {
      let response: Response;
      for (let attempt = 0; ; attempt++) {
        response = await fetch(`${url}/tools/invoke`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ tool, args, ...(agentId ? { agentId } : {}) }),
          signal: AbortSignal.timeout(180_000),
        });
        // 503 while the gateway finishes starting: wait and ask again.
        if (response.status !== 503 || attempt >= 60) break;
        await response.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      const text = await response.text();
      let body: InvokeBody;
      try {
        body = JSON.parse(text) as InvokeBody;
      } catch {
        body = { ok: false, error: { type: "not_json", message: text.slice(0, 500) } };
      }
      return { status: response.status, body };
    },
    async call(method, params = {}) {
      const { json } = await context.runJson<{ ok?: boolean; error?: unknown }>([
        "gateway",
        "call",
        method,
        "--params",
        JSON.stringify(params),
        "--port",
        String(port),
        "--token",
        token,
        "--timeout",
        "120000",
        "--json",
      ]);
      if (json.ok === false) throw new Error(`gateway call ${method} failed: ${JSON.stringify(json.error)}`);
      return json;
    },
    output: () => output,
    async stop() {
      await stopProcess(child);
      // Kept for --keep runs: the gateway's console, with the plugin's log lines.
      await writeFile(join(dir, `gateway-${port}.log`), output);
    },
  };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const closed = new Promise((resolve) => child.once("close", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  await closed;
  clearTimeout(timer);
}

export function tail(text: string, lines = 25): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}
