/**
 * `npm run bench:oauth-abuse`: what a signed-in athlete feels while anonymous callers flood OAuth mode.
 *
 * OAuth mode runs as `npm start` runs it (node mcp-adapter/start.mjs, local files, MCP_ATHLETES set,
 * MCP_CLIENT_ADDRESS_HEADER so the flood can come from many addresses), on the sandbox in this process
 * (rate limits out of the way, the push subscription created). The athlete signs in through the real
 * sign-in, then calls tools/list and refreshes their token, one after the other over and over; the medians
 * of each are taken in quiet, then while bench/oauth-flood-client.ts (a process of its own) runs each flood:
 *
 * - the unused registrations filled to their 1,000 places from 53 sources first (not measured);
 * - 10,000 registration attempts from 16 streams, each stream one address (past 20, answered 429);
 * - 10,000 registration attempts from 16 streams, each from a new address (all taken, each evicting one);
 * - 1,000 forged deauthorizations of the athlete with the deployment's subscription, each from a new address,
 *   at the webhook's secret address (the worst case: someone who learned it).
 *
 * Targets: medians within 2x of quiet, no 5xx to the athlete, and at most one Strava request per stored
 * athlete for the whole webhook flood. Each flood is compared with the quiet phase before the floods and with
 * the one after them: on this kind of shared machine two quiet phases of one run differ by up to 2x, so
 * one alone can flatter the floods or be harsh on them.
 * Options: --rounds N (legitimate pairs in each quiet phase, default 200), --warmup N (pairs before the
 * first quiet phase, not counted; default 2,000).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { startSandbox } from "../sandbox/server.ts";
import { benchSandboxOptions } from "./bench-sandbox-options.ts";
import { baseEnv, spawnMcpChild } from "../test/mcp-adapter/mcp-child.ts";
import { ManualOAuthClient } from "../test/support/manual-oauth-client.ts";
import { stravaWebhookPath } from "../authorization/strava/webhook-path.ts";

const root = resolve(import.meta.dirname, "..");
const { values: flags } = parseArgs({
  options: { rounds: { type: "string", default: "200" }, warmup: { type: "string", default: "2000" } },
});
const rounds = Number(flags.rounds);
const warmupPairs = Number(flags.warmup);
const athlete = "48201735";
console.log(
  `machine: ${cpus().length} x ${cpus()[0]?.model}, Node ${process.version}, load ${loadavg()
    .map((v) => v.toFixed(2))
    .join(" ")}`,
);

const sandbox = await startSandbox(benchSandboxOptions);
const directory = mkdtempSync(join(tmpdir(), "oauth-abuse-bench-"));
const server = spawnMcpChild({
  env: baseEnv({
    PORT: "0",
    MCP_AUTH: "oauth",
    MCP_ATHLETES: athlete,
    MCP_CLIENT_ADDRESS_HEADER: "x-forwarded-for",
    STRAVA_WEBHOOK_VERIFY_TOKEN: "bench-verify-token",
    STRAVA_CLIENT_ID: sandbox.clientId,
    STRAVA_CLIENT_SECRET: sandbox.clientSecret,
    STRAVA_API_BASE: sandbox.apiBase,
    STRAVA_TOKEN_URL: sandbox.tokenUrl,
    STRAVA_AUTHORIZE_URL: sandbox.authorizeUrl,
    STRAVA_RATE_LIMITS: "10000000,100000000,10000000,100000000",
    FITNESS_OAUTH_DIR: join(directory, "oauth"),
  }),
});
const mcpUrl = String((await server.waitForEvent("listening"))["url"]);
const origin = new URL(mcpUrl).origin;
const signingKey = Buffer.from(readFileSync(join(directory, "oauth", "signing-key"), "utf8").trim(), "base64url");
const webhookUrl = `${origin}${stravaWebhookPath(signingKey)}`;
const subscribed = await fetch(`${sandbox.apiBase}/push_subscriptions`, {
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams({
    client_id: sandbox.clientId,
    client_secret: sandbox.clientSecret,
    callback_url: webhookUrl,
    verify_token: "bench-verify-token",
  }),
});
const subscriptionId = ((await subscribed.json()) as { id: number }).id;

const client = new ManualOAuthClient(origin);
await client.register();
const { code, verifier } = await client.code();
const first = (await client.exchange(code, verifier)).body as { access_token: string; refresh_token: string };
let accessToken = first.access_token;
let refreshToken = first.refresh_token;

interface Sample {
  list: number[];
  refresh: number[];
  serverErrors: number;
}

async function pair(sample: Sample): Promise<void> {
  let started = performance.now();
  const listed = await fetch(mcpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      authorization: `Bearer ${accessToken}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  const text = await listed.text();
  sample.list.push(performance.now() - started);
  if (listed.status >= 500) sample.serverErrors++;
  else if (listed.status !== 200 || !text.includes('"get_activities"'))
    throw new Error(`tools/list failed: ${listed.status} ${text.slice(0, 200)}`);
  started = performance.now();
  const refreshed = await client.token({ grant_type: "refresh_token", refresh_token: refreshToken });
  sample.refresh.push(performance.now() - started);
  if (refreshed.status >= 500) sample.serverErrors++;
  else if (refreshed.status !== 200) throw new Error(`refresh failed: ${refreshed.status} ${JSON.stringify(refreshed.body)}`);
  else {
    accessToken = refreshed.body["access_token"] as string;
    refreshToken = refreshed.body["refresh_token"] as string;
  }
}

async function quiet(pairs = rounds): Promise<Sample> {
  const sample: Sample = { list: [], refresh: [], serverErrors: 0 };
  for (let i = 0; i < pairs; i++) await pair(sample);
  return sample;
}

/** Runs a flood in its own process, measuring the athlete's pairs until it is done. */
async function during(
  kind: string,
  count: number,
): Promise<{ sample: Sample; flood: { statuses: Record<string, number> }; seconds: number }> {
  const sample: Sample = { list: [], refresh: [], serverErrors: 0 };
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "bench/oauth-flood-client.ts",
      kind,
      kind === "webhooks" ? webhookUrl : origin,
      String(count),
      "16",
      String(subscriptionId),
      athlete,
    ],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) => child.on("exit", () => done()));
  let finished = false;
  void exited.then(() => (finished = true));
  while (!finished) await pair(sample);
  await exited;
  return {
    sample,
    flood: JSON.parse(output.trim().split("\n").at(-1) ?? "{}") as { statuses: Record<string, number> },
    seconds: (performance.now() - started) / 1000,
  };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const p95 = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)] ?? Number.NaN;
