/**
 * Problem 5: stopping a server while it refreshes. The sandbox holds the token answer for 7 s (longer
 * than the 5 s the HTTP server gives running calls); the server is told to stop once the token request
 * has reached the sandbox. It must wait for the answer and save it before it exits, whether the client
 * still waits, has hung up, or the stop comes as SIGINT or as standard input closing (stdio), so the
 * stored refresh token is the one Strava accepts and the next server needs no new authorization.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { CreateSecretCommand, GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { scratchDirectory, spawnMcpChild } from "../mcp-adapter/mcp-child.ts";
import { callTool, delay, newGrant, serverEnv, startServer, type StoreChoice } from "./fleet.ts";

const answerDelayMs = 7_000;
let sandbox: RunningSandbox;
let moto: MotoServer;
let admin: SecretsManagerClient;
const scratch = scratchDirectory();

beforeAll(async () => {
  sandbox = await startSandbox();
  moto = await startMotoServer();
  admin = new SecretsManagerClient({
    region: "us-west-2",
    endpoint: moto.endpoint,
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });
});
afterAll(async () => {
  admin?.destroy();
  await sandbox?.close();
  await moto?.stop();
  scratch.remove();
});

/** Resolves once the server's token request has reached the sandbox (it is then held there). */
async function tokenRequestArrived(before: number): Promise<void> {
  while ((sandbox.counters().byRoute["POST /oauth/token"] ?? 0) <= before) await delay(10);
}

function tokenRequests(): number {
  return sandbox.counters().byRoute["POST /oauth/token"] ?? 0;
}

async function fileStore(name: string): Promise<{ store: StoreChoice; stored: () => Promise<string> }> {
  const directory = join(scratch.path, name);
  const store: StoreChoice = { kind: "file", directory, refreshToken: (await newGrant(sandbox)).refresh_token };
  return {
    store,
    stored: async () => (JSON.parse(await readFile(join(directory, "tokens.json"), "utf8")) as { refresh_token: string }).refresh_token,
  };
}

async function secretStore(name: string): Promise<{ store: StoreChoice; stored: () => Promise<string> }> {
  const grant = await newGrant(sandbox);
  await admin.send(
    new CreateSecretCommand({
      Name: name,
      SecretString: JSON.stringify({
        client_id: sandbox.clientId,
        client_secret: sandbox.clientSecret,
        refresh_token: grant.refresh_token,
      }),
    }),
  );
  return {
    store: { kind: "secrets-manager", secretName: name, awsEnv: moto.env },
    stored: async () => {
      const answer = await admin.send(new GetSecretValueCommand({ SecretId: name, VersionStage: "AWSCURRENT" }));
      return (JSON.parse(answer.SecretString ?? "{}") as { refresh_token: string }).refresh_token;
    },
  };
}

async function stopMidRefresh(options: {
  store: StoreChoice;
  stored: () => Promise<string>;
  signal: "SIGTERM" | "SIGINT";
  hangUp: boolean;
}): Promise<void> {
  const server = await startServer(serverEnv(sandbox, options.store));
  expect((await callTool(server, "get_athlete")).ok).toBe(true);
  const before = await options.stored();
  sandbox.injectFault({ kind: "delay", delayMs: answerDelayMs, match: "POST /oauth/token" });
  sandbox.expireAccessTokens();
  const client = new AbortController();
  const requests = tokenRequests();
  const call = callTool(server, "get_athlete", {}, client.signal);
  await tokenRequestArrived(requests);
  if (options.hangUp) {
    client.abort();
    await call;
  }
  const stopped = performance.now();
  server.child.process.kill(options.signal);
  const code = await server.child.exited;
  const took = performance.now() - stopped;
  await call;
  expect(code).toBe(0);
  await server.child.waitForEvent("shutdown_waits_for_refresh", 1_000);
  await server.child.waitForEvent("token_refreshed", 1_000);
  expect(took).toBeGreaterThan(answerDelayMs - 1_500);
  expect(took).toBeLessThan(answerDelayMs + 10_000);
  const after = await options.stored();
  expect(after).not.toBe(before);
  expect(sandbox.acceptsRefreshToken(after)).toBe(true);
  const next = await startServer(serverEnv(sandbox, options.store));
  const outcome = await callTool(next, "get_athlete");
  await next.child.stop();
  expect(outcome.ok, outcome.text).toBe(true);
}

it("SIGTERM while the token answer is slow, the client still waiting (Secrets Manager): waits, saves, exits 0", async () => {
  await stopMidRefresh({ ...(await secretStore("slow-refresh")), signal: "SIGTERM", hangUp: false });
});

it("SIGTERM while the token answer is slow, the client gone (token file): waits, saves, exits 0", async () => {
  await stopMidRefresh({ ...(await fileStore("hung-up")), signal: "SIGTERM", hangUp: true });
});

it("SIGINT while the token answer is slow (token file): waits, saves, exits 0", async () => {
  await stopMidRefresh({ ...(await fileStore("sigint")), signal: "SIGINT", hangUp: false });
});

it("stdio: standard input closes while the token answer is slow: waits, saves, exits 0", async () => {
  const { store, stored } = await fileStore("stdio");
  const child = spawnMcpChild({ env: serverEnv(sandbox, store), args: ["--stdio"], stdin: "pipe" });
  const send = (message: object): void => {
    child.process.stdin!.write(`${JSON.stringify(message)}\n`);
  };
  send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "durability", version: "1" } },
  });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_athlete", arguments: {} } });
  await child.waitForEvent("token_refreshed", 30_000);
  const before = await stored();
  sandbox.injectFault({ kind: "delay", delayMs: answerDelayMs, match: "POST /oauth/token" });
  sandbox.expireAccessTokens();
  const requests = tokenRequests();
  send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get_athlete", arguments: {} } });
  await tokenRequestArrived(requests);
  const stopped = performance.now();
  child.process.stdin!.end();
  expect(await child.exited).toBe(0);
  expect(performance.now() - stopped).toBeGreaterThan(answerDelayMs - 1_500);
  await child.waitForEvent("shutdown_waits_for_refresh", 1_000);
  const after = await stored();
  expect(after).not.toBe(before);
  expect(sandbox.acceptsRefreshToken(after)).toBe(true);
});
