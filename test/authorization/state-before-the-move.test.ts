/**
 * State written by OAuth mode before its move into authorization/ and its store's split by concern is read as it
 * is, with nothing to migrate: the code of today starts on a state directory and on a DynamoDB table (moto) that
 * the code of commit 5269a81 wrote (test/authorization/fixtures/before-the-move/, made by
 * fixtures/make-state-before-the-move.ts in a checkout of that commit: Maya signed in first and owns the server,
 * then Jonas signed in beside her, and Maya's client refreshed once), and then:
 *
 * - every grant refreshes with the refresh token its client kept, and the new access token calls a tool for
 *   that grant's athlete, whose Strava tokens, read from where the old code kept them, work and rotate there;
 * - started without MCP_ATHLETES, the owner the old code recorded is the athlete served, and the other is not.
 *
 * The code runs in this process, as the hosted function runs it (the web-standard handler over the route
 * table), so that the clock can be the one the fixtures were written at, an hour later: `Date` is set there for
 * everything in this process (the grants', the tokens' and the MCP SDK's expiry checks alike), whatever day the
 * suite runs on. The sandbox that issued the athletes' Strava tokens went with its process; each test starts one
 * told to accept the refresh tokens the fixtures hold (`keptGrants`), as a Strava that kept running would.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { chmodSync, cpSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { DynamoDBClient, PutItemCommand, type AttributeValue } from "@aws-sdk/client-dynamodb";
import { PutSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { silentLogger } from "../../common/logger.ts";
import { createHttpSender } from "../../common/upstream/http-exchange.ts";
import { toolTable } from "../../tools/table.ts";
import { oauthSettingsFromEnv } from "../../authorization/oauth-settings.ts";
import { startOAuthMode, type StartedOAuthMode } from "../../authorization/start-oauth-mode.ts";
import { createOAuthWebHandler, type OAuthWebHandler } from "../../mcp-adapter/http/oauth-web-handler.ts";
import { athleteSessionOf } from "../../mcp-adapter/server/athlete-session.ts";
import { CallsInFlight } from "../../mcp-adapter/server/calls-in-flight.ts";
import { createMcpServerFactory } from "../../mcp-adapter/server/create-mcp-server.ts";
import { buildToolCatalog } from "../../mcp-adapter/server/tool-catalog.ts";
import { readServerIdentity } from "../../mcp-adapter/server-identity.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { scratchDirectory } from "../mcp-adapter/mcp-child.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { createOAuthResources } from "../support/oauth-aws.ts";

const fixtures = join(import.meta.dirname, "fixtures", "before-the-move");

interface GrantHeld {
  athlete: string;
  clientId: string;
  refreshToken: string;
}
interface Written {
  issuer: string;
  grants: GrantHeld[];
  stravaRefreshTokens: Record<string, string>;
}
const manifest = JSON.parse(readFileSync(join(fixtures, "manifest.json"), "utf8")) as {
  commit: string;
  writtenAtMs: number;
  owner: string;
  athletes: string[];
  files: Written;
  dynamoDb: Written & { table: string; signingKeySecret: { name: string; value: string } };
};

const scratch = scratchDirectory();
const savedEnv = { ...process.env };
let moto: MotoServer;
const running: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  // An hour after the old code wrote its state: its access tokens have expired, its grants and Strava tokens have not.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(manifest.writtenAtMs + 3_600_000);
  moto = await startMotoServer();
  Object.assign(process.env, moto.env);
}, 60_000);

afterAll(async () => {
  await Promise.all(running.map((started) => started.close()));
  await moto?.stop();
  process.env = savedEnv;
  vi.useRealTimers();
  scratch.remove();
});

/** A copy of the old state directory, private as the store requires (git keeps no modes). */
function stateDirectoryCopy(name: string): string {
  const directory = join(scratch.path, name);
  cpSync(join(fixtures, "state"), directory, { recursive: true });
  const tighten = (path: string): void => {
    if (statSync(path).isDirectory()) {
      chmodSync(path, 0o700);
      for (const entry of readdirSync(path)) tighten(join(path, entry));
    } else chmodSync(path, 0o600);
  };
  tighten(directory);
  return directory;
}

/** The old table's items and signing key, restored into a new table and secret made as the hosted template makes them. */
async function tableCopy(name: string): Promise<{ table: string; secret: string }> {
  const names = { table: name, secret: `${name}-key` };
  await createOAuthResources(names);
  const secrets = new SecretsManagerClient({ region: "us-west-2" });
  await secrets.send(new PutSecretValueCommand({ SecretId: names.secret, SecretString: manifest.dynamoDb.signingKeySecret.value }));
  secrets.destroy();
  const dynamoDb = new DynamoDBClient({ region: "us-west-2" });
  const items = JSON.parse(readFileSync(join(fixtures, "dynamodb-items.json"), "utf8")) as Record<string, Record<string, unknown>>[];
  for (const item of items) {
    const restored = Object.fromEntries(
      Object.entries(item).map(([attribute, value]) => [
        attribute,
        typeof value["B"] === "string" ? { B: Buffer.from(value["B"], "base64") } : value,
      ]),
    ) as unknown as Record<string, AttributeValue>;
    await dynamoDb.send(new PutItemCommand({ TableName: names.table, Item: restored }));
  }
  dynamoDb.destroy();
  return names;
}

/** A Strava that kept running: it accepts the athletes' refresh tokens the old code stored. */
async function stravaThatKeptRunning(written: Written): Promise<RunningSandbox> {
  const sandbox = await startSandbox({
    secondAthlete: true,
    keptGrants: Object.entries(written.stravaRefreshTokens).map(([athlete, refreshToken]) => ({
      athleteId: Number(athlete),
      refreshToken,
    })),
  });
  running.push(sandbox);
  return sandbox;
}

