/**
 * `npm run bench:mcp`: Form A against the sandbox on loopback, in one run.
 *
 * Two processes: this one (the load generator, with the sandbox started in it through `startSandbox`
 * with rate limits out of the way) and the MCP server under test (mcp-adapter/cli.ts, exactly what
 * `npm start` runs, pointed at the sandbox through the STRAVA_* variables). The direct path is therefore
 * bounded by this process (client and sandbox on one thread), and the MCP path by whichever of the two
 * processes is busier per call. Measured:
 *
 * 1. tools/call get_activity_by_id through POST /mcp against GET /api/v3/activities/{id} sent straight
 *    to the sandbox with the same access token, at concurrency 1, 16 and 64: p50/p95/p99 latency, calls
 *    per second, and the CPU time each process spent per call;
 * 2. the server's peak resident memory (VmHWM) over the whole run;
 * 3. a burst of 1,000 concurrent calls right after every access token expired: token requests counted
 *    by the sandbox (exactly 1 expected);
 * 4. the bytes of the 6-hour ride's streams through get_activity_streams against the upstream's bodies;
 * 5. the same latency runs against alternative builds (bench/variant-server.ts): the SDK's per-request
 *    StreamableHTTPServerTransport, and Node's built-in fetch for the upstream.
 *
 * Options: --quick (fewer calls), --no-variants, --json FILE (write every figure as JSON).
 * Load is driven with raw JSON-RPC POSTs over keep-alive node:http (bench/lean-http-client.ts).
 */
import { execSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { startSandbox, type RunningSandbox } from "../sandbox/server.ts";
import { cpuMs, memoryMiB, startTsChild, type StartedChild } from "./child-process.ts";
import { LeanHttpClient, runClosedLoop, type LeanRequest, type LeanResponse, type LoadResult } from "./lean-http-client.ts";

const root = resolve(import.meta.dirname, "..");
const { values: flags } = parseArgs({
  options: { quick: { type: "boolean", default: false }, "no-variants": { type: "boolean", default: false }, json: { type: "string" } },
});
const concurrencies = [1, 16, 64] as const;
const callsAt: Record<number, number> = flags.quick ? { 1: 300, 16: 1_000, 64: 2_000 } : { 1: 1_500, 16: 4_000, 64: 6_000 };
const warmupCalls = flags.quick ? 300 : 1_000;
const authToken = "bench-auth-token-0123456789abcdef";
const mcpHeaders = { authorization: `Bearer ${authToken}`, accept: "application/json, text/event-stream", "content-type": "application/json" };

const report: Record<string, unknown> = {};
const machine = {
  nproc: Number(execSync("nproc").toString().trim()),
  cpu: cpus()[0]?.model ?? "unknown",
  node: process.version,
  loadAverageAtStart: loadavg().map((n) => Number(n.toFixed(2))),
  commit: gitCommit(),
  date: new Date().toISOString(),
};
report["machine"] = machine;
console.log(`machine: ${machine.nproc} CPUs, ${machine.cpu}, Node ${machine.node}, load average ${machine.loadAverageAtStart.join(" ")}, commit ${machine.commit}`);

const scratch = mkdtempSync(join(tmpdir(), "mcp-bench-"));
const children: StartedChild[] = [];
const stoppers: (() => Promise<void>)[] = [];
try {
  // --- the upstream, in this process
  const unlimited: [number, number] = [1_000_000_000, 1_000_000_000];
  const sandbox = await startSandbox({ rateLimits: { overall: unlimited, read: unlimited }, uploadProcessingMs: 50 });
  stoppers.push(() => sandbox.close());
  const upstream = new LeanHttpClient(sandbox.baseUrl, 1_000);
  const apiPath = new URL(sandbox.apiBase).pathname;
  // The direct path's access token: a refresh of our own. The sandbox (like Strava) hands the server
  // the same access token when it refreshes with more than an hour left, so both paths use one token.
  let apiHeaders = { authorization: `Bearer ${await accessToken(upstream, sandbox)}` };

  const activities = JSON.parse((await upstream.send({ method: "GET", path: `${apiPath}/athlete/activities?per_page=200`, headers: apiHeaders })).body) as {
    id: number;
    elapsed_time: number;
    sport_type: string;
  }[];
  const typical = activities.find((a) => a.sport_type === "Run") ?? activities[0]!;
  const longRide = activities.reduce((a, b) => (b.elapsed_time > a.elapsed_time ? b : a));
  const serverEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    ...process.env,
    HOST: "127.0.0.1",
    PORT: "0",
    AUTH_TOKEN: authToken,
    LOG_LEVEL: "info",
    STRAVA_CLIENT_ID: sandbox.clientId,
    STRAVA_CLIENT_SECRET: sandbox.clientSecret,
    STRAVA_REFRESH_TOKEN: sandbox.refreshToken(),
    STRAVA_API_BASE: sandbox.apiBase,
    STRAVA_TOKEN_URL: sandbox.tokenUrl,
    FITNESS_TOKEN_FILE: join(scratch, `tokens-${Math.random().toString(36).slice(2)}.json`),
    ...extra,
  });

  const directRequest = (): LeanRequest => ({ method: "GET", path: `${apiPath}/activities/${typical.id}`, headers: apiHeaders });
  const callBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_activity_by_id", arguments: { id: typical.id } } });
  const mcpRequest = (): LeanRequest => ({ method: "POST", path: "/mcp", headers: mcpHeaders, body: callBody });
  const directOk = (response: LeanResponse): boolean => response.status === 200;
  const mcpOk = (response: LeanResponse): boolean => response.status === 200 && !response.body.includes('"isError":true') && response.body.includes('"result"');

  // --- the server under test: exactly what npm start runs
  const server = await startServer("mcp-adapter/cli.ts", [], serverEnv());
  children.push(server.child);
  const mcp = new LeanHttpClient(`http://127.0.0.1:${server.port}`, 1_000);

  // Same data on both paths: the tool's text is the upstream body.
  const viaDirect = (await upstream.send(directRequest())).body;
  const viaMcp = JSON.parse((await mcp.send(mcpRequest())).body) as { result: { content: { text: string }[] } };
  const sameBytes = viaMcp.result.content[0]!.text === viaDirect;
  console.log(`get_activity_by_id ${typical.id}: tool text identical to the upstream body: ${sameBytes} (${Buffer.byteLength(viaDirect)} bytes)`);
  report["identicalBody"] = sameBytes;

  const rssSampler = sampleMemory(server.child.pid);
  const headline = await compare("ours (cli.ts)", server.child.pid, upstream, mcp, directRequest, mcpRequest, directOk, mcpOk);
  report["latency"] = headline;

  // --- streams of the 6-hour ride
  const keys = "time,distance,latlng,altitude,velocity_smooth,heartrate,cadence,watts,temp,moving,grade_smooth";
  const keyed = (await upstream.send({ method: "GET", path: `${apiPath}/activities/${longRide.id}/streams?keys=${keys}&key_by_type=true`, headers: apiHeaders })).body;
  const arrayForm = (await upstream.send({ method: "GET", path: `${apiPath}/activities/${longRide.id}/streams?keys=${keys}`, headers: apiHeaders })).body;
  const streamsCall = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_activity_streams", arguments: { id: longRide.id } } });
  const streamsHttp = (await mcp.send({ method: "POST", path: "/mcp", headers: mcpHeaders, body: streamsCall })).body;
  const streamsText = (JSON.parse(streamsHttp) as { result: { content: { text: string }[] } }).result.content[0]!.text;
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
    toolTextEqualsArrayBodyParsed: JSON.stringify(JSON.parse(streamsText)) === JSON.stringify(JSON.parse(arrayForm)),
  };
  report["streams"] = streams;
  console.log(
    `\nstreams of the ${(longRide.elapsed_time / 3600).toFixed(1)} h ride ${longRide.id} (${points} points per stream):\n` +
      `  tool result text      ${streams.toolTextBytes} bytes\n` +
      `  upstream, array form  ${streams.upstreamArrayBodyBytes} bytes (identical text: ${streams.toolTextEqualsArrayBody}; same JSON: ${streams.toolTextEqualsArrayBodyParsed})\n` +
      `  upstream, key_by_type ${streams.upstreamKeyByTypeBodyBytes} bytes (what the tool asks for)\n` +
      `  MCP HTTP body         ${streams.mcpHttpBodyBytes} bytes (the text as a JSON string: quotes escaped)`,
  );


  // --- 1,000 calls at token expiry
  sandbox.resetCounters();
  sandbox.expireAccessTokens();
  const burstClient = new LeanHttpClient(`http://127.0.0.1:${server.port}`, 1_000);
  const burstStarted = performance.now();
  const burst = await Promise.all(Array.from({ length: 1_000 }, () => burstClient.send(mcpRequest())));
  const burstSeconds = (performance.now() - burstStarted) / 1000;
  burstClient.close();
  const counters = sandbox.counters();
  const burstOk = burst.filter(mcpOk).length;
  report["burst"] = { calls: 1_000, succeeded: burstOk, tokenRequests: counters.tokenRequests, apiRequests: counters.apiRequests, seconds: burstSeconds };
  console.log(
    `\nburst at token expiry: 1000 concurrent calls, ${burstOk} succeeded in ${burstSeconds.toFixed(2)} s; ` +
      `token requests: ${counters.tokenRequests} (expected 1); API requests: ${counters.apiRequests} ` +
      "(each call's first try is rejected with 401 unless it starts after the refresh, then retried once)",
  );
  // Our own token expired with the server's: take the new one (the same the server now uses).
  apiHeaders = { authorization: `Bearer ${await accessToken(upstream, sandbox)}` };

  // --- peak memory over everything above
  rssSampler.stop();
  const memory = memoryMiB(server.child.pid);
  report["memory"] = { peakMiB: round(memory.peak), currentMiB: round(memory.current), sampledPeakMiB: round(rssSampler.peak()) };
  console.log(`\nserver memory: peak RSS (VmHWM) ${memory.peak.toFixed(1)} MiB, now ${memory.current.toFixed(1)} MiB`);

  mcp.close();
  const exitCode = await server.child.stop();
  children.splice(children.indexOf(server.child), 1);
  report["serverExitCodeOnSigterm"] = exitCode;
  console.log(`server stopped on SIGTERM with exit code ${exitCode}`);

  // --- alternative builds, each compared with a direct run made right beside it
  if (!flags["no-variants"]) {
    const variants: Record<string, unknown> = {};
    for (const [transport, fetchKind] of [
      ["ours", "builtin"],
      ["sdk-per-request", "node-http"],
      ["sdk-per-request", "builtin"],
    ] as const) {
      const name = `${transport}+${fetchKind}`;
      const variant = await startServer("bench/variant-server.ts", ["--transport", transport, "--fetch", fetchKind], serverEnv());
      children.push(variant.child);
      const client = new LeanHttpClient(`http://127.0.0.1:${variant.port}`, 1_000);
      const sampler = sampleMemory(variant.child.pid);
      const results = await compare(name, variant.child.pid, upstream, client, directRequest, mcpRequest, directOk, mcpOk);
      sampler.stop();
      const variantMemory = memoryMiB(variant.child.pid);
      variants[name] = { results, peakMiB: round(variantMemory.peak) };
      console.log(`  ${name}: peak RSS ${variantMemory.peak.toFixed(1)} MiB`);
      client.close();
      await variant.child.stop();
      children.splice(children.indexOf(variant.child), 1);
    }
    report["variants"] = variants;
  }
  upstream.close();
  report["loadAverageAtEnd"] = loadavg().map((n) => Number(n.toFixed(2)));
  console.log(`\nload average at end: ${loadavg().map((n) => n.toFixed(2)).join(" ")}`);
  if (flags.json) writeFileSync(flags.json, `${JSON.stringify(report, null, 2)}\n`);
} finally {
  for (const child of children.reverse()) await child.stop();
  for (const stop of stoppers) await stop();
  rmSync(scratch, { recursive: true, force: true });
}

