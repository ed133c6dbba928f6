/**
 * `npm run bench:startup`: how long an MCP client that starts the server itself (Claude Desktop, Claude
 * Code, Cursor) waits, from spawning it to the answer to its first tools/list, over stdio. The MCP server's bin
 * side by side with a peer Strava MCP server from npm (@r-huijts/strava-mcp-server, installed on first
 * use into .cache/bench-peer, which git ignores; not a dependency of this project), both started with
 * the same `node` (this process's, the pinned Node 24), in one run, taking turns.
 *
 * Each start writes `initialize`, `notifications/initialized` and `tools/list` at once, as clients do,
 * and the clock stops at the tools/list answer (checked: 11 tools for the MCP server). Both get Strava
 * credentials in the environment (made up: neither touches the network before the first tool call).
 * The MCP server is also started without credentials (it then starts its embedded sandbox), and through
 * `npm start --silent -- --stdio`, the command older client configurations run. Two warm-up starts of
 * each are not counted (the first start after a build fills Node's compile cache). Beside the wall time it
 * reports the CPU time each start had used by the answer (its threads' time on a core, from /proc), for the
 * cases that start node itself: on a shared machine that moves less than wall time, which also counts the
 * time a start waited for a core.
 *
 * Options: --rounds N (default 15), --before REV (also the MCP server of another revision, built once into
 * .cache/; repeatable), --json FILE.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { cpuTimeMs } from "./child-process.ts";
import { mcpServerOfRevision } from "./tree-of-revision.ts";

const root = resolve(import.meta.dirname, "..");
const { values: flags } = parseArgs({
  options: { rounds: { type: "string", default: "15" }, before: { type: "string", multiple: true }, json: { type: "string" } },
});
const rounds = Number(flags.rounds);
const peerPackage = "@r-huijts/strava-mcp-server@1.2.1";
const peerDirectory = join(root, ".cache", "bench-peer");
const peerEntry = join(peerDirectory, "node_modules", "@r-huijts", "strava-mcp-server", "dist", "server.js");

if (!existsSync(peerEntry)) {
  console.log(`installing ${peerPackage} into ${peerDirectory} (once; git-ignored)`);
  mkdirSync(peerDirectory, { recursive: true });
  if (!existsSync(join(peerDirectory, "package.json")))
    writeFileSync(join(peerDirectory, "package.json"), '{ "name": "bench-peer", "private": true }\n');
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", peerPackage], { cwd: peerDirectory, stdio: "inherit" });
}

const scratch = mkdtempSync(join(tmpdir(), "stdio-startup-"));
const credentials = {
  STRAVA_CLIENT_ID: "12345",
  STRAVA_CLIENT_SECRET: "made-up-client-secret",
  STRAVA_REFRESH_TOKEN: "made-up-refresh-token",
  STRAVA_ACCESS_TOKEN: "made-up-access-token",
};
const baseEnv = {
  PATH: process.env["PATH"] ?? "",
  HOME: scratch,
  XDG_CONFIG_HOME: scratch,
  FITNESS_TOKEN_FILE: join(scratch, "tokens.json"),
};

interface Case {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  expectTools?: number;
}

const cases: Case[] = [
  {
    name: "the MCP server bin: node mcp-adapter/start.mjs --stdio (Strava credentials)",
    command: process.execPath,
    args: [join(root, "mcp-adapter/start.mjs"), "--stdio"],
    env: { ...baseEnv, ...credentials },
    expectTools: 11,
  },
  ...(flags.before ?? []).map((revision) => ({
    name: `the MCP server of ${revision}, the same way`,
    command: process.execPath,
    args: [mcpServerOfRevision(revision), "--stdio"],
    env: { ...baseEnv, ...credentials },
    expectTools: 11,
  })),
  {
    name: "peer: node @r-huijts/strava-mcp-server (Strava credentials)",
    command: process.execPath,
    args: [peerEntry],
    env: { ...baseEnv, ...credentials },
  },
  {
    name: "the MCP server bin, no credentials (starts the embedded sandbox)",
    command: process.execPath,
    args: [join(root, "mcp-adapter/start.mjs"), "--stdio"],
    env: baseEnv,
    expectTools: 11,
  },
  {
    name: "the MCP server through npm start --silent -- --stdio (older configs)",
    command: "npm",
    args: ["--prefix", root, "start", "--silent", "--", "--stdio"],
    env: { ...baseEnv, ...credentials },
    expectTools: 11,
  },
];

interface Start {
  /** Spawn to the tools/list answer. */
  wallMs: number;
  /** CPU time used by then (the process's threads), for a case that starts node itself. */
  cpuMs?: number;
}

