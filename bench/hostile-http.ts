/**
 * `npm run bench:hostile`: what a legitimate client feels while others attack the MCP server over HTTP.
 *
 * The MCP server runs as its bin runs it (`node mcp-adapter/start.mjs`, HTTP on loopback) against the sandbox
 * (in this process, rate limits out of the way). A legitimate client (one kept-alive connection, as MCP
 * clients keep theirs) calls tools/call get_activity_by_id one call after another; its latency is taken
 * in quiet, then under each attack of the issue in turn, run by bench/hostile-clients.ts in a process of
 * its own, then in quiet again:
 *
 * - 20 connections sending endless bodies with a wrong bearer token;
 * - bearer brute force, 32 loops of fresh requests with random tokens;
 * - 5,000 slow connections that never finish their headers;
 * - 10 loops of 39 MiB bodies with the valid token (memory).
 *
 * For each: the legitimate client's p50/p95 and errors against quiet (target: p50 within 3x), the
 * server's largest resident memory while it lasted (sampled every 100 ms) and overall (VmHWM), its CPU,
 * the log lines it wrote, and what the attackers got done.
 *
 * Options: --calls N (legitimate calls per phase, default 1000), --json FILE.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { startSandbox } from "../sandbox/server.ts";
import { benchSandboxOptions } from "./bench-sandbox-options.ts";
import { cpuMs, memoryMiB, startTsChild } from "./child-process.ts";
import { LeanHttpClient, runClosedLoop, type LeanRequest } from "./lean-http-client.ts";

const root = resolve(import.meta.dirname, "..");
const { values: flags } = parseArgs({ options: { calls: { type: "string", default: "1000" }, json: { type: "string" } } });
const calls = Number(flags.calls);
const authToken = "hostile-bench-token-0123456789abcdef";
const kinds = ["endless-bodies", "brute-force", "slow-connections", "large-bodies"] as const;

const machine = {
  nproc: cpus().length,
  cpu: cpus()[0]?.model ?? "unknown",
  node: process.version,
  loadAverageAtStart: loadavg().map((n) => Number(n.toFixed(2))),
  calls,
  date: new Date().toISOString(),
};
console.log(
  `machine: ${machine.nproc} CPUs, ${machine.cpu}, Node ${machine.node}, load average ${machine.loadAverageAtStart.join(" ")}; ${calls} legitimate calls per phase`,
);

const sandbox = await startSandbox(benchSandboxOptions);
const scratch = mkdtempSync(join(tmpdir(), "hostile-bench-"));
const credentials = JSON.parse(await (await fetch(`${sandbox.baseUrl}/_sandbox/credentials`)).text()) as {
  client_id: string;
  client_secret: string;
  refresh_token: string;
};
const server = await startTsChild({
  script: "mcp-adapter/start.mjs",
  env: {
    PATH: process.env["PATH"],
    HOME: scratch,
    HOST: "127.0.0.1",
    PORT: "0",
    AUTH_TOKEN: authToken,
    STRAVA_CLIENT_ID: credentials.client_id,
    STRAVA_CLIENT_SECRET: credentials.client_secret,
    STRAVA_REFRESH_TOKEN: credentials.refresh_token,
    STRAVA_API_BASE: sandbox.apiBase,
    STRAVA_TOKEN_URL: sandbox.tokenUrl,
    FITNESS_TOKEN_FILE: join(scratch, "tokens.json"),
  },
  cwd: root,
  stream: "stderr",
  ready: (line) => line.includes('"event":"listening"'),
  plainNode: true,
});
const port = (JSON.parse(server.readyLine) as { port: number }).port;

const accessToken = (
  (await (
    await fetch(sandbox.tokenUrl, { method: "POST", body: new URLSearchParams({ ...credentials, grant_type: "refresh_token" }) })
  ).json()) as { access_token: string }
).access_token;
const activities = (await (
  await fetch(`${sandbox.apiBase}/athlete/activities?per_page=5`, { headers: { authorization: `Bearer ${accessToken}` } })
).json()) as { id: number }[];
const callBody = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "get_activity_by_id", arguments: { id: activities[0]!.id } },
});
const legitimate = new LeanHttpClient(`http://127.0.0.1:${port}`, 1);
const request = (): LeanRequest => ({
  method: "POST",
  path: "/mcp",
  headers: { authorization: `Bearer ${authToken}`, accept: "application/json, text/event-stream", "content-type": "application/json" },
  body: callBody,
});
const ok = (response: { status: number; body: string }): boolean =>
  response.status === 200 && response.body.includes('"result"') && !response.body.includes('"isError":true');

interface Phase {
  name: string;
  p50: number;
  p95: number;
  errors: number;
  seconds: number;
  serverRssMaxMiB: number;
  serverCpuMs: number;
  serverLogLines: number;
  attackers?: Record<string, number>;
}

async function measure(name: string): Promise<Phase> {
  let rssMax = memoryMiB(server.pid).current;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, memoryMiB(server.pid).current)), 100);
  const cpuBefore = cpuMs(server.pid);
  const linesBefore = server.stderrLines.length;
  const result = await runClosedLoop({ client: legitimate, concurrency: 1, calls, request, check: ok });
  clearInterval(sampler);
  return {
    name,
    p50: result.p50,
    p95: result.p95,
    errors: result.errors,
    seconds: result.seconds,
    serverRssMaxMiB: Math.round(rssMax * 10) / 10,
    serverCpuMs: cpuMs(server.pid) - cpuBefore,
    serverLogLines: server.stderrLines.length - linesBefore,
  };
}

async function underAttack(kind: (typeof kinds)[number]): Promise<Phase> {
  const attackers = spawn(process.execPath, ["--import", "tsx", "bench/hostile-clients.ts", kind, String(port), authToken], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolveReady) =>
    createInterface({ input: attackers.stderr! }).on("line", (line) => line === "ready" && resolveReady()),
  );
  await new Promise((wait) => setTimeout(wait, 2_000)); // the attack builds up
  const phase = await measure(`under attack: ${kind}`);
  const counts = new Promise<string>((resolveCounts) => createInterface({ input: attackers.stdout! }).once("line", resolveCounts));
  attackers.kill("SIGTERM");
  phase.attackers = JSON.parse(await counts) as Record<string, number>;
  await new Promise((wait) => setTimeout(wait, 3_000)); // connections drain, timeouts pass
  return phase;
}

const phases: Phase[] = [];
try {
  await runClosedLoop({ client: legitimate, concurrency: 1, calls: 2_000, request, check: ok }); // warm-up
  phases.push(await measure("quiet"));
  for (const kind of kinds) phases.push(await underAttack(kind));
  phases.push(await measure("quiet again"));
} finally {
  legitimate.close();
}
const quiet = phases[0]!.p50;
const peakMiB = memoryMiB(server.pid).peak;
await server.stop();
await sandbox.close();
rmSync(scratch, { recursive: true, force: true });

console.log(`\nlegitimate client: tools/call get_activity_by_id, concurrency 1, ${calls} calls per phase on one kept-alive connection`);
console.log(
  "  phase                           | p50 ms (x quiet) | p95 ms | errors | server RSS max MiB | server CPU s | log lines | attackers",
);
for (const phase of phases) {
  console.log(
    `  ${phase.name.padEnd(31)} | ${phase.p50.toFixed(2).padStart(6)} (${(phase.p50 / quiet).toFixed(1).padStart(4)}x) | ${phase.p95.toFixed(2).padStart(6)} | ${String(phase.errors).padStart(6)} | ` +
      `${phase.serverRssMaxMiB.toFixed(1).padStart(18)} | ${(phase.serverCpuMs / 1000).toFixed(1).padStart(12)} | ${String(phase.serverLogLines).padStart(9)} | ${phase.attackers ? JSON.stringify(phase.attackers) : ""}`,
  );
}
console.log(
  `\nserver peak RSS over the whole run (VmHWM): ${peakMiB.toFixed(1)} MiB; load average at end: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
if (flags.json)
  writeFileSync(flags.json, `${JSON.stringify({ machine, phases, peakRssMiB: peakMiB, loadAverageAtEnd: loadavg() }, null, 2)}\n`);
