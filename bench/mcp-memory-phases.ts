/**
 * `npm run bench:memory -- TREE...`: where the MCP server's resident memory goes, phase by phase.
 *
 * bench/mcp-bench.ts reports one figure per server, the peak resident set (VmHWM) over its whole run. This
 * says which part of that run sets the peak, so a change in it can be traced to a cause. Each TREE is a
 * checkout (this one is ".", an earlier revision's tree is .cache/bench-revisions/COMMIT as
 * `npm run bench:mcp -- --before REV` leaves it, or an edited copy with node_modules beside it) whose the MCP server is started as its bin runs it (`node TREE/mcp-adapter/start.mjs`),
 * pointed at the sandbox the way mcp-bench.ts points it, and driven through the same phases:
 *
 *   start       until the server says it is listening
 *   warm-up     3,000 get_activity_by_id calls, 16 at a time
 *   c1/c16/c64  1,500 / 4,000 / 6,000 calls at concurrency 1, 16 and 64, `--rounds` times (default 3)
 *   streams     one get_activity_streams call for the longest ride (all 11 streams)
 *   burst       1,000 concurrent calls right after every access token expired
 *
 * After each phase it reads /proc/PID/status: the resident set now (VmRSS, split into anonymous memory and
 * mapped files), and the phase's own peak (VmHWM, reset at the start of each phase by writing 5 to
 * /proc/PID/clear_refs). The peak over the run, what mcp-bench.ts reports, is the largest phase peak.
 *
 * The servers run one at a time, never side by side, and take turns across `--repeat` repetitions (default 3)
 * so a noisy spell on this shared machine falls on all of them; the table gives the median and the range.
 *
 * How much of the resident set a run keeps depends on timing: V8 compiles and collects garbage on helper
 * threads, and memory they allocated and freed stays with the process in the C library's per-thread pools. On
 * this shared machine the same build's peak moves from run to run by more than most differences worth
 * finding. `--v8-flags=--single-threaded` runs every server with V8's work on the main thread: the figures are
 * higher (that is not how the server runs) but repeat closely, so a difference between two trees shows in a
 * few runs. Use it to find what costs memory, then confirm as the server runs.
 *
 * Options: --rounds N, --repeat N, --json FILE, --label NAME (one per TREE, in order), --v8-flags "FLAGS"
 * (given to node with the launcher's heap settings, which it then does not add itself).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { startSandbox } from "../sandbox/server.ts";
import { benchActivities, mcpServerEnvOnSandbox, mcpCallOk, sandboxAccessToken, sandboxControl, sandboxGrant } from "./sandbox-athlete.ts";
import { benchSandboxOptions } from "./bench-sandbox-options.ts";
import { httpHeapFlags } from "../mcp-adapter/heap-settings.mjs";
import { startTsChild } from "./child-process.ts";
import { LeanHttpClient, runClosedLoop, sendAtOnceFromLoopback, type LeanRequest } from "./lean-http-client.ts";

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: "string", default: "3" },
    repeat: { type: "string", default: "3" },
    json: { type: "string" },
    label: { type: "string", multiple: true },
    "v8-flags": { type: "string" },
  },
});
if (positionals.length === 0) throw new Error("Name at least one tree to measure: npm run bench:memory -- . .cache/bench-revisions/COMMIT");
const trees = positionals.map((tree, index) => ({ label: flags.label?.[index] ?? tree, root: resolve(tree) }));
const v8Flags = flags["v8-flags"]?.split(/\s+/).filter(Boolean) ?? [];
const rounds = Number(flags.rounds);
const repeat = Number(flags.repeat);
const authToken = "bench-auth-token-0123456789abcdef";
const mcpHeaders = {
  authorization: `Bearer ${authToken}`,
  accept: "application/json, text/event-stream",
  "content-type": "application/json",
};

interface Sample {
  phase: string;
  /** The phase's own peak resident set, MiB. */
  peak: number;
  rss: number;
  anon: number;
  file: number;
}