interface ComparisonRow {
  concurrency: number;
  direct: LoadResult;
  mcp: LoadResult;
  addedP50Ms: number;
  throughputRatio: number;
  serverCpuUsPerCall: number;
  /** This process (load generator + sandbox), per call of each path. */
  benchCpuUsPerCall: { direct: number; mcp: number };
}

async function compare(
  name: string,
  serverPid: number,
  upstream: LeanHttpClient,
  mcp: LeanHttpClient,
  directRequest: () => LeanRequest,
  mcpRequest: () => LeanRequest,
  directOk: (r: LeanResponse) => boolean,
  mcpOk: (r: LeanResponse) => boolean,
): Promise<ComparisonRow[]> {
  await runClosedLoop({ client: upstream, concurrency: 16, calls: warmupCalls, request: directRequest, check: directOk });
  await runClosedLoop({ client: mcp, concurrency: 16, calls: warmupCalls, request: mcpRequest, check: mcpOk });
  const rows: ComparisonRow[] = [];
  console.log(`\n${name}: tools/call get_activity_by_id through /mcp vs GET /activities/{id} direct`);
  console.log("  conc | direct p50/p95/p99 ms   calls/s | MCP p50/p95/p99 ms      calls/s | added p50 | MCP/direct | server CPU/call | bench process CPU/call direct/MCP");
  for (const concurrency of concurrencies) {
    const calls = callsAt[concurrency]!;
    const benchBefore = cpuMs(process.pid);
    const direct = await runClosedLoop({ client: upstream, concurrency, calls, request: directRequest, check: directOk });
    const benchMid = cpuMs(process.pid);
    const serverBefore = cpuMs(serverPid);
    const viaMcp = await runClosedLoop({ client: mcp, concurrency, calls, request: mcpRequest, check: mcpOk });
    const serverAfter = cpuMs(serverPid);
    const benchAfter = cpuMs(process.pid);
    const row: ComparisonRow = {
      concurrency,
      direct,
      mcp: viaMcp,
      addedP50Ms: viaMcp.p50 - direct.p50,
      throughputRatio: viaMcp.callsPerSecond / direct.callsPerSecond,
      serverCpuUsPerCall: ((serverAfter - serverBefore) * 1000) / calls,
      benchCpuUsPerCall: { direct: ((benchMid - benchBefore) * 1000) / calls, mcp: ((benchAfter - benchMid) * 1000) / calls },
    };
    rows.push(row);
    console.log(
      `  ${String(concurrency).padStart(4)} | ${ms(direct.p50)}/${ms(direct.p95)}/${ms(direct.p99)} ${String(Math.round(direct.callsPerSecond)).padStart(8)} | ` +
        `${ms(viaMcp.p50)}/${ms(viaMcp.p95)}/${ms(viaMcp.p99)} ${String(Math.round(viaMcp.callsPerSecond)).padStart(8)} | ` +
        `${ms(row.addedP50Ms).padStart(9)} | ${(row.throughputRatio * 100).toFixed(0).padStart(9)}% | ${Math.round(row.serverCpuUsPerCall).toString().padStart(12)} µs | ` +
        `${Math.round(row.benchCpuUsPerCall.direct)}/${Math.round(row.benchCpuUsPerCall.mcp)} µs` +
        (direct.errors + viaMcp.errors > 0 ? `  ERRORS direct ${direct.errors} mcp ${viaMcp.errors}` : ""),
    );
  }
  return rows;
}

