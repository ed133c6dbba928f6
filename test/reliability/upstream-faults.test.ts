/**
 * Faults injected at the network edge (the sandbox's fault injection, and a proxy in front of a real
 * moto_server that can be unplugged): each call answers with a clear error, the next call recovers,
 * and the stored refresh token is always the one that works.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CreateSecretCommand, GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { fileBackedCore, textOf, toolNamed, capturingLogger, type FileBackedCore } from "../support/core-harness.ts";
import { startSandbox, type RunningSandbox, type Fault } from "../../sandbox/server.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { startUnpluggableProxy, type UnpluggableProxy } from "../support/unpluggable-proxy.ts";
import { createToolDeps } from "../../tools/runner/create-tool-deps.ts";
import { SecretsManagerStore } from "../../credentials/stores/secrets-manager-store.ts";
import { runTool } from "../../tools/runner/run-tool.ts";

let sandbox: RunningSandbox;
let core: FileBackedCore;
const tally = { faults: 0, errorsSeen: 0, recoveries: 0 };

beforeAll(async () => {
  sandbox = await startSandbox({ uploadProcessingMs: 50, rateLimits: { overall: [100_000, 1_000_000], read: [100_000, 1_000_000] } });
  core = await fileBackedCore({
    credentials: { client_id: sandbox.clientId, client_secret: sandbox.clientSecret, refresh_token: sandbox.refreshToken() },
    settings: { apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl, timeoutMs: 1500 },
  });
});
afterAll(async () => {
  await core?.cleanup();
  await sandbox?.close();
  console.log(`upstream faults: ${tally.faults} injected, ${tally.errorsSeen} clear errors, ${tally.recoveries} recoveries`);
});

/** The stored refresh token is the one the upstream accepts right now. */
async function expectStoredTokenWorks(): Promise<void> {
  expect((await core.stored())["refresh_token"]).toBe(sandbox.refreshToken());
}

async function faultThenRecover(fault: Fault, expected: RegExp, options: { expireFirst?: boolean } = {}): Promise<void> {
  if (options.expireFirst) sandbox.expireAccessTokens();
  sandbox.injectFault(fault);
  tally.faults++;
  const failed = await core.call("get_athlete");
  expect(failed.isError, textOf(failed)).toBe(true);
  expect(textOf(failed)).toMatch(expected);
  tally.errorsSeen++;
  await expectStoredTokenWorks();
  const recovered = await core.call("get_athlete");
  expect(recovered.isError, textOf(recovered)).toBeUndefined();
  expect((JSON.parse(textOf(recovered)) as { id: number }).id).toBe(sandbox.athleteId);
  tally.recoveries++;
  await expectStoredTokenWorks();
}

describe("API faults", () => {
  it("timeout", () =>
    faultThenRecover({ kind: "delay", delayMs: 5000, match: "GET /athlete" }, /did not answer GET \/athlete within 1\.5 s \(timeout\)/));
  it("connection reset", () => faultThenRecover({ kind: "reset", match: "GET /athlete" }, /Network failure on GET \/athlete/));
  it("500", () =>
    faultThenRecover({ kind: "status", status: 500, match: "GET /athlete" }, /Strava answered 500 Internal Server Error to GET \/athlete/));
  it("503", () => faultThenRecover({ kind: "status", status: 503, match: "GET /athlete" }, /Strava answered 503 Service Unavailable/));
  it("truncated body", () =>
    faultThenRecover({ kind: "truncate", match: "GET /athlete" }, /Network failure on GET \/athlete|not complete JSON/));
  it("non-JSON body with 200", () =>
    faultThenRecover({ kind: "non-json", match: "GET /athlete" }, /with 200, but the body is not complete JSON/));
});

describe("token endpoint faults (the access token has just been revoked)", () => {
  it("token endpoint down (503)", () =>
    faultThenRecover({ kind: "status", status: 503, match: "POST /oauth/token" }, /The Strava token endpoint answered 503/, {
      expireFirst: true,
    }));
  it("token endpoint resets the connection", () =>
    faultThenRecover({ kind: "reset", match: "POST /oauth/token" }, /Could not reach the Strava token endpoint/, { expireFirst: true }));
  it("token endpoint too slow", () =>
    faultThenRecover({ kind: "delay", delayMs: 5000, match: "POST /oauth/token" }, /token endpoint .* did not answer within 1\.5 s/, {
      expireFirst: true,
    }));
  it("token endpoint answers garbage", () =>
    faultThenRecover({ kind: "non-json", match: "POST /oauth/token" }, /token endpoint answered with a body that is not JSON/, {
      expireFirst: true,
    }));
});

