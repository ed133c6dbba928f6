/**
 * The plugin's part in the gateway's shutdown: the host service it registers waits, on `stop`, for a
 * token refresh in progress and its save into the secret (moto_server), so stopping the gateway while
 * Strava (the sandbox) is slow to answer does not lose the rotated refresh token; on `start`, it saves
 * the tokens a gateway killed mid-save left in the rescue directory. A host without services still loads
 * the plugin.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { CreateSecretCommand, GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { tokenSettleServiceId } from "../../plugin/token-settle-service.ts";
import { RescuingCredentialStore } from "../../credentials/rescue/rescuing-store.ts";
import { SecretsManagerStore } from "../../credentials/stores/secrets-manager-store.ts";
import { TokenRescueDirectory } from "../../credentials/rescue/rescue-directory.ts";
import { capturingLogger } from "../support/core-harness.ts";
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
      SecretString: JSON.stringify({
        client_id: sandbox.clientId,
        client_secret: sandbox.clientSecret,
        refresh_token: sandbox.refreshToken(),
      }),
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

it("starting the plugin's service saves the tokens a gateway killed mid-save left in the rescue directory, before any tool call", async () => {
  // A gateway received new tokens from Strava and was killed before the secret took them: only its copy
  // (written to the rescue directory first, as the plugin writes it) holds the rotated refresh token.
  const before = await secrets.send(new GetSecretValueCommand({ SecretId: "fitness-credentials", VersionStage: "AWSCURRENT" }));
  const spent = (JSON.parse(before.SecretString ?? "{}") as { refresh_token: string }).refresh_token;
  const answer = await fetch(sandbox.tokenUrl, {
    method: "POST",
    body: new URLSearchParams({
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
      grant_type: "refresh_token",
      refresh_token: spent,
    }),
  });
  const rotated = (await answer.json()) as { access_token: string; refresh_token: string; expires_at: number };
  const unreachable = new SecretsManagerClient({ region: "us-west-2", endpoint: "http://127.0.0.1:9", maxAttempts: 1 });
  const killed = new RescuingCredentialStore(
    new SecretsManagerStore({ secretName: "fitness-credentials", region: "us-west-2", client: unreachable }),
    TokenRescueDirectory.open(process.env["FITNESS_TOKEN_RESCUE_DIR"] ?? "", { createParents: true }),
    capturingLogger().logger,
  );
  // What the killed gateway had read before its refresh; its save then found no store to answer.
  const snapshot = await new SecretsManagerStore({ secretName: "fitness-credentials", region: "us-west-2" }).load(
    AbortSignal.timeout(5_000),
  );
  await expect(killed.saveTokens(snapshot, rotated, AbortSignal.timeout(5_000))).rejects.toThrow(
    /Secrets Manager secret "fitness-credentials"/,
  );
  unreachable.destroy();
  expect(sandbox.acceptsRefreshToken(spent)).toBe(false);

  const host = registerPlugin({ secretName: "fitness-credentials", cloudRegion: "us-west-2" });
  await host.services.get(tokenSettleServiceId)!.start();
  const giveUp = performance.now() + 10_000;
  while ((await storedRefreshToken()) !== rotated.refresh_token) {
    if (performance.now() > giveUp)
      throw new Error(`the copy was not saved; plugin log:\n${host.logs.map((line) => line.message).join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(host.logs.some((line) => line.level === "warn" && line.message.includes('"event":"tokens_rescued"'))).toBe(true);
  expect((await host.invoke("fitness_get_athlete")).isError).toBeUndefined();
  await host.services.get(tokenSettleServiceId)!.stop?.();
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