async function startServer(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ child: StartedChild; port: number }> {
  const child = await startTsChild({
    script,
    args,
    env,
    cwd: root,
    stream: "stderr",
    ready: (line) => line.includes('"event":"listening"'),
  });
  const port = (JSON.parse(child.readyLine) as { port: number }).port;
  return { child, port };
}

function sampleMemory(pid: number): { stop(): void; peak(): number } {
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, memoryMiB(pid).current);
  }, 100);
  return { stop: () => clearInterval(timer), peak: () => peak };
}

/** A refresh of the bench's own: the current access token of the sandbox's seeded grant. */
async function accessToken(client: LeanHttpClient, sandbox: RunningSandbox): Promise<string> {
  const answer = await client.send({
    method: "POST",
    path: new URL(sandbox.tokenUrl).pathname,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
      grant_type: "refresh_token",
      refresh_token: sandbox.refreshToken(),
    }).toString(),
  });
  if (answer.status !== 200) throw new Error(`token refresh for the direct path failed: ${answer.status} ${answer.body}`);
  return (JSON.parse(answer.body) as { access_token: string }).access_token;
}

function ms(value: number): string {
  return value.toFixed(2);
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function gitCommit(): string {
  try {
    return execSync("git rev-parse --short HEAD", { cwd: root }).toString().trim();
  } catch {
    return "unknown";
  }
}

