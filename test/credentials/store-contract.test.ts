/**
 * One contract, every credential store: the token file, the environment with its token file, Secrets
 * Manager and DynamoDB (both on a real moto_server), and the in-memory store. The same compare-and-swap
 * checks, then the same token manager, unchanged, with two processes racing to refresh through each:
 * the proof that a store keyed by athlete (DynamoDB, for the hosted deployment) needs nothing new from
 * the token manager.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateSecretCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { CredentialsMissingError, type CredentialStore } from "../../credentials/credential-store.ts";
import { TokenFileStore } from "../../credentials/stores/token-file-store.ts";
import { readStravaCredentials } from "../../common/settings/credential-variables.ts";
import { EnvCredentialStore } from "../../credentials/stores/environment-store.ts";
import { SecretsManagerStore } from "../../credentials/stores/secrets-manager-store.ts";
import { DynamoDbCredentialStore } from "../../credentials/stores/dynamodb-store.ts";
import { MemoryCredentialStore } from "../../credentials/stores/memory-store.ts";
import { createToolDeps } from "../../tools/runner/create-tool-deps.ts";
import { runTool } from "../../tools/runner/run-tool.ts";
import { capturingLogger, toolNamed } from "../support/core-harness.ts";

/** The environment store as the MCP server makes it: the STRAVA_* variables read through the settings inventory. */
function envStore(env: Record<string, string | undefined>, file: TokenFileStore): EnvCredentialStore {
  const strava = readStravaCredentials(env);
  return new EnvCredentialStore({
    clientId: strava.clientId ?? "",
    clientSecret: strava.clientSecret ?? "",
    refreshToken: strava.refreshToken ?? "",
    file,
  });
}

const plenty: [number, number] = [1_000_000, 10_000_000];
const signal = (): AbortSignal => AbortSignal.timeout(5_000);
const tokens = (n: number) => ({ access_token: `a${n}`, refresh_token: `r${n}`, expires_at: 1_800_000_000 + n });
let sandbox: RunningSandbox;
let moto: MotoServer;
let directory: string;
let secrets: SecretsManagerClient;
let dynamodb: DynamoDBClient;
const savedEnv = { ...process.env };
let serial = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: { overall: plenty, read: plenty } });
  moto = await startMotoServer();
  Object.assign(process.env, moto.env);
  directory = await mkdtemp(join(tmpdir(), "fitness-contract-"));
  secrets = new SecretsManagerClient({ region: "us-west-2" });
  dynamodb = new DynamoDBClient({ region: "us-west-2" });
  await dynamodb.send(
    new CreateTableCommand({
      TableName: "fitness-athletes",
      KeySchema: [{ AttributeName: "athlete_id", KeyType: "HASH" }],
      AttributeDefinitions: [{ AttributeName: "athlete_id", AttributeType: "S" }],
      BillingMode: "PAY_PER_REQUEST",
    }),
  );
}, 60_000);
afterAll(async () => {
  process.env = savedEnv;
  secrets?.destroy();
  dynamodb?.destroy();
  await sandbox?.close();
  await moto?.stop();
  await rm(directory, { recursive: true, force: true });
});

interface StoreKind {
  name: string;
  /** A fresh store holding the application's credentials and `refreshToken`; each call of `open` is one process's view of it. */
  create(refreshToken: string): Promise<{ open(): CredentialStore }>;
}

const app = () => ({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret });

const kinds: StoreKind[] = [
  {
    name: "token file",
    async create(refreshToken) {
      const path = join(directory, `file-${++serial}.json`);
      await writeFile(path, JSON.stringify({ ...app(), refresh_token: refreshToken }), { mode: 0o600 });
      return { open: () => new TokenFileStore({ path }) };
    },
  },
  {
    name: "environment + token file",
    async create(refreshToken) {
      const path = join(directory, `env-${++serial}.json`);
      const env = { STRAVA_CLIENT_ID: sandbox.clientId, STRAVA_CLIENT_SECRET: sandbox.clientSecret, STRAVA_REFRESH_TOKEN: refreshToken };
      return { open: () => envStore(env, new TokenFileStore({ path })) };
    },
  },
  {
    name: "Secrets Manager",
    async create(refreshToken) {
      const secretName = `contract-${++serial}`;
      await secrets.send(
        new CreateSecretCommand({ Name: secretName, SecretString: JSON.stringify({ ...app(), refresh_token: refreshToken }) }),
      );
      return { open: () => new SecretsManagerStore({ secretName, region: "us-west-2" }) };
    },
  },
  {
    name: "DynamoDB (one item per athlete)",
    async create(refreshToken) {
      const athleteId = `athlete-${++serial}`;
      const options = { tableName: "fitness-athletes", athleteId, region: "us-west-2", application: app() };
      await new DynamoDbCredentialStore(options).writeAuthorization(
        { ...app(), refresh_token: refreshToken, access_token: "none", expires_at: 0 },
        signal(),
      );
      return { open: () => new DynamoDbCredentialStore(options) };
    },
  },
  {
    name: "memory",
    async create(refreshToken) {
      const store = new MemoryCredentialStore({ ...app(), refresh_token: refreshToken });
      return { open: () => store };
    },
  },
];

