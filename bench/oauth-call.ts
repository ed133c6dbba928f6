/**
 * `npx tsx bench/oauth-call.ts [calls] [rounds]`: what OAuth mode adds to a tool call, in one run, against
 * bearer mode. Two servers as `npm start` runs them (node mcp-adapter/start.mjs) on one sandbox in this
 * process (rate limits out of the way): one in bearer mode, one in OAuth mode on local files with an athlete
 * signed in through the real sign-in. Calls (get_athlete, one at a time over keep-alive) alternate between
 * the two in rounds; reported per mode: median and 95th-percentile latency, and the server's CPU time per
 * call (from /proc). OAuth mode's extra work per call: the JWT check, reading the grant, and counting the
 * Strava request in the athlete's fair share (a locked, flushed write of the state file).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startSandbox } from "../sandbox/server.ts";
import { cpuMs } from "./child-process.ts";
import { baseEnv, spawnMcpChild } from "../test/mcp-adapter/mcp-child.ts";
import { ManualOAuthClient } from "../test/support/manual-oauth-client.ts";

const calls = Number(process.argv[2] ?? 300);
const rounds = Number(process.argv[3] ?? 3);
const plenty: [number, number] = [10_000_000, 100_000_000];
const sandbox = await startSandbox({ rateLimits: { overall: plenty, read: plenty } });
const directory = mkdtempSync(join(tmpdir(), "oauth-bench-"));
const common = {
  STRAVA_CLIENT_ID: sandbox.clientId,
  STRAVA_CLIENT_SECRET: sandbox.clientSecret,
  STRAVA_API_BASE: sandbox.apiBase,
  STRAVA_TOKEN_URL: sandbox.tokenUrl,
  PORT: "0",
};
const bearer = spawnMcpChild({
  env: baseEnv({
    ...common,
    AUTH_TOKEN: "bench-token-0123456789",
    STRAVA_REFRESH_TOKEN: sandbox.refreshToken(),
    FITNESS_TOKEN_FILE: join(directory, "tokens.json"),
  }),
});
const oauth = spawnMcpChild({
  env: baseEnv({
    ...common,
    MCP_AUTH: "oauth",
    STRAVA_AUTHORIZE_URL: sandbox.authorizeUrl,
    FITNESS_OAUTH_DIR: join(directory, "oauth"),
    STRAVA_RATE_LIMITS: "10000000,100000000,10000000,100000000",
  }),
});
const bearerUrl = String((await bearer.waitForEvent("listening"))["url"]);
const oauthUrl = String((await oauth.waitForEvent("listening"))["url"]);

const client = new ManualOAuthClient(new URL(oauthUrl).origin);
await client.register();
const { code, verifier } = await client.code();
const accessToken = (await client.exchange(code, verifier)).body["access_token"] as string;

const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_athlete", arguments: {} } });
async function measure(url: string, token: string, pid: number): Promise<{ latencies: number[]; cpu: number }> {
  const latencies: number[] = [];
  const cpuBefore = cpuMs(pid);
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        authorization: `Bearer ${token}`,
      },
      body,
    });
    const text = await response.text();
    if (response.status !== 200 || text.includes('"isError":true'))
      throw new Error(`call failed: ${response.status} ${text.slice(0, 300)}`);
    latencies.push(performance.now() - started);
  }
  return { latencies, cpu: (cpuMs(pid) - cpuBefore) / calls };
}

const results = { bearer: { latencies: [] as number[], cpu: [] as number[] }, oauth: { latencies: [] as number[], cpu: [] as number[] } };
await measure(bearerUrl, "bench-token-0123456789", bearer.process.pid as number);
await measure(oauthUrl, accessToken, oauth.process.pid as number);
for (let round = 0; round < rounds; round++) {
  const b = await measure(bearerUrl, "bench-token-0123456789", bearer.process.pid as number);
  const o = await measure(oauthUrl, accessToken, oauth.process.pid as number);
  results.bearer.latencies.push(...b.latencies);
  results.bearer.cpu.push(b.cpu);
  results.oauth.latencies.push(...o.latencies);
  results.oauth.cpu.push(o.cpu);
}
const quantile = (values: number[], q: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] as number;
const median = (values: number[]): number => quantile(values, 0.5);
console.log(
  `machine: ${cpus().length} x ${cpus()[0]?.model}, load ${loadavg()
    .map((v) => v.toFixed(2))
    .join(" ")}; ${rounds} rounds x ${calls} calls each, get_athlete, concurrency 1`,
);
for (const mode of ["bearer", "oauth"] as const) {
  const r = results[mode];
  console.log(
    `${mode.padEnd(6)}  p50 ${median(r.latencies).toFixed(2)} ms  p95 ${quantile(r.latencies, 0.95).toFixed(2)} ms  server CPU ${median(r.cpu).toFixed(2)} ms/call`,
  );
}
await bearer.stop();
await oauth.stop();
await sandbox.close();
rm(directory);
function rm(path: string): void {
  rmSync(resolve(path), { recursive: true, force: true });
}
