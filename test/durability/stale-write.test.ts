/**
 * Problem 2: a stale token written over a newer one. Server A's save goes through, but the answer is lost
 * (a proxy in front of moto cuts the connection after moto acted; A's SDK does not retry), so A keeps the
 * tokens as unsaved. Server B rotates normally. A's next call must not write its stale tokens over B's: the
 * store refuses (compare-and-swap) and A takes B's tokens on. On a Secrets Manager secret, and on an
 * athlete's DynamoDB item (OAuth mode, dynamodb-athlete.ts; A and B on two machines, each with its own
 * rescue directory).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { join } from "node:path";
import { CreateSecretCommand, GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { startAwsFaultProxy, type AwsFaultProxy } from "../support/aws-fault-proxy.ts";
import { scratchDirectory } from "../mcp-adapter/mcp-child.ts";
import { dynamoDbAthlete } from "./dynamodb-athlete.ts";
import { bearerFor, callTool, serverEnv, startServer, type RunningServer } from "./fleet.ts";

let sandbox: RunningSandbox;
let moto: MotoServer;
let proxy: AwsFaultProxy;
let admin: SecretsManagerClient;
const servers: RunningServer[] = [];
const scratch = scratchDirectory();

beforeAll(async () => {
  sandbox = await startSandbox();
  moto = await startMotoServer();
  proxy = await startAwsFaultProxy(new URL(moto.endpoint));
  admin = new SecretsManagerClient({
    region: "us-west-2",
    endpoint: moto.endpoint,
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });
  await admin.send(
    new CreateSecretCommand({
      Name: "fitness-credentials",
      SecretString: JSON.stringify({
        client_id: sandbox.clientId,
        client_secret: sandbox.clientSecret,
        refresh_token: sandbox.refreshToken(),
      }),
    }),
  );
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.child.stop()));
  admin?.destroy();
  await proxy?.close();
  await sandbox?.close();
  await moto?.stop();
  scratch.remove();
});

async function storedRefreshToken(): Promise<string> {
  const answer = await admin.send(new GetSecretValueCommand({ SecretId: "fitness-credentials", VersionStage: "AWSCURRENT" }));
  return (JSON.parse(answer.SecretString ?? "{}") as { refresh_token: string }).refresh_token;
}

it("a save whose answer was lost is never written over a newer one; both servers carry on", async () => {
  const store = { kind: "secrets-manager" as const, secretName: "fitness-credentials", awsEnv: moto.env };
  const a = await startServer(serverEnv(sandbox, store, { AWS_ENDPOINT_URL_SECRETS_MANAGER: proxy.url, AWS_MAX_ATTEMPTS: "1" }));
  const b = await startServer(serverEnv(sandbox, store));
  servers.push(a, b);
  expect((await callTool(a, "get_athlete")).ok).toBe(true);
  expect((await callTool(b, "get_athlete")).ok).toBe(true);

  // A refreshes; moto makes A's version current, but A never hears so.
  proxy.inject("UpdateSecretVersionStage", "lose-answer");
  sandbox.expireAccessTokens();
  const lost = await callTool(a, "get_athlete");
  expect(lost.ok, lost.text).toBe(false);
  expect(lost.text).toMatch(/Strava issued new tokens but they could not be saved to Secrets Manager secret "fitness-credentials"/);
  const savedByA = await storedRefreshToken();
  expect(sandbox.acceptsRefreshToken(savedByA)).toBe(true);

  // B rotates from what A saved.
  sandbox.expireAccessTokens();
  expect((await callTool(b, "get_athlete")).ok).toBe(true);
  const savedByB = await storedRefreshToken();
  expect(savedByB).not.toBe(savedByA);
  expect(sandbox.acceptsRefreshToken(savedByB)).toBe(true);

  // A's next call: its unsaved tokens are stale now; the store refuses them and A uses B's.
  const next = await callTool(a, "get_athlete");
  expect(next.ok, next.text).toBe(true);
  expect(await storedRefreshToken()).toBe(savedByB);
  expect(sandbox.acceptsRefreshToken(savedByB)).toBe(true);
  await a.child.waitForEvent("token_save_superseded", 5_000);

  // And both go on refreshing normally from there.
  for (const server of [a, b, a]) {
    sandbox.expireAccessTokens();
    const outcome = await callTool(server, "get_athlete");
    expect(outcome.ok, outcome.text).toBe(true);
    expect(sandbox.acceptsRefreshToken(await storedRefreshToken())).toBe(true);
  }
});

it("DynamoDB (OAuth mode): a save whose answer was lost is never written over a newer one; both servers carry on", async () => {
  const athlete = await dynamoDbAthlete({ moto, sandbox, table: "fitness-oauth-stale", rescueDir: join(scratch.path, "rescue-b") });
  try {
    const store = { kind: "dynamodb" as const, athlete };
    const bearer = bearerFor(store);
    const a = await startServer(
      serverEnv(sandbox, store, {
        AWS_ENDPOINT_URL_DYNAMODB: proxy.url,
        AWS_MAX_ATTEMPTS: "1",
        FITNESS_TOKEN_RESCUE_DIR: join(scratch.path, "rescue-a"),
      }),
      [],
      bearer,
    );
    const b = await startServer(serverEnv(sandbox, store), [], bearer);
    servers.push(a, b);
    expect((await callTool(a, "get_athlete")).ok).toBe(true);
    expect((await callTool(b, "get_athlete")).ok).toBe(true);

    // A refreshes; DynamoDB takes A's item (one conditional PutItem), but A never hears so.
    proxy.inject("PutItem", "lose-answer");
    sandbox.expireAccessTokens();
    const lost = await callTool(a, "get_athlete");
    expect(lost.ok, lost.text).toBe(false);
    expect(lost.text).toContain(
      `Strava issued new tokens but they could not be saved to DynamoDB item of athlete ${athlete.athleteId} in table "fitness-oauth-stale"`,
    );
    const savedByA = await athlete.storedRefreshToken();
    expect(sandbox.acceptsRefreshToken(savedByA)).toBe(true);

    // B rotates from what A saved.
    sandbox.expireAccessTokens();
    expect((await callTool(b, "get_athlete")).ok).toBe(true);
    const savedByB = await athlete.storedRefreshToken();
    expect(savedByB).not.toBe(savedByA);
    expect(sandbox.acceptsRefreshToken(savedByB)).toBe(true);

    // A's next call: its unsaved tokens are stale now; the item refuses them and A uses B's.
    const next = await callTool(a, "get_athlete");
    expect(next.ok, next.text).toBe(true);
    expect(await athlete.storedRefreshToken()).toBe(savedByB);
    await a.child.waitForEvent("token_save_superseded", 5_000);

    // And both go on refreshing normally from there.
    for (const server of [a, b, a]) {
      sandbox.expireAccessTokens();
      const outcome = await callTool(server, "get_athlete");
      expect(outcome.ok, outcome.text).toBe(true);
      expect(sandbox.acceptsRefreshToken(await athlete.storedRefreshToken())).toBe(true);
    }
  } finally {
    await athlete.close();
  }
});