describe.each(kinds)("$name", (kind) => {
  it("compare-and-swap: the first save from a snapshot lands, the second answers what is stored, a retry of a save that landed sees its own tokens", async () => {
    const { open } = await kind.create("r0");
    const [one, two] = [open(), open()];
    const a = await one.load(signal());
    const b = await two.load(signal());
    expect(a.credentials).toMatchObject({ ...app(), refresh_token: "r0" });
    const first = await one.saveTokens(a, tokens(1), signal());
    expect(first).toMatchObject({ saved: true, snapshot: { credentials: tokens(1) } });
    expect(await two.saveTokens(b, tokens(2), signal())).toMatchObject({ saved: false, current: { credentials: tokens(1) } });
    expect(await one.saveTokens(a, tokens(1), signal())).toMatchObject({ saved: false, current: { credentials: tokens(1) } });
    expect((await two.load(signal())).credentials).toMatchObject(tokens(1));
    if (first.saved) expect((await one.saveTokens(first.snapshot, tokens(3), signal())).saved).toBe(true);
  });

  it("the same token manager: two processes racing to refresh through it both carry on, and the store holds the live token", async () => {
    const { open } = await kind.create((await grant()).refresh_token);
    const cores = [open(), open()].map((store) => {
      const { logger } = capturingLogger();
      return createToolDeps({ store, logger, settings: { apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl }, storeTimeoutMs: 2_000 });
    });
    sandbox.resetCounters();
    sandbox.injectFault({ kind: "delay", delayMs: 200, match: "POST /oauth/token" });
    const results = await Promise.all(cores.map((deps) => runTool(toolNamed("get_athlete"), {}, deps)));
    expect(results.map((result) => (result.isError ? result.content[0].text : "ok"))).toEqual(["ok", "ok"]);
    expect(sandbox.counters()).toMatchObject({ tokenRequests: 2, refreshTokenRejections: 1 });
    const stored = await open().load(signal());
    expect(sandbox.acceptsRefreshToken(stored.credentials.refresh_token)).toBe(true);
  });

  it("another process saved first the same refresh token (Strava did not rotate it for that one), then Strava rotated it for this one: the store ends with the live token", async () => {
    const spent = (await grant()).refresh_token;
    const { open } = await kind.create(spent);
    const { logger } = capturingLogger();
    const deps = createToolDeps({
      store: open(),
      logger,
      settings: { apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl },
      storeTimeoutMs: 2_000,
    });
    sandbox.resetCounters();
    sandbox.injectFault({ kind: "delay", delayMs: 300, match: "POST /oauth/token", times: 1 });
    const call = runTool(toolNamed("get_athlete"), {}, deps);
    while (sandbox.counters().tokenRequests === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    // The other process, while this one's refresh waits at Strava: its own refresh came back with a new
    // access token and the same refresh token, which it saved. (The access token is made up: the sandbox
    // rotates every refresh, so it cannot hand one out without rotating.)
    const other = open();
    const before = await other.load(signal());
    expect(
      (
        await other.saveTokens(
          before,
          { access_token: "other-process-access", refresh_token: spent, expires_at: Math.floor(Date.now() / 1000) + 21_600 },
          signal(),
        )
      ).saved,
    ).toBe(true);
    const result = await call;
    expect(result.isError ? result.content[0].text : "ok").toBe("ok");
    const stored = await open().load(signal());
    expect(stored.credentials.refresh_token).not.toBe(spent);
    expect(sandbox.acceptsRefreshToken(stored.credentials.refresh_token)).toBe(true);
  });
});

it("DynamoDB: an athlete with no item must sign in first; the table's absence is named", async () => {
  const missing = new DynamoDbCredentialStore({
    tableName: "fitness-athletes",
    athleteId: "nobody",
    region: "us-west-2",
    application: app(),
  });
  await expect(missing.load(signal())).rejects.toThrow(CredentialsMissingError);
  await expect(missing.load(signal())).rejects.toThrow(
    'The DynamoDB item of athlete nobody in table "fitness-athletes" (us-west-2) does not exist',
  );
  const noTable = new DynamoDbCredentialStore({ tableName: "absent", athleteId: "a", region: "us-west-2" });
  await expect(noTable.load(signal())).rejects.toThrow('The DynamoDB table "absent" does not exist');
});

/** A grant of its own for each store (the sandbox's authorize page approves at once). */
async function grant(): Promise<{ refresh_token: string }> {
  const authorize = new URL(sandbox.authorizeUrl);
  authorize.search = new URLSearchParams({
    client_id: sandbox.clientId,
    redirect_uri: "http://127.0.0.1/cb",
    response_type: "code",
    scope: "read,profile:read_all",
  }).toString();
  const code = new URL((await fetch(authorize, { redirect: "manual" })).headers.get("location") ?? "").searchParams.get("code") ?? "";
  const answer = await fetch(sandbox.tokenUrl, {
    method: "POST",
    body: new URLSearchParams({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret, grant_type: "authorization_code", code }),
  });
  return (await answer.json()) as { refresh_token: string };
}