const ratio = (value: number, base: number): string => `${(value / base).toFixed(2)}x`;
const row = (label: string, sample: Sample, before?: Sample, after?: Sample): string =>
  `${label.padEnd(46)} tools/list p50 ${median(sample.list).toFixed(1).padStart(5)} ms (p95 ${p95(sample.list).toFixed(1)})` +
  `${before && after ? ` ${ratio(median(sample.list), median(before.list))}/${ratio(median(sample.list), median(after.list))}` : ""}` +
  `   refresh p50 ${median(sample.refresh).toFixed(1).padStart(5)} ms (p95 ${p95(sample.refresh).toFixed(1)})` +
  `${before && after ? ` ${ratio(median(sample.refresh), median(before.refresh))}/${ratio(median(sample.refresh), median(after.refresh))}` : ""}` +
  `   n=${sample.list.length}   5xx ${sample.serverErrors}`;

const stravaAthleteRequests = async (): Promise<number> => sandbox.counters().byRoute["GET /athlete"] ?? 0;

await quiet(warmupPairs); // warm-up: the JIT and the first files, not counted
const before = await quiet();
const fill = await during("fill", 1_060);
const oneSource = await during("registrations-one-source", 10_000);
const manySources = await during("registrations-many-sources", 10_000);
const athleteBefore = await stravaAthleteRequests();
const webhooks = await during("webhooks", 1_000);
const athleteRequests = (await stravaAthleteRequests()) - athleteBefore;
const after = await quiet();
console.log("ratios: against the quiet phase before the floods / after them");
console.log(row("quiet", before));
for (const [label, phase] of [
  [`filling 1,000 places (53 sources, ${fill.seconds.toFixed(0)} s)`, fill],
  [`10,000 registrations, 16 sources (${oneSource.seconds.toFixed(0)} s)`, oneSource],
  [`10,000 registrations, new source each (${manySources.seconds.toFixed(0)} s)`, manySources],
  [`1,000 forged webhooks (${webhooks.seconds.toFixed(0)} s)`, webhooks],
] as const) {
  console.log(row(label, phase.sample, before, after), JSON.stringify(phase.flood.statuses));
}
console.log(row("quiet again", after));
console.log(`Strava requests for the stored athlete during the webhook flood: ${athleteRequests} GET /athlete`);
const logLines = server.stderrLines.length;
console.log(`server log lines in all: ${logLines}`);

await server.stop();
await sandbox.close();
rmSync(directory, { recursive: true, force: true });
