/**
 * Problem 1: several servers on one store through repeated expiries, forced and natural. Three on one
 * Secrets Manager secret (moto_server), three on one athlete's DynamoDB item (OAuth mode, what a hosted
 * deployment's instances share: dynamodb-athlete.ts), two on one token file (two stdio clients started with
 * the same STRAVA_* environment share the file the same way). Every call must succeed: a server that loses the
 * race to refresh takes the winner's tokens from the store instead of failing its callers.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { CreateSecretCommand, GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { scratchDirectory } from "../mcp-adapter/mcp-child.ts";
import { dynamoDbAthlete } from "./dynamodb-athlete.ts";
import { runSharedStore } from "./shared-store-scenario.ts";

const plenty: [number, number] = [1_000_000, 10_000_000];
let moto: MotoServer;
let admin: SecretsManagerClient;
const sandboxes: RunningSandbox[] = [];
const scratch = scratchDirectory();

beforeAll(async () => {
  moto = await startMotoServer();
  admin = new SecretsManagerClient({
    region: "us-west-2",
    endpoint: moto.endpoint,
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });
});
afterAll(async () => {
  admin?.destroy();
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
  await moto?.stop();
  scratch.remove();
});

/** Tokens that live 310 s: each server's moment to refresh comes 5 to 10 s after a token is issued. */
async function shortLivedSandbox(): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ tokenLifetimeSeconds: 310, rateLimits: { overall: plenty, read: plenty } });
  sandboxes.push(sandbox);
  return sandbox;
}

it("three servers on one Secrets Manager secret: no failed call through 3 forced and several natural expiries", async () => {
  const sandbox = await shortLivedSandbox();
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
  const figures = await runSharedStore({
    sandbox,
    store: { kind: "secrets-manager", secretName: "fitness-credentials", awsEnv: moto.env },
    instances: 3,
    forcedRounds: 3,
    burstPerInstance: 20,
    naturalMs: 25_000,
    storedRefreshToken: async () => {
      const answer = await admin.send(new GetSecretValueCommand({ SecretId: "fitness-credentials", VersionStage: "AWSCURRENT" }));
      return (JSON.parse(answer.SecretString ?? "{}") as { refresh_token: string }).refresh_token;
    },
  });
  console.log(`shared secret: ${JSON.stringify(figures)}`);
  expect(figures.failures).toEqual([]);
  expect(figures.failed).toBe(0);
  expect(figures.refreshes).toBeGreaterThanOrEqual(5); // 3 forced + at least 2 natural expiries
  expect(figures.storeHoldsLiveToken).toBe(true);
  expect(figures.cleanExits).toBe(3);
});

it("three servers on one athlete's DynamoDB item (OAuth mode): no failed call through 3 forced and several natural expiries", async () => {
  const sandbox = await shortLivedSandbox();
  const athlete = await dynamoDbAthlete({ moto, sandbox, table: "fitness-oauth-shared", rescueDir: join(scratch.path, "dynamodb-rescue") });
  try {
    const figures = await runSharedStore({
      sandbox,
      store: { kind: "dynamodb", athlete },
      instances: 3,
      forcedRounds: 3,
      burstPerInstance: 20,
      naturalMs: 25_000,
      storedRefreshToken: () => athlete.storedRefreshToken(),
    });
    console.log(`shared DynamoDB item: ${JSON.stringify(figures)}`);
    expect(figures.failures).toEqual([]);
    expect(figures.failed).toBe(0);
    expect(figures.refreshes).toBeGreaterThanOrEqual(5);
    expect(figures.storeHoldsLiveToken).toBe(true);
    expect(figures.cleanExits).toBe(3);
  } finally {
    await athlete.close();
  }
});

it("two servers on one token file: no failed call through 3 forced and several natural expiries", async () => {
  const sandbox = await shortLivedSandbox();
  const figures = await runSharedStore({
    sandbox,
    store: { kind: "file", directory: scratch.path, refreshToken: sandbox.refreshToken() },
    instances: 2,
    forcedRounds: 3,
    burstPerInstance: 20,
    naturalMs: 25_000,
    storedRefreshToken: async () =>
      (JSON.parse(await readFile(join(scratch.path, "tokens.json"), "utf8")) as { refresh_token: string }).refresh_token,
  });
  console.log(`shared token file: ${JSON.stringify(figures)}`);
  expect(figures.failures).toEqual([]);
  expect(figures.failed).toBe(0);
  expect(figures.refreshes).toBeGreaterThanOrEqual(5);
  expect(figures.storeHoldsLiveToken).toBe(true);
  expect(figures.cleanExits).toBe(2);
});
