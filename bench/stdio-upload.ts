/**
 * `npm run bench:stdio-upload -- TREE...`: what one large create_upload costs over stdio, where a client
 * such as Claude Desktop sends the whole base64 file as one line of standard input. Each TREE is a checkout
 * with node_modules (this one is "."); its bin (`node TREE/mcp-adapter/start.mjs --stdio`, no Strava
 * credentials, so the embedded sandbox answers) gets `initialize`, then a create_upload of a 25 MB file
 * (about 35 MB of base64, written in 64 KiB pieces as a pipe delivers it), then a ping.
 *
 * Reported per tree, median of `--rounds` (default 5), the trees taking turns: the time from the first byte
 * of the upload's line to its answer, the server's CPU time (user + system, from /proc/PID/stat) at that
 * moment, and its peak resident memory (VmHWM). The figures include the server's start, the same for all.
 *
 * Options: --rounds N, --json FILE.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: "string", default: "5" }, json: { type: "string" } },
});
if (positionals.length === 0) throw new Error("Name at least one tree: npm run bench:stdio-upload -- . ../an-earlier-checkout");
const trees = positionals.map((tree) => resolve(tree));
const rounds = Number(flags.rounds);
const clockTicks = 100; // USER_HZ on Linux

const upload = JSON.stringify({
  jsonrpc: "2.0",
  id: 2,
  method: "tools/call",
  params: {
    name: "create_upload",
    arguments: { file: randomBytes(25 * 1_048_576).toString("base64"), data_type: "fit", external_id: "bench.fit" },
  },
});

interface Sample {
  ms: number;
  cpuMs: number;
  peakMiB: number;
}

function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}

function peakMiBOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmHWM:\s+(\d+) kB$/m);
  return Number(line?.[1] ?? 0) / 1024;
}

async function once(tree: string): Promise<Sample> {
  const child = spawn(process.execPath, [join(tree, "mcp-adapter/start.mjs"), "--stdio"], {
    env: { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? "/tmp", FITNESS_TOKEN_RESCUE_DIR: "off" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const answered = new Map<number, number>();
  const waiters = new Map<number, () => void>();
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
    let newline: number;
    while ((newline = stdout.indexOf("\n")) !== -1) {
      const id = (JSON.parse(stdout.slice(0, newline)) as { id?: number }).id;
      stdout = stdout.slice(newline + 1);
      if (typeof id === "number") {
        answered.set(id, performance.now());
        waiters.get(id)?.();
      }
    }
  });
  const answer = (id: number): Promise<void> =>
    new Promise((done, fail) => {
      if (answered.has(id)) return done();
      waiters.set(id, done);
      child.once("exit", (code) => fail(new Error(`the server exited (${code}) before answering ${id}:\n${stderr}`)));
    });
  const write = (text: string): Promise<void> =>
    new Promise((done) => (child.stdin.write(text) ? done() : child.stdin.once("drain", () => done())));
  try {
    await write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } } })}\n`,
    );
    await answer(1);
    await write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    const started = performance.now();
    for (let offset = 0; offset < upload.length; offset += 65_536) await write(upload.slice(offset, offset + 65_536));
    await write("\n");
    await answer(2);
    const sample = { ms: answered.get(2)! - started, cpuMs: cpuMsOf(child.pid!), peakMiB: peakMiBOf(child.pid!) };
    await write(`${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" })}\n`);
    await answer(3);
    return sample;
  } finally {
    child.stdin.end();
    await new Promise((done) => (child.exitCode !== null ? done(undefined) : child.once("exit", done)));
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
console.log(
  `machine: ${cpus().length} CPUs, ${cpus()[0]?.model ?? "unknown"}, Node ${process.version}, load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
const samples = new Map<string, Sample[]>(trees.map((tree) => [tree, []]));
await once(trees[0]!); // warm-up: builds a stale dist, fills the compile cache
for (let round = 0; round < rounds; round++) for (const tree of trees) samples.get(tree)!.push(await once(tree));

console.log(`\na 25 MB create_upload over stdio, medians of ${rounds}: upload line to its answer / server CPU / peak RSS`);
const report: Record<string, unknown> = { loadAverageAtEnd: loadavg() };
for (const tree of trees) {
  const runs = samples.get(tree)!;
  const row = {
    ms: median(runs.map((run) => run.ms)),
    cpuMs: median(runs.map((run) => run.cpuMs)),
    peakMiB: median(runs.map((run) => run.peakMiB)),
  };
  report[tree] = { ...row, runs };
  console.log(
    `  ${tree.padEnd(40)} ${row.ms.toFixed(0).padStart(6)} ms  ${row.cpuMs.toFixed(0).padStart(6)} ms CPU  ${row.peakMiB.toFixed(1).padStart(6)} MiB`,
  );
}
if (flags.json) writeFileSync(flags.json, `${JSON.stringify(report, null, 2)}\n`);
