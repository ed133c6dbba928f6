/**
 * `npm run bench:mcp`: the MCP server against the sandbox on loopback, in one run.
 *
 * Processes: this one (the load generator, bench/lean-http-client.ts: raw JSON-RPC POSTs over keep-alive
 * node:http, with the sandbox running in it, rate limits out of the way) and the servers under test, all
 * started up front and measured in turns. The first is the MCP server exactly as its bin and `npm start` run it
 * (`node mcp-adapter/start.mjs`: the build in dist/mcp-server, pointed at the sandbox by the STRAVA_*
 * variables); the others are comparisons: with `--before REV`, the MCP server of an earlier revision run the same
 * way (that revision's whole tree in .cache/bench-revisions/COMMIT, built by its own build script, this
 * checkout's node_modules), so a change is measured against what it replaced in the same run; the issue's
 * yardstick of a plain express pass-through (bench/express-proxy-server.ts); and a bare node:http
 * pass-through as the floor for any extra hop (bench/raw-proxy-server.ts). The pass-throughs are bundled
 * like the MCP server's and run on plain node with the V8 heap settings the MCP server's launcher gives itself
 * (mcp-adapter/heap-settings.mjs), so every build has the same memory budget.
 *
 * Why the sandbox shares the load generator's process: in use, the server's machine runs neither the
 * MCP client nor Strava. On two cores, the closest model is the server on one core and "the rest of the
 * world" (client and upstream) on the other. With the sandbox in a third process, the direct path gets
 * both cores while the MCP path shares them three ways, and the ratio then measures the scheduler more
 * than the server (`--sandbox-process` runs that layout). Either way both paths reach the sandbox over
 * loopback TCP, so "added" latency is the cost of the extra hop through the server. This machine is
 * shared, so every MCP run is paired with a direct run made right before it, the builds take turns, and
 * each figure is the median over the rounds. Measured:
 *
 * 1. tools/call get_activity_by_id through POST /mcp (a 2025-era request, as most clients still send)
 *    against GET /api/v3/activities/{id} sent straight to the sandbox with the same access token, at
 *    concurrency 1, 16 and 64: p50/p95/p99 latency, calls per second, and the CPU time (user + system,
 *    from /proc) each process spent per call;
 * 2. the bytes of the 6-hour ride's streams through get_activity_streams against the upstream's bodies;
 * 3. per server, a burst of 1,000 concurrent calls right after every access token expired: token
 *    requests counted by the sandbox (exactly 1 expected);
 * 4. per server, peak resident memory (VmHWM) over the whole run, burst included.
 *
 * Start-up over stdio is bench/stdio-startup.ts; hostile clients are bench/hostile-http.ts.
 * Options: --quick (one short round), --rounds N (default 3), --before REV, --only-ours, --sandbox-process,
 * --json FILE.
 */
import { execSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { startSandbox } from "../sandbox/server.ts";
import { benchActivities, mcpServerEnvOnSandbox, mcpCallOk, sandboxAccessToken, sandboxControl, sandboxGrant } from "./sandbox-athlete.ts";
import { benchSandboxOptions } from "./bench-sandbox-options.ts";
import { mcpServerOfRevision } from "./tree-of-revision.ts";
import { cpuMs, memoryMiB, startTsChild, type StartedChild } from "./child-process.ts";
import { compileServer } from "./compile-server.ts";
import {
  LeanHttpClient,
  runClosedLoop,
  sendAtOnceFromLoopback,
  type LeanRequest,
  type LeanResponse,
  type LoadResult,
} from "./lean-http-client.ts";
import { jsonRpcReply } from "../test/support/mcp-replies.ts";
import { httpHeapFlags } from "../mcp-adapter/heap-settings.mjs";

const root = resolve(import.meta.dirname, "..");
const { values: flags } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    rounds: { type: "string" },
    before: { type: "string" },
    "only-ours": { type: "boolean", default: false },
    "sandbox-process": { type: "boolean", default: false },
    json: { type: "string" },
  },
});
const concurrencies = [1, 16, 64] as const;
const callsAt: Record<number, number> = flags.quick ? { 1: 300, 16: 1_000, 64: 2_000 } : { 1: 1_500, 16: 4_000, 64: 6_000 };
const rounds = flags.rounds ? Number(flags.rounds) : flags.quick ? 1 : 3;
const warmupCalls = flags.quick ? 500 : 3_000;
const authToken = "bench-auth-token-0123456789abcdef";
const mcpHeaders = {
  authorization: `Bearer ${authToken}`,
  accept: "application/json, text/event-stream",
  "content-type": "application/json",
};

