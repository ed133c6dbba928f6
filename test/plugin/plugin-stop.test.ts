/**
 * The plugin's part in the gateway's shutdown: the host service it registers waits, on `stop`, for a
 * token refresh in progress and its save into the secret (moto_server), so stopping the gateway while
 * Strava (the sandbox) is slow to answer does not lose the rotated refresh token. A host without
 * services still loads the plugin.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { CreateSecretCommand, GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { tokenSettleServiceId } from "../../plugin/token-settle-service.ts";
import plugin from "../../index.ts";
import { recordingHost, registerPlugin, textOf } from "./recording-host-api.ts";

let moto: MotoServer;
let sandbox: RunningSandbox;
let secrets: SecretsManagerClient;
const savedEnv = { ...process.env };

beforeAll(async () => {
  moto = await startMotoServer();
  Object.assign(process.env, moto.env);
  sandbox = await startSandbox();
  process.env["STRAVA_API_BASE"] = sandbox.apiBase;
  process.env["STRAVA_TOKEN_URL"] = sandbox.tokenUrl;
  secrets = new SecretsManagerClient({ region: "us-west-2" });
  await secrets.send(
    new CreateSecretCommand({
      Name: "fitness-credentials",
      SecretString: JSON.stringify({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret, refresh_token: sandbox.refreshToken() }),
    }),
  );
});
afterAll(async () => {
  secrets?.destroy();
  await sandbox?.close();
  await moto?.stop();
  process.env = savedEnv;
});

async function storedRefreshToken(): Promise<string> {
  const answer = await secrets.send(new GetSecretValueCommand({ SecretId: "fitness-credentials", VersionStage: "AWSCURRENT" }));
  return (JSON.parse(answer.SecretString ?? "{}") as { refresh_token: string }).refresh_token;
}

it("stopping the plugin's service waits for a slow refresh and its save into the secret", async () => {
  const host = registerPlugin({ secretName: "fitness-credentials", cloudRegion: "us-west-2" });
  const service = host.services.get(tokenSettleServiceId);
  expect(service).toBeDefined();
  await service!.start();
  expect((await host.invoke("fitness_get_athlete")).isError).toBeUndefined();
  const before = await storedRefreshToken();

  sandbox.injectFault({ kind: "delay", delayMs: 1_500, match: "POST /oauth/token" });
  sandbox.expireAccessTokens();
  const requests = sandbox.counters().tokenRequests;
  const call = host.invoke("fitness_get_athlete");
  while (sandbox.counters().tokenRequests === requests) await new Promise((resolve) => setTimeout(resolve, 5));
  const started = performance.now();
  await service!.stop?.();
  expect(performance.now() - started).toBeGreaterThan(1_000);
  const after = await storedRefreshToken();
  expect(after).not.toBe(before);
  expect(sandbox.acceptsRefreshToken(after)).toBe(true);
  expect((await call).isError).toBeUndefined();
  expect(host.logs.some((line) => line.message.includes('"event":"shutdown_waits_for_refresh"'))).toBe(true);

  // Stopped: no new refresh starts (the gateway is going away)...
  sandbox.expireAccessTokens();
  expect(textOf(await host.invoke("fitness_get_athlete"))).toContain("shutting down");
  // ...until the host starts the service again.
  await service!.start();
  expect((await host.invoke("fitness_get_athlete")).isError).toBeUndefined();
});

it("stopping before any tool call has nothing to wait for; a host without services still loads the plugin", async () => {
  const host = registerPlugin({ secretName: "fitness-credentials", cloudRegion: "us-west-2" });
  const started = performance.now();
  await host.services.get(tokenSettleServiceId)?.stop?.();
  expect(performance.now() - started).toBeLessThan(100);
  const older = recordingHost({ secretName: "fitness-credentials", cloudRegion: "us-west-2" });
  delete (older.api as { registerService?: unknown }).registerService;
  plugin.register(older.api);
  expect(older.tools.size).toBe(11);
});
