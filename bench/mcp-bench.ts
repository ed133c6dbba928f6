/**
 * `npm run bench:mcp`: Form A against the sandbox on loopback, in one run.
 *
 * Three processes: this one (the load generator, bench/lean-http-client.ts: raw JSON-RPC POSTs over
 * keep-alive node:http), the sandbox (bench/sandbox-process.ts, rate limits out of the way) and the
 * server under test (mcp-adapter/cli.ts run as `npm start` runs it, through tsx, pointed at the sandbox
 * through the STRAVA_* variables). Both paths cross a process boundary to reach the sandbox, so "added"
 * latency is the cost of the extra hop through the server. Measured:
 *
 * 1. tools/call get_activity_by_id through POST /mcp against GET /api/v3/activities/{id} sent straight
 *    to the sandbox with the same access token, at concurrency 1, 16 and 64: p50/p95/p99 latency, calls
 *    per second, and the CPU time each process spent per call (from /proc);
 * 2. the bytes of the 6-hour ride's streams through get_activity_streams against the upstream's bodies;
 * 3. a burst of 1,000 concurrent calls right after every access token expired: token requests counted
 *    by the sandbox (exactly 1 expected);
 * 4. the server's peak resident memory (VmHWM) over all of the above;
 * 5. the same runs against other builds, each beside a fresh direct run: this server compiled to plain
 *    JavaScript (no tsx), without its router shortcut, with Node's built-in fetch, the SDK's documented
 *    per-request pattern (bench/variant-server.ts), and a bare node:http pass-through as the floor.
 *
 * Options: --quick (fewer calls), --no-variants, --json FILE (every figure as JSON).
 */
import { execSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { cpuMs, memoryMiB, startTsChild, type StartedChild } from "./child-process.ts";
import { compileServer } from "./compile-server.ts";
import { LeanHttpClient, runClosedLoop, type LeanRequest, type LeanResponse, type LoadResult } from "./lean-http-client.ts";

const root = resolve(import.meta.dirname, "..");
const { values: flags } = parseArgs({
  options: { quick: { type: "boolean", default: false }, "no-variants": { type: "boolean", default: false }, json: { type: "string" } },
});
const concurrencies = [1, 16, 64] as const;
const callsAt: Record<number, number> = flags.quick ? { 1: 300, 16: 1_000, 64: 2_000 } : { 1: 2_000, 16: 5_000, 64: 8_000 };
const warmupCalls = flags.quick ? 500 : 3_000;
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
try {
  // --- the upstream, in its own process
  const sandboxChild = await startTsChild({ script: "bench/sandbox-process.ts", env: process.env, cwd: root, stream: "stdout", ready: (line) => line.startsWith("{") });
  children.push(sandboxChild);
  const sandbox = JSON.parse(sandboxChild.readyLine) as { baseUrl: string; apiBase: string; tokenUrl: string };
  const upstream = new LeanHttpClient(sandbox.baseUrl, 1_000);
  const apiPath = new URL(sandbox.apiBase).pathname;
  const control = async (method: "GET" | "POST", name: string): Promise<Record<string, unknown>> =>
    JSON.parse((await upstream.send({ method, path: `/_sandbox/${name}`, headers: {} })).body) as Record<string, unknown>;
  const credentials = async () => (await control("GET", "credentials")) as { client_id: string; client_secret: string; refresh_token: string };

  // The direct path's access token: a refresh of our own. The sandbox (like Strava) hands the server
  // the same access token when it refreshes with more than an hour left, so both paths use one token.
  const accessToken = async (): Promise<string> => {
    const current = await credentials();
    const answer = await upstream.send({
      method: "POST",
      path: new URL(sandbox.tokenUrl).pathname,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: current.client_id, client_secret: current.client_secret, grant_type: "refresh_token", refresh_token: current.refresh_token }).toString(),
    });
    if (answer.status !== 200) throw new Error(`token refresh for the direct path failed: ${answer.status} ${answer.body}`);
    return (JSON.parse(answer.body) as { access_token: string }).access_token;
  };
  let token = await accessToken();
  const apiHeaders = (): Record<string, string> => ({ authorization: `Bearer ${token}` });

  const activities = JSON.parse((await upstream.send({ method: "GET", path: `${apiPath}/athlete/activities?per_page=200`, headers: apiHeaders() })).body) as {
    id: number;
    elapsed_time: number;
    sport_type: string;
  }[];
  const typical = activities.find((a) => a.sport_type === "Run") ?? activities[0]!;
  const longRide = activities.reduce((a, b) => (b.elapsed_time > a.elapsed_time ? b : a));
  const serverEnv = async (): Promise<NodeJS.ProcessEnv> => {
    const current = await credentials();
    return {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: "0",
      AUTH_TOKEN: authToken,
      LOG_LEVEL: "info",
      STRAVA_CLIENT_ID: current.client_id,
      STRAVA_CLIENT_SECRET: current.client_secret,
      STRAVA_REFRESH_TOKEN: current.refresh_token,
      STRAVA_API_BASE: sandbox.apiBase,
      STRAVA_TOKEN_URL: sandbox.tokenUrl,
      FITNESS_TOKEN_FILE: join(scratch, `tokens-${Math.random().toString(36).slice(2)}.json`),
      UPSTREAM_API_BASE: sandbox.apiBase,
      UPSTREAM_ACCESS_TOKEN: token,
    };
  };

  const directRequest = (): LeanRequest => ({ method: "GET", path: `${apiPath}/activities/${typical.id}`, headers: apiHeaders() });
  const callBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_activity_by_id", arguments: { id: typical.id } } });
  const mcpRequest = (): LeanRequest => ({ method: "POST", path: "/mcp", headers: mcpHeaders, body: callBody });
  const directOk = (response: LeanResponse): boolean => response.status === 200;
  const mcpOk = (response: LeanResponse): boolean => response.status === 200 && !response.body.includes('"isError":true') && response.body.includes('"result"');

  /** 1,000 concurrent calls right after every access token expired; token requests counted by the sandbox. */
  const burstAtExpiry = async (port: number) => {
    await control("POST", "reset-counters");
    await control("POST", "expire-tokens");
    const client = new LeanHttpClient(`http://127.0.0.1:${port}`, 1_000);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 1_000 }, () => client.send(mcpRequest())));
    const seconds = (performance.now() - started) / 1000;
    client.close();
    const counters = (await control("GET", "counters")) as { tokenRequests: number; apiRequests: number };
    // Our own token expired with the server's: take the new one (the same the server now uses).
    token = await accessToken();
    return { calls: 1_000, succeeded: answers.filter(mcpOk).length, tokenRequests: counters.tokenRequests, apiRequests: counters.apiRequests, seconds };
  };

  const compare = async (name: string, serverPid: number, mcp: LeanHttpClient): Promise<ComparisonRow[]> => {
    await runClosedLoop({ client: upstream, concurrency: 16, calls: warmupCalls, request: directRequest, check: directOk });
    await runClosedLoop({ client: mcp, concurrency: 16, calls: warmupCalls, request: mcpRequest, check: mcpOk });
    const rows: ComparisonRow[] = [];
    console.log(`\n${name}`);
    console.log("  conc | direct p50/p95/p99 ms    calls/s | MCP p50/p95/p99 ms       calls/s | added p50 | MCP/direct | CPU per MCP call: server, sandbox, client");
    for (const concurrency of concurrencies) {
      const calls = callsAt[concurrency]!;
      const direct = await runClosedLoop({ client: upstream, concurrency, calls, request: directRequest, check: directOk });
      const before = { server: cpuMs(serverPid), sandbox: cpuMs(sandboxChild.pid), client: cpuMs(process.pid) };
      const viaMcp = await runClosedLoop({ client: mcp, concurrency, calls, request: mcpRequest, check: mcpOk });
      const perCall = (now: number, then: number): number => ((now - then) * 1000) / calls;
      const row: ComparisonRow = {
        concurrency,
        direct,
        mcp: viaMcp,
        addedP50Ms: viaMcp.p50 - direct.p50,
        throughputRatio: viaMcp.callsPerSecond / direct.callsPerSecond,
        cpuUsPerMcpCall: {
          server: perCall(cpuMs(serverPid), before.server),
          sandbox: perCall(cpuMs(sandboxChild.pid), before.sandbox),
          client: perCall(cpuMs(process.pid), before.client),
        },
      };
      rows.push(row);
      console.log(
        `  ${String(concurrency).padStart(4)} | ${ms(direct.p50)}/${ms(direct.p95)}/${ms(direct.p99)} ${String(Math.round(direct.callsPerSecond)).padStart(8)} | ` +
          `${ms(viaMcp.p50)}/${ms(viaMcp.p95)}/${ms(viaMcp.p99)} ${String(Math.round(viaMcp.callsPerSecond)).padStart(8)} | ` +
          `${ms(row.addedP50Ms).padStart(9)} | ${(row.throughputRatio * 100).toFixed(0).padStart(9)}% | ` +
          `${Math.round(row.cpuUsPerMcpCall.server)} µs, ${Math.round(row.cpuUsPerMcpCall.sandbox)} µs, ${Math.round(row.cpuUsPerMcpCall.client)} µs` +
          (direct.errors + viaMcp.errors > 0 ? `  ERRORS direct ${direct.errors} mcp ${viaMcp.errors}` : ""),
      );
    }
    return rows;
  };

  // --- the server under test: what npm start runs
  const server = await startServer("mcp-adapter/cli.ts", [], await serverEnv());
  children.push(server.child);
  const mcp = new LeanHttpClient(`http://127.0.0.1:${server.port}`, 1_000);

  // Same data on both paths: the tool's text is the upstream body.
  const viaDirect = (await upstream.send(directRequest())).body;
  const viaMcp = JSON.parse((await mcp.send(mcpRequest())).body) as { result: { content: { text: string }[] } };
  const sameBytes = viaMcp.result.content[0]!.text === viaDirect;
  console.log(`get_activity_by_id ${typical.id}: tool text identical to the upstream body: ${sameBytes} (${Buffer.byteLength(viaDirect)} bytes)`);
  report["identicalBody"] = { identical: sameBytes, bytes: Buffer.byteLength(viaDirect) };
  console.log(`server RSS after start: ${memoryMiB(server.child.pid).current.toFixed(1)} MiB`);
  report["startRssMiB"] = round(memoryMiB(server.child.pid).current);

  const headline = await compare("Form A as npm start runs it (tsx): tools/call get_activity_by_id via /mcp vs GET /activities/{id} direct", server.child.pid, mcp);
  report["latency"] = headline;

  // --- streams of the 6-hour ride
  const keys = "time,distance,latlng,altitude,velocity_smooth,heartrate,cadence,watts,temp,moving,grade_smooth";
  const keyed = (await upstream.send({ method: "GET", path: `${apiPath}/activities/${longRide.id}/streams?keys=${keys}&key_by_type=true`, headers: apiHeaders() })).body;
  const arrayForm = (await upstream.send({ method: "GET", path: `${apiPath}/activities/${longRide.id}/streams?keys=${keys}`, headers: apiHeaders() })).body;
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
  };
  report["streams"] = streams;
  console.log(
    `\nstreams of the ${(longRide.elapsed_time / 3600).toFixed(1)} h ride ${longRide.id} (${points} points per stream, all 11 types):\n` +
      `  tool result text                          ${streams.toolTextBytes} bytes\n` +
      `  upstream body without key_by_type (array) ${streams.upstreamArrayBodyBytes} bytes (byte-identical to the tool text: ${streams.toolTextEqualsArrayBody})\n` +
      `  upstream body with key_by_type=true       ${streams.upstreamKeyByTypeBodyBytes} bytes (what the tool requests)\n` +
      `  MCP HTTP response body                    ${streams.mcpHttpBodyBytes} bytes (the text as a JSON string inside the JSON-RPC result)`,
  );

  // --- 1,000 calls at token expiry
  const burst = await burstAtExpiry(server.port);
  report["burst"] = burst;
  console.log(
    `\nburst at token expiry: 1000 concurrent calls, ${burst.succeeded} succeeded in ${burst.seconds.toFixed(2)} s; ` +
      `token requests: ${burst.tokenRequests} (expected 1); API requests: ${burst.apiRequests} ` +
      "(a call's first try is rejected with 401 unless it starts after the refresh; then it is retried once)",
  );

  // --- peak memory over everything above
  const memory = memoryMiB(server.child.pid);
  report["memory"] = { peakMiB: round(memory.peak), afterMiB: round(memory.current) };
  console.log(`\nserver memory: peak RSS (VmHWM) ${memory.peak.toFixed(1)} MiB over the whole run, ${memory.current.toFixed(1)} MiB at the end`);

  mcp.close();
  const exitCode = await server.child.stop();
  children.splice(children.indexOf(server.child), 1);
  report["serverExitCodeOnSigterm"] = exitCode;
  console.log(`server stopped on SIGTERM with exit code ${exitCode}`);

  // --- other builds, each compared with a direct run made right beside it
  if (!flags["no-variants"]) {
    const variants: Record<string, unknown> = {};
    const compiled = await compileServer(root, "mcp-adapter/cli.ts", join(scratch, "compiled"));
    const builds: { name: string; script: string; args: string[]; plainNode?: boolean; nodeOptions?: string; burst: boolean }[] = [
      { name: "Form A compiled to JavaScript, plain node", script: compiled, args: [], plainNode: true, burst: true },
      { name: "Form A compiled, plain node, --max-semi-space-size=4", script: compiled, args: [], plainNode: true, nodeOptions: "--max-semi-space-size=4", burst: true },
      { name: "Form A without the POST /mcp shortcut (through the express router)", script: "bench/variant-server.ts", args: ["--shortcut", "off"], burst: true },
      { name: "Form A with Node's built-in fetch to the upstream", script: "bench/variant-server.ts", args: ["--fetch", "builtin"], burst: true },
      { name: "SDK per request (new Server + StreamableHTTPServerTransport per POST), built-in fetch", script: "bench/variant-server.ts", args: ["--transport", "sdk-per-request", "--fetch", "builtin"], burst: true },
      { name: "Floor: bare node:http pass-through (no MCP, no checks)", script: "bench/raw-proxy-server.ts", args: [], burst: false },
    ];
    for (const build of builds) {
      const env = await serverEnv();
      if (build.nodeOptions) env["NODE_OPTIONS"] = build.nodeOptions;
      const variant = await startServer(build.script, build.args, env, build.plainNode);
      children.push(variant.child);
      const client = new LeanHttpClient(`http://127.0.0.1:${variant.port}`, 1_000);
      const results = await compare(build.name, variant.child.pid, client);
      const variantBurst = build.burst ? await burstAtExpiry(variant.port) : undefined;
      const variantMemory = memoryMiB(variant.child.pid);
      variants[build.name] = { results, burst: variantBurst, peakMiB: round(variantMemory.peak) };
      console.log(
        (variantBurst ? `  burst at expiry: ${variantBurst.succeeded}/1000 succeeded, ${variantBurst.tokenRequests} token request(s); ` : "  ") +
          `peak RSS (VmHWM): ${variantMemory.peak.toFixed(1)} MiB`,
      );
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
  rmSync(scratch, { recursive: true, force: true });
}

interface ComparisonRow {
  concurrency: number;
  direct: LoadResult;
  mcp: LoadResult;
  addedP50Ms: number;
  throughputRatio: number;
  /** CPU time (user + system) per MCP call of each process during the MCP run. */
  cpuUsPerMcpCall: { server: number; sandbox: number; client: number };
}

async function startServer(script: string, args: string[], env: NodeJS.ProcessEnv, plainNode = false): Promise<{ child: StartedChild; port: number }> {
  const child = await startTsChild({ script, args, env, cwd: root, stream: "stderr", ready: (line) => line.includes('"event":"listening"'), plainNode });
  const port = (JSON.parse(child.readyLine) as { port: number }).port;
  return { child, port };
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