describe("the one loss no client can prevent", () => {
  // Strava rotated the refresh token and the answer carrying the new one was cut off in transit: the
  // old token is dead and the new one never arrived. The tool must say so clearly and point at the fix.
  it("a refresh answer cut off after rotation asks for a new authorization", async () => {
    sandbox.expireAccessTokens();
    sandbox.injectFault({ kind: "truncate", match: "POST /oauth/token" });
    tally.faults++;
    const cut = await core.call("get_athlete");
    expect(cut.isError).toBe(true);
    expect(textOf(cut)).toMatch(/token endpoint/);
    const next = await core.call("get_athlete");
    expect(textOf(next)).toMatch(
      /Strava refused to refresh the access token .* authorize again \(npm run authorize -- --store file --token-file \S+\)/,
    );
    tally.errorsSeen += 2;
  });
});

describe("Secrets Manager unavailable during the write-back", () => {
  let moto: MotoServer;
  let proxy: UnpluggableProxy;
  const savedEnv = { ...process.env };
  beforeAll(async () => {
    moto = await startMotoServer();
    proxy = await startUnpluggableProxy(new URL(moto.endpoint));
    Object.assign(process.env, moto.env, { AWS_ENDPOINT_URL_SECRETS_MANAGER: proxy.url, AWS_MAX_ATTEMPTS: "1" });
  }, 60_000);
  afterAll(async () => {
    process.env = savedEnv;
    await proxy?.close();
    await moto?.stop();
  });
  afterEach(() => proxy.plugIn());

  it("the rotated refresh token is kept, saved on the next call, and works", async () => {
    const admin = new SecretsManagerClient({ region: "us-west-2", endpoint: moto.endpoint });
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
    const { logger, lines } = capturingLogger();
    const deps = createToolDeps({
      store: new SecretsManagerStore({ secretName: "fitness-credentials", region: "us-west-2" }),
      logger,
      settings: { apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl },
    });
    // Secrets Manager goes away while Strava is rotating the tokens: once the token request has arrived (the secret
    // was read before it), in the 300 ms the sandbox holds its answer. Not after a fixed time: on a busy machine the
    // first read of the secret can take longer than any such guess, and then the read is what fails.
    sandbox.injectFault({ kind: "delay", delayMs: 300, match: "POST /oauth/token" });
    const tokenRequestsBefore = sandbox.counters().tokenRequests;
    const unplugged = (async () => {
      while (sandbox.counters().tokenRequests === tokenRequestsBefore) await new Promise((resolve) => setTimeout(resolve, 5));
      proxy.unplug();
    })();
    tally.faults++;
    const failed = await runTool(toolNamed("get_athlete"), {}, deps);
    await unplugged;
    expect(failed.isError).toBe(true);
    expect(failed.content[0].text).toMatch(
      /Strava issued new tokens but they could not be saved to Secrets Manager secret "fitness-credentials" in us-west-2/,
    );
    tally.errorsSeen++;
    // Strava has already retired the old refresh token; only this process holds the new one.
    const secretDuringOutage = JSON.parse(
      (await admin.send(new GetSecretValueCommand({ SecretId: "fitness-credentials", VersionStage: "AWSCURRENT" }))).SecretString!,
    );
    expect(secretDuringOutage.refresh_token).not.toBe(sandbox.refreshToken());
    // While it stays down, calls keep failing clearly and nothing is refreshed again.
    const before = sandbox.counters().tokenRequests;
    expect((await runTool(toolNamed("get_athlete"), {}, deps)).content[0].text).toMatch(/could not be saved/);
    expect(sandbox.counters().tokenRequests).toBe(before);
    // It comes back: the next call writes the kept tokens first, then works.
    proxy.plugIn();
    const recovered = await runTool(toolNamed("get_athlete"), {}, deps);
    expect(recovered.isError, recovered.content[0].text).toBeUndefined();
    tally.recoveries++;
    const secret = JSON.parse(
      (await admin.send(new GetSecretValueCommand({ SecretId: "fitness-credentials", VersionStage: "AWSCURRENT" }))).SecretString!,
    );
    expect(secret).toMatchObject({
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
      refresh_token: sandbox.refreshToken(),
    });
    expect(sandbox.counters().tokenRequests).toBe(before);
    expect(lines.some((line) => line.includes('"event":"token_save_failed"'))).toBe(true);
  });
});