interface Build {
  name: string;
  script: string;
  args: string[];
  /**
   * "bundled": the TypeScript entry `script` bundled like the MCP server's (bench/compile-server.ts), on plain
   * node; "as-is": `script` on plain node (mcp-adapter/start.mjs, what the bin and `npm start` run).
   */
  run: "bundled" | "as-is";
  /** Node/V8 flags for a comparison build (the MCP server's launcher sets its own). */
  nodeFlags?: readonly string[];
  /** The bare pass-through has no token handling: no burst for it. */
  burst: boolean;
}

interface Pair {
  direct: LoadResult;
  mcp: LoadResult;
  /** `sandbox` is 0 when the sandbox runs inside the load generator (its CPU is then in `client`). */
  cpuUsPerMcpCall: { server: number; sandbox: number; client: number };
}

const report: Record<string, unknown> = {};
const machine = {
  nproc: Number(execSync("nproc").toString().trim()),
  cpu: cpus()[0]?.model ?? "unknown",
  node: process.version,
  loadAverageAtStart: loadavg().map((n) => Number(n.toFixed(2))),
  sandbox: flags["sandbox-process"] ? "own process" : "in the load generator's process",
  commit: gitCommit(),
  date: new Date().toISOString(),
  rounds,
  callsPerRun: callsAt,
};
report["machine"] = machine;
console.log(
  `machine: ${machine.nproc} CPUs, ${machine.cpu}, Node ${machine.node}, load average ${machine.loadAverageAtStart.join(" ")}, ` +
    `commit ${machine.commit}; ${rounds} round(s), ${callsAt[1]}/${callsAt[16]}/${callsAt[64]} calls per run at concurrency 1/16/64; sandbox ${machine.sandbox}`,
);