/** Today's code started on that state, as the hosted function starts (in this process, so on this process's clock). */
async function startToday(
  issuer: string,
  env: Record<string, string>,
  sandbox: RunningSandbox,
): Promise<StartedOAuthMode & { fetch: OAuthWebHandler["fetch"] }> {
  const timeoutMs = 10_000;
  const started = await startOAuthMode({
    env,
    settings: oauthSettingsFromEnv(env, "127.0.0.1"),
    issuer,
    serverName: "openclaw-fitness",
    logger: silentLogger,
    rescueTokens: false,
    upstream: {
      strava: {
        clientId: sandbox.clientId,
        clientSecret: sandbox.clientSecret,
        authorizeUrl: sandbox.authorizeUrl,
        tokenUrl: sandbox.tokenUrl,
        revokeUrl: sandbox.revokeUrl,
        timeoutMs,
        http: createHttpSender(),
      },
      settings: { apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl, timeoutMs },
      storeTimeoutMs: 5_000,
    },
  });
  const factory = createMcpServerFactory({
    identity: readServerIdentity(),
    catalog: buildToolCatalog(toolTable),
    calls: new CallsInFlight(),
    logger: silentLogger,
    session: athleteSessionOf((athleteId) => started.app.sessions.depsFor(athleteId)),
  });
  const handler = createOAuthWebHandler({
    app: started.app,
    factory,
    logger: silentLogger,
    maxRequestBodySize: 1 << 20,
    health: () => ({}),
  });
  running.push(handler);
  return { ...started, fetch: (request) => handler.fetch(request, "127.0.0.1") };
}

async function refreshed(
  fetch: OAuthWebHandler["fetch"],
  issuer: string,
  grant: GrantHeld,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await fetch(
    new Request(`${issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: grant.refreshToken, client_id: grant.clientId }),
    }),
  );
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

/** The athlete get_athlete answers for, as the tool's text says. */
async function athleteCalled(fetch: OAuthWebHandler["fetch"], issuer: string, accessToken: string): Promise<number | undefined> {
  const answer = await fetch(
    new Request(`${issuer}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        authorization: `Bearer ${accessToken}`,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_athlete", arguments: {} } }),
    }),
  );
  const text = await answer.text();
  const reply = JSON.parse(text.startsWith("{") ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? "{}")) as {
    result?: { content?: { text?: string }[]; isError?: boolean };
  };
  if (reply.result?.isError) throw new Error(`get_athlete failed: ${reply.result.content?.[0]?.text ?? text}`);
  return (JSON.parse(reply.result?.content?.[0]?.text ?? "{}") as { id?: number }).id;
}

const backends: [string, (copy: string) => Promise<{ written: Written; env: Record<string, string> }>][] = [
  ["a state directory", (copy) => Promise.resolve({ written: manifest.files, env: { FITNESS_OAUTH_DIR: stateDirectoryCopy(copy) } })],
  [
    "a DynamoDB table",
    async (copy) => {
      const names = await tableCopy(copy);
      return {
        written: manifest.dynamoDb,
        env: { ...moto.env, MCP_OAUTH_TABLE: names.table, MCP_SIGNING_KEY_SECRET: names.secret, AWS_REGION: "us-west-2" },
      };
    },
  ],
];

describe.each(backends)(`state the code of ${manifest.commit} wrote in %s`, (name, copyOf) => {
  const slug = name.replace(/\W+/g, "-");

  it("every grant refreshes and calls a tool for its athlete, on the athlete's Strava tokens as they were stored", async () => {
    const { written, env } = await copyOf(`${slug}-listed`);
    const sandbox = await stravaThatKeptRunning(written);
    const today = await startToday(written.issuer, { ...env, MCP_ATHLETES: manifest.athletes.join(",") }, sandbox);
    expect(written.grants.map((grant) => grant.athlete).sort()).toEqual([...manifest.athletes].sort());
    for (const grant of written.grants) {
      const tokens = await refreshed(today.fetch, written.issuer, grant);
      expect(tokens, `the grant of athlete ${grant.athlete}`).toMatchObject({ status: 200, body: { token_type: "Bearer" } });
      expect(await athleteCalled(today.fetch, written.issuer, String(tokens.body["access_token"]))).toBe(Number(grant.athlete));
      // The athlete's Strava tokens worked, rotated, and the new ones were saved where the old ones were read.
      const now = await today.stores.athleteCredentials(grant.athlete).load(AbortSignal.timeout(5_000));
      expect(now.credentials.refresh_token).not.toBe(written.stravaRefreshTokens[grant.athlete]);
      expect(sandbox.acceptsRefreshToken(now.credentials.refresh_token)).toBe(true);
    }
    expect((await today.stores.athletes.storedAthletes(AbortSignal.timeout(5_000))).map((athlete) => athlete.athleteId).sort()).toEqual(
      [...manifest.athletes].sort(),
    );
  });

  it("without MCP_ATHLETES, the owner the old code recorded is served, and nobody else", async () => {
    const { written, env } = await copyOf(`${slug}-owner`);
    const today = await startToday(written.issuer, env, await stravaThatKeptRunning(written));
    expect(await today.stores.athletes.owner(AbortSignal.timeout(5_000))).toBe(manifest.owner);
    for (const grant of written.grants) {
      const tokens = await refreshed(today.fetch, written.issuer, grant);
      if (grant.athlete === manifest.owner) {
        expect(tokens.status).toBe(200);
        expect(await athleteCalled(today.fetch, written.issuer, String(tokens.body["access_token"]))).toBe(Number(grant.athlete));
      } else {
        expect(tokens).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
      }
    }
  });
});
