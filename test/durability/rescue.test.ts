/**
 * The rescue copy of new tokens (credentials/rescue/rescuing-store.ts), with real servers on Secrets Manager
 * (moto behind a proxy that can hold a `PutSecretValue` unanswered): the two ways a process ends while
 * Strava's rotated refresh token is in it and not yet in the secret.
 *
 * - SIGKILL while the save waits on the store: the next server on this machine saves the copy as it
 *   starts, before any call, and works.
 *   The same kill with the copy switched off (FITNESS_TOKEN_RESCUE_DIR=off) loses the token: the next
 *   server finds a spent refresh token and says to authorize again. That run is what shows the test can fail.
 * - SIGTERM while the store takes no saves: the server gives up at its bound, says the tokens are kept for
 *   the next start, exits 0, and the next start saves them.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { CreateSecretCommand, GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { startAwsFaultProxy, type AwsFaultProxy } from "../support/aws-fault-proxy.ts";
import { scratchDirectory } from "../mcp-adapter/mcp-child.ts";
import { callTool, delay, newGrant, serverEnv, startServer } from "./fleet.ts";

let sandbox: RunningSandbox;
let moto: MotoServer;
let proxy: AwsFaultProxy;
let admin: SecretsManagerClient;
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
});
afterAll(async () => {
  admin?.destroy();
  await proxy?.close();
  await sandbox?.close();
  await moto?.stop();
  scratch.remove();
});

async function createSecret(name: string): Promise<void> {
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
}

async function storedRefreshToken(name: string): Promise<string> {
  const answer = await admin.send(new GetSecretValueCommand({ SecretId: name, VersionStage: "AWSCURRENT" }));
  return (JSON.parse(answer.SecretString ?? "{}") as { refresh_token: string }).refresh_token;
}

function envFor(secretName: string, rescue: string): Record<string, string> {
  return serverEnv(
    sandbox,
    { kind: "secrets-manager", secretName, awsEnv: moto.env },
    { AWS_ENDPOINT_URL_SECRETS_MANAGER: proxy.url, FITNESS_STORE_TIMEOUT_MS: "1000", FITNESS_TOKEN_RESCUE_DIR: rescue },
  );
}

async function puts(): Promise<number> {
  return proxy.calls()["PutSecretValue"] ?? 0;
}

/**
 * Kills a server with SIGKILL once its save of refreshed tokens has reached the (unanswering) store.
 * Returns the refresh token the secret held before: the one that refresh spent.
 */
async function killDuringSave(secretName: string, rescue: string): Promise<string> {
  const server = await startServer(envFor(secretName, rescue));
  expect((await callTool(server, "get_athlete")).ok).toBe(true);
  const spent = await storedRefreshToken(secretName);
  const before = await puts();
  proxy.inject("PutSecretValue", "hang", 1_000);
  sandbox.expireAccessTokens();
  const call = callTool(server, "get_athlete", {}, AbortSignal.timeout(20_000));
  const giveUp = performance.now() + 20_000;
  while ((await puts()) === before) {
    if (performance.now() > giveUp)
      throw new Error(`the server sent no PutSecretValue within 20 s:\n${server.child.stderrLines.join("\n")}`);
    await delay(5);
  }
  server.child.process.kill("SIGKILL");
  await server.child.exited;
  await call;
  proxy.clear();
  return spent;
}

it("SIGKILL while the save waits on Secrets Manager: the next server saves the kept copy as it starts and works; without the copy the token is lost", async () => {
  const rescueDir = join(scratch.path, "killed");
  await createSecret("killed-with-copy");
  const spent = await killDuringSave("killed-with-copy", rescueDir);
  expect(await readdir(rescueDir)).toHaveLength(1);
  expect(await storedRefreshToken("killed-with-copy")).toBe(spent);

  // The next server saves the copy as it starts, before any call: other instances must not meet the spent token.
  const next = await startServer(envFor("killed-with-copy", rescueDir));
  const rescued = await next.child.waitForEvent("tokens_rescued", 10_000);
  expect(String(rescued["message"])).toContain(rescueDir);
  const now = await storedRefreshToken("killed-with-copy");
  expect(now).not.toBe(spent);
  expect(sandbox.acceptsRefreshToken(now)).toBe(true);
  expect(await readdir(rescueDir)).toEqual([]);
  const outcome = await callTool(next, "get_athlete");
  await next.child.stop();
  expect(outcome.ok, outcome.text).toBe(true);
  for (const line of next.child.stderrLines) expect(line).not.toContain(now);

  // The same kill without the copy: Strava has rotated the refresh token, the secret still holds the spent one.
  await createSecret("killed-without-copy");
  await killDuringSave("killed-without-copy", "off");
  const after = await startServer(envFor("killed-without-copy", "off"));
  const lost = await callTool(after, "get_athlete");
  await after.child.stop();
  expect(lost.ok).toBe(false);
  expect(lost.text).toMatch(/authorize/);
});

it("SIGTERM while Secrets Manager takes no saves: exits 0 at its bound saying the tokens are kept; the next start saves them", async () => {
  const rescueDir = join(scratch.path, "stopped");
  await createSecret("stopped");
  const server = await startServer(envFor("stopped", rescueDir));
  expect((await callTool(server, "get_athlete")).ok).toBe(true);
  const spent = await storedRefreshToken("stopped");
  proxy.inject("PutSecretValue", "hang", 1_000);
  sandbox.expireAccessTokens();
  const failed = await callTool(server, "get_athlete");
  expect(failed.ok).toBe(false);
  expect(failed.text).toContain(`kept in memory and in ${rescueDir}`);
  server.child.process.kill("SIGTERM");
  expect(await server.child.exited).toBe(0);
  const kept = await server.child.waitForEvent("tokens_kept_for_next_start", 1_000);
  expect(String(kept["message"])).toContain(rescueDir);
  expect(server.child.stderrLines.some((line) => line.includes("tokens_lost_at_exit"))).toBe(false);
  proxy.clear();
  expect(await storedRefreshToken("stopped")).toBe(spent);

  const next = await startServer(envFor("stopped", rescueDir));
  const outcome = await callTool(next, "get_athlete");
  await next.child.stop();
  expect(outcome.ok, outcome.text).toBe(true);
  const now = await storedRefreshToken("stopped");
  expect(now).not.toBe(spent);
  expect(sandbox.acceptsRefreshToken(now)).toBe(true);
  expect(await readdir(rescueDir)).toEqual([]);
});
