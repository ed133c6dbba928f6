/**
 * Problem 3: a store that stops answering (a proxy in front of moto that takes requests and never replies):
 * a Secrets Manager secret, and an athlete's DynamoDB item (OAuth mode, dynamodb-athlete.ts; only the
 * requests for that item hang, the rest of the table answers). The calls waiting on it fail within the store
 * deadline with an error that says so, /health says the store is unavailable (the plain server's; OAuth
 * mode's /health says nothing of one athlete's store), and once the store answers again the very next calls
 * work: no restart needed.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { CreateSecretCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { startAwsFaultProxy, type AwsFaultProxy } from "../support/aws-fault-proxy.ts";
import { join } from "node:path";
import { scratchDirectory } from "../mcp-adapter/mcp-child.ts";
import { dynamoDbAthlete } from "./dynamodb-athlete.ts";
import { bearerFor, callTool, health, serverEnv, startServer, type RunningServer } from "./fleet.ts";

let sandbox: RunningSandbox;
let moto: MotoServer;
let proxy: AwsFaultProxy;
let server: RunningServer | undefined;
const scratch = scratchDirectory();

beforeAll(async () => {
  sandbox = await startSandbox();
  moto = await startMotoServer();
  proxy = await startAwsFaultProxy(new URL(moto.endpoint));
  const admin = new SecretsManagerClient({
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
  admin.destroy();
});
afterAll(async () => {
  await server?.child.stop();
  scratch.remove();
  await proxy?.close();
  await sandbox?.close();
  await moto?.stop();
});

it("calls waiting on a store that never answers fail within the deadline, and the next call after it answers again works", async () => {
  const store = { kind: "secrets-manager" as const, secretName: "fitness-credentials", awsEnv: moto.env };
  server = await startServer(serverEnv(sandbox, store, { AWS_ENDPOINT_URL_SECRETS_MANAGER: proxy.url, FITNESS_STORE_TIMEOUT_MS: "1000" }));
  expect((await callTool(server, "get_athlete")).ok).toBe(true);

  proxy.hangAll(true);
  sandbox.expireAccessTokens();
  const started = performance.now();
  const stuck = await Promise.all(Array.from({ length: 10 }, () => callTool(server!, "get_athlete")));
  const waited = performance.now() - started;
  console.log(`stuck store: ${stuck.filter((outcome) => !outcome.ok).length} of 10 calls failed after ${Math.round(waited)} ms`);
  for (const outcome of stuck) {
    expect(outcome.ok).toBe(false);
    expect(outcome.text).toMatch(
      /Secrets Manager secret "fitness-credentials" in us-west-2 did not answer within 1 s \(FITNESS_STORE_TIMEOUT_MS\)/,
    );
  }
  expect(waited).toBeLessThan(10_000);
  const during = await health(server);
  expect(during.status).toBe(200);
  expect(during.body).toMatchObject({ status: "degraded", credentials: { state: "store_unavailable" } });

  proxy.hangAll(false);
  const after = await Promise.all(Array.from({ length: 10 }, () => callTool(server!, "get_athlete")));
  expect(after.filter((outcome) => !outcome.ok).map((outcome) => outcome.text)).toEqual([]);
  expect((await health(server)).body).toMatchObject({ status: "ok", credentials: { state: "ok" } });
});

it("DynamoDB (OAuth mode): calls waiting on an athlete's item that never answers fail within the deadline, and the next call after it answers again works", async () => {
  await server?.child.stop();
  const athlete = await dynamoDbAthlete({ moto, sandbox, table: "fitness-oauth-stuck", rescueDir: join(scratch.path, "rescue") });
  try {
    const store = { kind: "dynamodb" as const, athlete };
    server = await startServer(
      serverEnv(sandbox, store, { AWS_ENDPOINT_URL_DYNAMODB: proxy.url, FITNESS_STORE_TIMEOUT_MS: "1000" }),
      [],
      bearerFor(store),
    );
    expect((await callTool(server, "get_athlete")).ok).toBe(true);

    // The athlete's item stops answering; the grants, the counts and the rest of the table still answer.
    proxy.hangAll(true, `"athlete#${athlete.athleteId}"`);
    sandbox.expireAccessTokens();
    const started = performance.now();
    const stuck = await Promise.all(Array.from({ length: 10 }, () => callTool(server!, "get_athlete")));
    const waited = performance.now() - started;
    console.log(`stuck DynamoDB item: ${stuck.filter((outcome) => !outcome.ok).length} of 10 calls failed after ${Math.round(waited)} ms`);
    for (const outcome of stuck) {
      expect(outcome.ok).toBe(false);
      expect(outcome.text).toContain(
        `DynamoDB item of athlete ${athlete.athleteId} in table "fitness-oauth-stuck" (us-west-2) did not answer within 1 s (FITNESS_STORE_TIMEOUT_MS)`,
      );
    }
    expect(waited).toBeLessThan(10_000);

    proxy.hangAll(false);
    const after = await Promise.all(Array.from({ length: 10 }, () => callTool(server!, "get_athlete")));
    expect(after.filter((outcome) => !outcome.ok).map((outcome) => outcome.text)).toEqual([]);
    expect(sandbox.acceptsRefreshToken(await athlete.storedRefreshToken())).toBe(true);
  } finally {
    await athlete.close();
  }
});
