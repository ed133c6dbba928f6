/**
 * The hosted deployment's function, as built for Lambda (the esbuild bundle the template deploys), run
 * behind the local stand-in for its function URL (`npm run hosted -- --bundle`): settings as the template
 * sets them, state in DynamoDB, the signing key and the Strava application in Secrets Manager (moto), and
 * the sandbox as Strava. The SDK client signs in through it and calls tools; cookies travel in the
 * event's `cookies`, bodies base64-encoded, as a function URL sends them. A function that cannot start
 * (its Strava secret is missing) tells its anonymous callers nothing of why, logs why, and does not ask
 * Secrets Manager again on every request; one without any Strava application does not start either
 * (the built-in sandbox stands in for Strava only on a loopback PUBLIC_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateSecretCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { buildHostedFunction } from "../../../build/hosted-function.ts";
import { startSandbox, type RunningSandbox } from "../../../sandbox/server.ts";
import { baseEnv, repositoryRoot } from "../mcp-child.ts";
import { startMotoServer, type MotoServer } from "../../support/moto-server.ts";
import { createOAuthResources } from "../../support/oauth-aws.ts";
import { connectWithOAuth, rawToolCall, resultText } from "../../support/oauth-session.ts";
import { RecordingOAuthProvider } from "../../support/sdk-oauth-provider.ts";
import { clearOfWindowTurn, hourMs } from "../../support/window-turns.ts";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { promisify } from "node:util";
import { createInterface } from "node:readline";

const execFileAsync = promisify(execFile);
let moto: MotoServer;
let sandbox: RunningSandbox;
let bundleFile = "";
let origin = "";
let bundleDirectory: string;
let lines: string[] = [];
const runners: ChildProcess[] = [];
const savedEnv = { ...process.env };

/** The bundle behind the local function URL, with the template's settings plus `env`: its origin and its log lines. */
async function startFunction(env: Record<string, string> = {}): Promise<{ origin: string; lines: string[] }> {
  const output: string[] = [];
  const runner = spawn(process.execPath, ["--import", "tsx", "mcp-adapter/hosted/local-function-url-cli.ts", "--bundle", bundleFile], {
    cwd: repositoryRoot,
    env: baseEnv({
      ...moto.env,
      PORT: "0",
      MCP_AUTH: "oauth",
      MCP_OAUTH_TABLE: "hosted-oauth",
      MCP_SIGNING_KEY_SECRET: "hosted-signing-key",
      FITNESS_SECRET_NAME: "hosted-strava-app",
      STRAVA_API_BASE: sandbox.apiBase,
      STRAVA_TOKEN_URL: sandbox.tokenUrl,
      STRAVA_AUTHORIZE_URL: sandbox.authorizeUrl,
      ...env,
    }),
    stdio: ["ignore", "ignore", "pipe"],
  });
  runners.push(runner);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the local function URL did not start:\n${output.join("\n")}`)), 30_000);
    createInterface({ input: runner.stderr! }).on("line", (line) => {
      output.push(line);
      if (line.includes('"event":"local_function_url"')) {
        clearTimeout(timer);
        resolve(String((JSON.parse(line) as { url: string }).url));
      }
    });
  });
  return { origin: url, lines: output };
}

beforeAll(async () => {
  moto = await startMotoServer();
  Object.assign(process.env, moto.env);
  await createOAuthResources({ table: "hosted-oauth", secret: "hosted-signing-key" });
  sandbox = await startSandbox({ secondAthlete: true });
  const secrets = new SecretsManagerClient({ region: "us-west-2" });
  await secrets.send(
    new CreateSecretCommand({
      Name: "hosted-strava-app",
      SecretString: JSON.stringify({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret }),
    }),
  );
  secrets.destroy();
  bundleDirectory = mkdtempSync(join(tmpdir(), "hosted-bundle-"));
  bundleFile = (await buildHostedFunction(bundleDirectory)).file;
  ({ origin, lines } = await startFunction());
}, 120_000);

afterAll(async () => {
  for (const runner of runners) runner.kill("SIGTERM");
  await sandbox?.close();
  await moto?.stop();
  if (bundleDirectory) rmSync(bundleDirectory, { recursive: true, force: true });
  process.env = savedEnv;
});

describe("the hosted function behind its function URL", () => {
  // This test's sign-in registers a client from this machine's address, and the next one counts it among the 20 it
  // may register an hour: both must fall in one hour of the clock, as the table counts them, or the next one is let
  // register 20 and fails. So this one starts only with both tests' time (their timeouts) left in the hour.
  it("serves discovery, the sign-in and tool calls from the deployed bundle", { timeout: 185_000 }, async () => {
    await clearOfWindowTurn(hourMs, 120_000);
    const health = (await (await fetch(`${origin}/health`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: "ok", auth: "oauth", upstream: "sandbox", issuer: origin });
    const unauthenticated = await rawToolCall(`${origin}/mcp`, undefined, "get_athlete");
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get("www-authenticate")).toContain(
      `resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    );

    const provider = new RecordingOAuthProvider();
    const client = await connectWithOAuth(`${origin}/mcp`, provider);
    if (!client) throw new Error(`sign-in failed: ${JSON.stringify(provider.outcome).slice(0, 1500)}\n${lines.join("\n")}`);
    expect(provider.outcome?.callback?.searchParams.get("iss")).toBe(origin);
    expect((await client.listTools()).tools).toHaveLength(11);
    expect(resultText(await client.callTool({ name: "get_athlete", arguments: {} }))).toContain('"firstname":"Maya"');
    // The bundle is minified: an error still carries its class's name into the log (kept by the shared
    // bundle options), which is what an operator searches CloudWatch for.
    expect((await client.callTool({ name: "get_activity_by_id", arguments: { id: 999_999_999 } })).isError).toBe(true);
    await client.close();
    const failed = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line["event"] === "tool_call_failed");
    expect(failed).toMatchObject({ tool: "get_activity_by_id", kind: "UpstreamStatusError", status: 404 });
    expect(lines.some((line) => line.includes('"event":"hosted_ready"'))).toBe(true);
    const leaked = lines.filter((line) =>
      [provider.tokens()?.access_token, provider.tokens()?.refresh_token].some((secret) => secret && line.includes(secret)),
    );
    expect(leaked).toEqual([]);
  });

  it("counts registrations per source in the table: past 20 an hour, 429 with Retry-After", { timeout: 60_000 }, async () => {
    const register = (): Promise<Response> =>
      fetch(`${origin}/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_name: "Flood", redirect_uris: ["http://127.0.0.1:47615/cb"], token_endpoint_auth_method: "none" }),
      });
    // The sign-in above registered once from this address.
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await register()).status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(19);
    const refused = await register();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it(
    "a function that cannot start answers a plain 503 without its secret's name, region or AWS's words, logs why, and retries at most every 30 s",
    { timeout: 60_000 },
    async () => {
      const broken = await startFunction({ FITNESS_SECRET_NAME: "hosted-missing-strava-app" });
      const answers = [];
      for (let request = 0; request < 12; request++) {
        const path = ["/health", "/mcp", "/authorize", "/token", "/.well-known/oauth-authorization-server", "/nowhere"][
          request % 6
        ] as string;
        const response = await fetch(`${broken.origin}${path}`, { method: path === "/mcp" || path === "/token" ? "POST" : "GET" });
        answers.push({ status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.text() });
      }
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expect(JSON.parse(answer.body)).toMatchObject({ error: "temporarily_unavailable" });
        expect(answer.body).not.toMatch(/hosted-missing-strava-app|us-west-2|ResourceNotFound|Secrets Manager can|arn:aws/i);
        expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(Number(answer.retryAfter)).toBeLessThanOrEqual(30);
      }
      // One attempt for all twelve requests, and the log says what went wrong.
      const failures = broken.lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line["event"] === "startup_failed");
      expect(failures).toHaveLength(1);
      expect(JSON.stringify(failures[0])).toMatch(/hosted-missing-strava-app|ResourceNotFound/);
      expect(failures[0]).toMatchObject({ retry_in_s: 30 });
    },
  );

  it(
    "a deployment without its Strava application refuses to start (generic 503) rather than serve the built-in sandbox",
    { timeout: 60_000 },
    async () => {
      // Locally (PUBLIC_URL on loopback) no application means the sandbox plays Strava; anywhere else it is a failed start.
      const bare = await startFunction({ FITNESS_SECRET_NAME: "", PUBLIC_URL: "https://fitness.example.com", MCP_ATHLETES: "48201735" });
      const response = await fetch(`${bare.origin}/health`);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ error: "temporarily_unavailable" });
      const failure = bare.lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line["event"] === "startup_failed");
      expect(JSON.stringify(failure)).toContain("No Strava application: set FITNESS_SECRET_NAME");
      expect(bare.lines.some((line) => line.includes('"event":"upstream_sandbox"'))).toBe(false);
    },
  );

  it(
    "takes Strava's push subscription at the secret address oauth-admin prints from the table's setup; the old path is 404",
    { timeout: 60_000 },
    async () => {
      const subscribed = await startFunction({ STRAVA_WEBHOOK_VERIFY_TOKEN: "hosted-verify-token" });
      // Not spawnSync: moto is reached through a proxy in this process, which must keep running meanwhile.
      const printed = await execFileAsync(process.execPath, ["--import", "tsx", "authorization/oauth-admin-cli.ts", "webhook"], {
        cwd: repositoryRoot,
        env: baseEnv({
          ...moto.env,
          MCP_OAUTH_TABLE: "hosted-oauth",
          MCP_SIGNING_KEY_SECRET: "hosted-signing-key",
          FITNESS_SECRET_NAME: "hosted-strava-app",
          PUBLIC_URL: subscribed.origin,
          STRAVA_API_BASE: sandbox.apiBase,
        }),
        encoding: "utf8",
      });
      const callbackUrl = /^ {2}(http\S+\/strava\/webhook\/[A-Za-z0-9_-]{43})$/m.exec(printed.stdout)?.[1];
      if (callbackUrl === undefined) throw new Error(`no address in:\n${printed.stdout}`);
      expect(printed.stdout).toContain(`curl -G ${sandbox.apiBase}/push_subscriptions -d client_id=${sandbox.clientId}`);
      const subscribe = (callback: string): Promise<Response> =>
        fetch(`${sandbox.apiBase}/push_subscriptions`, {
          method: "POST",
          body: new URLSearchParams({
            client_id: sandbox.clientId,
            client_secret: sandbox.clientSecret,
            callback_url: callback,
            verify_token: "hosted-verify-token",
          }),
        });
      // Strava's check of the old address finds nothing there; at the printed one it passes.
      expect((await subscribe(`${subscribed.origin}/strava/webhook`)).status).toBe(400);
      expect((await subscribe(callbackUrl)).status).toBe(201);
      expect(subscribed.lines.filter((line) => line.includes(callbackUrl.split("/").at(-1) as string))).toEqual([]);
    },
  );
});