const scratch = mkdtempSync(join(tmpdir(), "mcp-bench-"));
const children: StartedChild[] = [];
try {
  // --- the upstream: in this process, or (--sandbox-process) in its own
  let sandbox: { baseUrl: string; apiBase: string; tokenUrl: string };
  let sandboxPid: number | undefined;
  let closeSandbox = async (): Promise<void> => {};
  if (flags["sandbox-process"]) {
    const sandboxChild = await startTsChild({
      script: "bench/sandbox-process.ts",
      env: process.env,
      cwd: root,
      stream: "stdout",
      ready: (line) => line.startsWith("{"),
    });
    children.push(sandboxChild);
    sandbox = JSON.parse(sandboxChild.readyLine) as typeof sandbox;
    sandboxPid = sandboxChild.pid;
  } else {
    const running = await startSandbox(benchSandboxOptions);
    sandbox = running;
    closeSandbox = () => running.close();
  }
  const upstream = new LeanHttpClient(sandbox.baseUrl, 1_000);
  const apiPath = new URL(sandbox.apiBase).pathname;
  const control = sandboxControl(upstream);
  const credentials = await sandboxGrant(control);

  // The direct path's access token: a refresh of our own. The sandbox (like Strava) hands out the same
  // access token while it has more than an hour left, so the direct path and the servers use one token.
  const accessToken = (): Promise<string> => sandboxAccessToken(upstream, sandbox, credentials);
  let token = await accessToken();
  const apiHeaders = (): Record<string, string> => ({ authorization: `Bearer ${token}` });
  const { typical, longRide } = await benchActivities(upstream, sandbox, token);

  const directRequest = (): LeanRequest => ({ method: "GET", path: `${apiPath}/activities/${typical.id}`, headers: apiHeaders() });
  const callBody = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "get_activity_by_id", arguments: { id: typical.id } },
  });
  const mcpRequest = (): LeanRequest => ({ method: "POST", path: "/mcp", headers: mcpHeaders, body: callBody });
  const directOk = (response: LeanResponse): boolean => response.status === 200;

  // --- the servers
  const builds: Build[] = [
    {
      name: `the MCP server as its bin runs it (node mcp-adapter/start.mjs, ${machine.commit})`,
      script: "mcp-adapter/start.mjs",
      args: [],
      run: "as-is",
      burst: true,
    },
  ];
  if (flags.before) {
    builds.push({
      name: `the MCP server of ${flags.before}, run the same way`,
      script: mcpServerOfRevision(flags.before),
      args: [],
      run: "as-is",
      burst: true,
    });
  }
  if (!flags["only-ours"]) {
    builds.push(
      {
        name: "yardstick: plain express pass-through (no MCP, no checks)",
        script: "bench/express-proxy-server.ts",
        args: [],
        run: "bundled",
        burst: false,
        nodeFlags: httpHeapFlags,
      },
      {
        name: "floor: bare node:http pass-through (no MCP, no checks)",
        script: "bench/raw-proxy-server.ts",
        args: [],
        run: "bundled",
        burst: false,
        nodeFlags: httpHeapFlags,
      },
    );
  }
  // Bundled once per entry point, as mcp-adapter/build-server.mjs bundles cli.ts for the MCP server.
  const bundles = new Map<string, string>();
  for (const build of builds) {
    if (build.run !== "bundled" || bundles.has(build.script)) continue;
    bundles.set(build.script, await compileServer(root, build.script, join(scratch, `bundle-${bundles.size}`)));
  }
  const running: { build: Build; child: StartedChild; client: LeanHttpClient; port: number }[] = [];
  for (const build of builds) {
    const env: NodeJS.ProcessEnv = {
      ...mcpServerEnvOnSandbox(sandbox, credentials, authToken, join(scratch, `tokens-${running.length}.json`)),
      // The pass-through yardsticks' upstream.
      UPSTREAM_API_BASE: sandbox.apiBase,
      UPSTREAM_ACCESS_TOKEN: token,
    };
    const child = await startTsChild({
      script: build.run === "bundled" ? bundles.get(build.script)! : build.script,
      args: build.args,
      env,
      cwd: root,
      stream: "stderr",
      ready: (line) => line.includes('"event":"listening"'),
      plainNode: true,
      nodeFlags: [...(build.nodeFlags ?? [])],
    });
    children.push(child);
    const port = (JSON.parse(child.readyLine) as { port: number }).port;
    running.push({ build, child, client: new LeanHttpClient(`http://127.0.0.1:${port}`, 1_000), port });
  }
  const ours = running[0]!;

  // Same data on both paths: the tool's text is the upstream body.
  const viaDirect = (await upstream.send(directRequest())).body;
  const viaMcp = jsonRpcReply<{ result: { content: { text: string }[] } }>((await ours.client.send(mcpRequest())).body);
  const sameBytes = viaMcp.result.content[0]!.text === viaDirect;
  console.log(
    `get_activity_by_id ${typical.id}: tool text identical to the upstream body: ${sameBytes} (${Buffer.byteLength(viaDirect)} bytes)`,
  );
  report["identicalBody"] = { identical: sameBytes, bytes: Buffer.byteLength(viaDirect) };
  report["rssAfterStartMiB"] = Object.fromEntries(running.map((server) => [server.build.name, round(memoryMiB(server.child.pid).current)]));

  // --- warm-up, then the builds take turns, each MCP run right after a direct run
  await runClosedLoop({ client: upstream, concurrency: 16, calls: warmupCalls, request: directRequest, check: directOk });
  for (const server of running)
    await runClosedLoop({ client: server.client, concurrency: 16, calls: warmupCalls, request: mcpRequest, check: mcpCallOk });
  const pairs = new Map<string, Pair[]>();
  const sandboxCpuMs = (): number => (sandboxPid === undefined ? 0 : cpuMs(sandboxPid));
  for (let round = 1; round <= rounds; round++) {
    console.log(`round ${round} of ${rounds} (load average ${loadavg()[0]!.toFixed(2)})`);
    for (const concurrency of concurrencies) {
      for (const server of running) {
        const calls = callsAt[concurrency]!;
        const direct = await runClosedLoop({ client: upstream, concurrency, calls, request: directRequest, check: directOk });
        const before = { server: cpuMs(server.child.pid), sandbox: sandboxCpuMs(), client: cpuMs(process.pid) };
        const mcp = await runClosedLoop({ client: server.client, concurrency, calls, request: mcpRequest, check: mcpCallOk });
        const perCall = (now: number, then: number): number => ((now - then) * 1000) / calls;
        const key = `${server.build.name}@${concurrency}`;
        const pair: Pair = {
          direct,
          mcp,
          cpuUsPerMcpCall: {
            server: perCall(cpuMs(server.child.pid), before.server),
            sandbox: perCall(sandboxCpuMs(), before.sandbox),
            client: perCall(cpuMs(process.pid), before.client),
          },
        };
        if (direct.errors + mcp.errors > 0) console.log(`  ${key}: ERRORS direct ${direct.errors}, MCP ${mcp.errors}`);
        pairs.set(key, [...(pairs.get(key) ?? []), pair]);
      }
    }
  }

  const latency: Record<string, unknown> = {};
  for (const server of running) {
    const rows = concurrencies.map((concurrency) => summarize(concurrency, pairs.get(`${server.build.name}@${concurrency}`)!));
    latency[server.build.name] = rows;
    console.log(`\n${server.build.name}: tools/call get_activity_by_id via /mcp vs GET /activities/{id} direct (medians of ${rounds})`);
    console.log(
      `  conc | direct p50/p95/p99 ms    calls/s | MCP p50/p95/p99 ms       calls/s | added p50 | MCP/direct | CPU per MCP call: ${sandboxPid === undefined ? "server, load generator with the sandbox" : "server, sandbox, load generator"}`,
    );
    for (const row of rows) {
      console.log(
        `  ${String(row.concurrency).padStart(4)} | ${ms(row.direct.p50)}/${ms(row.direct.p95)}/${ms(row.direct.p99)} ${String(Math.round(row.direct.callsPerSecond)).padStart(8)} | ` +
          `${ms(row.mcp.p50)}/${ms(row.mcp.p95)}/${ms(row.mcp.p99)} ${String(Math.round(row.mcp.callsPerSecond)).padStart(8)} | ` +
          `${ms(row.addedP50Ms).padStart(9)} | ${(row.throughputRatio * 100).toFixed(0).padStart(9)}% | ` +
          `${Math.round(row.cpuUsPerMcpCall.server)} µs, ${sandboxPid === undefined ? "" : `${Math.round(row.cpuUsPerMcpCall.sandbox)} µs, `}${Math.round(row.cpuUsPerMcpCall.client)} µs`,
      );
    }
  }
  report["latency"] = latency;

  // --- streams of the 6-hour ride
  const keys = "time,distance,latlng,altitude,velocity_smooth,heartrate,cadence,watts,temp,moving,grade_smooth";
  const keyed = (
    await upstream.send({
      method: "GET",
      path: `${apiPath}/activities/${longRide.id}/streams?keys=${keys}&key_by_type=true`,
      headers: apiHeaders(),
    })
  ).body;
  const arrayForm = (
    await upstream.send({ method: "GET", path: `${apiPath}/activities/${longRide.id}/streams?keys=${keys}`, headers: apiHeaders() })
  ).body;
  const streamsCall = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "get_activity_streams", arguments: { id: longRide.id } },
  });
  const streamsHttp = (await ours.client.send({ method: "POST", path: "/mcp", headers: mcpHeaders, body: streamsCall })).body;
  const streamsText = jsonRpcReply<{ result: { content: { text: string }[] } }>(streamsHttp).result.content[0]!.text;
  const points = (JSON.parse(streamsText) as { type: string; data: unknown[] }[]).find((s) => s.type === "time")?.data.length;
  const streams = {
    activityId: longRide.id,
    elapsedSeconds: longRide.elapsed_time,
    points,
    toolTextBytes: Buffer.byteLength(streamsText),
    upstreamArrayBodyBytes: Buffer.byteLength(arrayForm),
    upstreamKeyByTypeBodyBytes: Buffer.byteLength(keyed),
    mcpHttpBodyBytes: Buffer.byteLength(streamsHttp),
    toolTextEqualsArrayBody: streamsText === arrayForm,
  };
  report["streams"] = streams;
  console.log(
    `\nstreams of the ${(longRide.elapsed_time / 3600).toFixed(1)} h ride ${longRide.id} (${points} points per stream, all 11 types):\n` +
      `  tool result text                          ${streams.toolTextBytes} bytes\n` +
      `  upstream body without key_by_type (array) ${streams.upstreamArrayBodyBytes} bytes (byte-identical to the tool text: ${streams.toolTextEqualsArrayBody})\n` +
      `  upstream body with key_by_type=true       ${streams.upstreamKeyByTypeBodyBytes} bytes (what the tool requests)\n` +
      `  MCP HTTP response body                    ${streams.mcpHttpBodyBytes} bytes (the text as a JSON string inside the JSON-RPC result)`,
  );

  // --- per server: 1,000 calls right after every access token expired, then peak memory and a clean stop
  const bursts: Record<string, unknown> = {};
  const memory: Record<string, unknown> = {};
  const exitCodes: Record<string, unknown> = {};
  console.log("\nburst of 1,000 concurrent calls at token expiry, peak RSS (VmHWM) over the whole run, exit code on SIGTERM:");
  for (const server of running) {
    let burstLine = "no burst (no token handling)";
    if (server.build.burst) {
      await control("POST", "reset-counters");
      await control("POST", "expire-tokens");
      const started = performance.now();
      const answers = await sendAtOnceFromLoopback(`http://127.0.0.1:${server.port}`, 1_000, mcpRequest);
      const seconds = (performance.now() - started) / 1000;
      const counters = (await control("GET", "counters")) as { tokenRequests: number; apiRequests: number };
      const burst = {
        calls: 1_000,
        succeeded: answers.filter(mcpCallOk).length,
        tokenRequests: counters.tokenRequests,
        apiRequests: counters.apiRequests,
        seconds,
      };
      bursts[server.build.name] = burst;
      burstLine = `${burst.succeeded}/1000 ok in ${burst.seconds.toFixed(2)} s, ${burst.tokenRequests} token request(s), ${burst.apiRequests} API requests`;
    }
    const peak = memoryMiB(server.child.pid).peak;
    memory[server.build.name] = round(peak);
    server.client.close();
    const code = await server.child.stop();
    children.splice(children.indexOf(server.child), 1);
    exitCodes[server.build.name] = code;
    console.log(`  ${server.build.name}: ${burstLine}; peak RSS ${peak.toFixed(1)} MiB; exit ${code}`);
  }
  token = await accessToken();
  report["burst"] = bursts;
  report["peakRssMiB"] = memory;
  report["exitCodeOnSigterm"] = exitCodes;

  upstream.close();
  await closeSandbox();
  report["loadAverageAtEnd"] = loadavg().map((n) => Number(n.toFixed(2)));
  console.log(
    `\nload average at end: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );
  if (flags.json) writeFileSync(flags.json, `${JSON.stringify(report, null, 2)}\n`);
} finally {
  for (const child of children.reverse()) await child.stop();
  rmSync(scratch, { recursive: true, force: true });
}

function summarize(concurrency: number, runs: Pair[]) {
  const median = (values: number[]): number => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };
  const of = (pick: (pair: Pair) => number): number => median(runs.map(pick));
  return {
    concurrency,
    direct: {
      p50: of((p) => p.direct.p50),
      p95: of((p) => p.direct.p95),
      p99: of((p) => p.direct.p99),
      callsPerSecond: of((p) => p.direct.callsPerSecond),
    },
    mcp: {
      p50: of((p) => p.mcp.p50),
      p95: of((p) => p.mcp.p95),
      p99: of((p) => p.mcp.p99),
      callsPerSecond: of((p) => p.mcp.callsPerSecond),
    },
    // Paired: each MCP run against the direct run made just before it.
    addedP50Ms: of((p) => p.mcp.p50 - p.direct.p50),
    throughputRatio: of((p) => p.mcp.callsPerSecond / p.direct.callsPerSecond),
    cpuUsPerMcpCall: {
      server: of((p) => p.cpuUsPerMcpCall.server),
      sandbox: of((p) => p.cpuUsPerMcpCall.sandbox),
      client: of((p) => p.cpuUsPerMcpCall.client),
    },
    errors: runs.reduce((sum, p) => sum + p.direct.errors + p.mcp.errors, 0),
    runs: runs.length,
  };
}

function ms(value: number): string {
  return value.toFixed(2);
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** `revision`'s whole tree, built by its own build script, with this checkout's node_modules; returns its start.mjs. */
function gitCommit(): string {
  try {
    return execSync("git rev-parse --short HEAD", { cwd: root }).toString().trim();
  } catch {
    return "unknown";
  }
}