function startOnce(entry: Case): Promise<Start> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    // A process group of its own, so npm and the node it starts are stopped together.
    const child = spawn(entry.command, entry.args, { env: entry.env, stdio: ["pipe", "pipe", "pipe"], detached: true });
    const stop = (signal: NodeJS.Signals): void => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
    };
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      stop("SIGKILL");
      reject(new Error(`${entry.name}: no tools/list answer within 30 s\n${stderr}`));
    }, 30_000);
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      for (const line of stdout.split("\n")) {
        if (!line.includes('"id":2')) continue;
        const elapsed = performance.now() - started;
        const cpu = entry.command === process.execPath ? cpuTimeMs(child.pid!) : undefined;
        clearTimeout(timer);
        const tools = (JSON.parse(line) as { result?: { tools?: unknown[] } }).result?.tools?.length;
        stop("SIGTERM");
        if (entry.expectTools !== undefined && tools !== entry.expectTools)
          reject(new Error(`${entry.name}: ${tools} tools listed\n${line.slice(0, 300)}`));
        else resolvePromise({ wallMs: elapsed, ...(cpu === undefined ? {} : { cpuMs: cpu }) });
        return;
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      // After an answer this rejection is ignored (a promise settles once).
      reject(new Error(`${entry.name} exited (${code}) before answering tools/list:\n${stderr}`));
    });
    const send = (message: unknown): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "startup-bench", version: "1" } },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  }).finally(() => new Promise((done) => setTimeout(done, 50))) as Promise<Start>;
}

const machine = {
  nproc: cpus().length,
  cpu: cpus()[0]?.model ?? "unknown",
  node: process.version,
  loadAverageAtStart: loadavg().map((n) => Number(n.toFixed(2))),
  rounds,
  date: new Date().toISOString(),
};
console.log(
  `machine: ${machine.nproc} CPUs, ${machine.cpu}, Node ${machine.node}, load average ${machine.loadAverageAtStart.join(" ")}; ${rounds} rounds, cases taking turns`,
);

const times = new Map<string, number[]>(cases.map((entry) => [entry.name, []]));
const cpuTimes = new Map<string, number[]>(cases.map((entry) => [entry.name, []]));
try {
  for (let warmUp = 0; warmUp < 2; warmUp++) for (const entry of cases) await startOnce(entry);
  for (let round = 0; round < rounds; round++) {
    for (const entry of cases) {
      const start = await startOnce(entry);
      times.get(entry.name)!.push(start.wallMs);
      if (start.cpuMs !== undefined) cpuTimes.get(entry.name)!.push(start.cpuMs);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const percentile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
const report: Record<string, unknown> = { machine, loadAverageAtEnd: loadavg().map((n) => Number(n.toFixed(2))) };
const medians: Record<string, number> = {};
console.log("\nspawn to the tools/list answer over stdio, ms: min / median / p90 / max");
for (const entry of cases) {
  const sorted = [...times.get(entry.name)!].sort((a, b) => a - b);
  medians[entry.name] = percentile(sorted, 0.5);
  report[entry.name] = {
    min: sorted[0],
    median: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    max: sorted.at(-1),
    runs: sorted.map((time) => Math.round(time)),
  };
  console.log(
    `  ${entry.name.padEnd(66)} ${sorted[0]!.toFixed(0).padStart(5)} / ${percentile(sorted, 0.5).toFixed(0).padStart(5)} / ${percentile(sorted, 0.9).toFixed(0).padStart(5)} / ${sorted.at(-1)!.toFixed(0).padStart(5)}`,
  );
}
console.log("\nCPU time used by the tools/list answer (the process's threads), ms: min / median / p90 / max");
const cpuMedians: Record<string, number> = {};
for (const entry of cases) {
  const sorted = [...cpuTimes.get(entry.name)!].sort((a, b) => a - b);
  if (sorted.length === 0) continue;
  cpuMedians[entry.name] = percentile(sorted, 0.5);
  (report[entry.name] as Record<string, unknown>)["cpu"] = {
    min: sorted[0],
    median: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    max: sorted.at(-1),
    runs: sorted.map((time) => Math.round(time)),
  };
  console.log(
    `  ${entry.name.padEnd(66)} ${sorted[0]!.toFixed(0).padStart(5)} / ${percentile(sorted, 0.5).toFixed(0).padStart(5)} / ${percentile(sorted, 0.9).toFixed(0).padStart(5)} / ${sorted.at(-1)!.toFixed(0).padStart(5)}`,
  );
}
const peerName = cases.find((entry) => entry.name.startsWith("peer:"))!.name;
const ratio = (name: string, of: Record<string, number>): string => `${((of[name]! / of[peerName]!) * 100).toFixed(0)}%`;
console.log(
  `\nthe MCP server's median is ${ratio(cases[0]!.name, medians)} of the peer's (target: at most 50%); CPU time ${ratio(cases[0]!.name, cpuMedians)}`,
);
for (const revision of flags.before ?? []) {
  const name = `the MCP server of ${revision}, the same way`;
  console.log(`the MCP server of ${revision}: ${ratio(name, medians)} of the peer's; CPU time ${ratio(name, cpuMedians)}`);
}
console.log(
  `load average at end: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
if (flags.json) writeFileSync(flags.json, `${JSON.stringify(report, null, 2)}\n`);