const scratch = mkdtempSync(join(tmpdir(), "mcp-memory-"));
const sandbox = await startSandbox(benchSandboxOptions);
const upstream = new LeanHttpClient(sandbox.baseUrl, 100);
const control = sandboxControl(upstream);
const results = new Map<string, Sample[][]>(trees.map((tree) => [tree.label, []]));
try {
  const credentials = await sandboxGrant(control);
  const { typical, longRide } = await benchActivities(upstream, sandbox, await sandboxAccessToken(upstream, sandbox, credentials));
  const call = (name: string, id: number): LeanRequest => ({
    method: "POST",
    path: "/mcp",
    headers: mcpHeaders,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: { id } } }),
  });
  const byId = (): LeanRequest => call("get_activity_by_id", typical.id);

  for (let repetition = 1; repetition <= repeat; repetition++) {
    for (const tree of trees) {
      const tokenFile = join(scratch, `tokens-${repetition}-${results.get(tree.label)!.length}-${tree.label.replace(/\W/g, "_")}.json`);
      const env = mcpServerEnvOnSandbox(sandbox, credentials, authToken, tokenFile);
      const child = await startTsChild({
        script: join(tree.root, "mcp-adapter", "start.mjs"),
        env,
        cwd: tree.root,
        stream: "stderr",
        ready: (line) => line.includes('"event":"listening"'),
        plainNode: true,
        // With the heap settings given, start.mjs runs as started instead of restarting itself with them.
        ...(v8Flags.length > 0 ? { nodeFlags: [...httpHeapFlags, ...v8Flags] } : {}),
      });
      const samples: Sample[] = [];
      const sample = (phase: string): void => {
        samples.push({ phase, ...readMemory(child.pid) });
        resetPeak(child.pid);
      };
      try {
        const port = (JSON.parse(child.readyLine) as { port: number }).port;
        const client = new LeanHttpClient(`http://127.0.0.1:${port}`, 1_000);
        sample("start");
        const load = async (concurrency: number, calls: number): Promise<void> => {
          const result = await runClosedLoop({ client, concurrency, calls, request: byId, check: mcpCallOk });
          if (result.errors > 0) throw new Error(`${tree.label}: ${result.errors} failed calls at concurrency ${concurrency}`);
        };
        await load(16, 3_000);
        sample("warm-up");
        for (let round = 1; round <= rounds; round++) {
          await load(1, 1_500);
          sample(round === 1 ? "c1" : `c1 #${round}`);
          await load(16, 4_000);
          sample(round === 1 ? "c16" : `c16 #${round}`);
          await load(64, 6_000);
          sample(round === 1 ? "c64" : `c64 #${round}`);
        }
        const streams = await client.send(call("get_activity_streams", longRide.id));
        if (!mcpCallOk(streams)) throw new Error(`${tree.label}: the streams call failed: ${streams.body.slice(0, 300)}`);
        sample("streams");
        await control("POST", "expire-tokens");
        const answers = await sendAtOnceFromLoopback(`http://127.0.0.1:${port}`, 1_000, byId);
        const failed = answers.filter((answer) => !mcpCallOk(answer)).length;
        if (failed > 0) throw new Error(`${tree.label}: ${failed} of the burst's 1,000 calls failed`);
        sample("burst");
        client.close();
      } finally {
        await child.stop();
      }
      results.get(tree.label)!.push(samples);
      const peak = Math.max(...samples.map((s) => s.peak));
      console.log(
        `repetition ${repetition}, ${tree.label}: ${samples.map((s) => `${s.phase} ${s.peak.toFixed(1)}`).join(", ")}; run peak ${peak.toFixed(1)} MiB`,
      );
    }
  }
} finally {
  upstream.close();
  await sandbox.close();
  rmSync(scratch, { recursive: true, force: true });
}

console.log(
  `\nper phase: the phase's peak RSS (VmHWM), then RSS at its end = anonymous + file-backed; MiB, median [min-max] of ${repeat}` +
    (v8Flags.length > 0 ? ` (V8 flags: ${v8Flags.join(" ")})` : ""),
);
const table: Record<string, unknown> = {};
for (const [label, runs] of results) {
  console.log(`\n${label}`);
  const phases = runs[0]!.map((s) => s.phase);
  const rows: Record<string, unknown> = {};
  for (const [index, phase] of phases.entries()) {
    const of = (pick: (s: Sample) => number): number[] => runs.map((run) => pick(run[index]!));
    rows[phase] = {
      peak: spread(of((s) => s.peak)),
      rss: spread(of((s) => s.rss)),
      anon: spread(of((s) => s.anon)),
      file: spread(of((s) => s.file)),
    };
    console.log(
      `  ${phase.padEnd(8)} peak ${show(of((s) => s.peak))}   end ${show(of((s) => s.rss))} = anon ${show(of((s) => s.anon))} + file ${show(of((s) => s.file))}`,
    );
  }
  const runPeaks = runs.map((run) => Math.max(...run.map((s) => s.peak)));
  rows["run peak"] = spread(runPeaks);
  console.log(`  run peak ${show(runPeaks)}`);
  table[label] = rows;
}
if (flags.json) writeFileSync(flags.json, `${JSON.stringify(table, null, 2)}\n`);

function readMemory(pid: number): Omit<Sample, "phase"> {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const mib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) / 1024;
  return { peak: mib("VmHWM"), rss: mib("VmRSS"), anon: mib("RssAnon"), file: mib("RssFile") + mib("RssShmem") };
}

/** Sets VmHWM back to the current resident set (Linux 4.0 and later). */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

function spread(values: number[]): { median: number; min: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median: round(median), min: round(sorted[0]!), max: round(sorted.at(-1)!) };
}

function show(values: number[]): string {
  const { median, min, max } = spread(values);
  return `${median.toFixed(1).padStart(5)} [${min.toFixed(1)}-${max.toFixed(1)}]`;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
