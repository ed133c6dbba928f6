/**
 * The hosted shape, locally: two instances of `npm start` in OAuth mode behind a round-robin balancer,
 * sharing one DynamoDB table and signing key secret (moto_server) and one Strava (the sandbox, run
 * apart from them). An athlete signs in through one instance and is served by both; Strava's tokens
 * are expired under concurrent load again and again, so both instances refresh one athlete's tokens at
 * once through the shared item, and not a call fails and not a refresh is lost (the stored refresh
 * token is the one Strava accepts at the end); this server's own refresh tokens rotate through both
 * instances. Tokens a process on the machine kept in the rescue directory are saved by either instance.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth } from "@modelcontextprotocol/client";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { DynamoDbCredentialStore } from "../../credentials/stores/dynamodb-store.ts";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { readdir } from "node:fs/promises";
import { baseEnv, scratchDirectory, spawnMcpChild, type McpChild } from "../mcp-adapter/mcp-child.ts";
import { RescuingCredentialStore } from "../../credentials/rescue/rescuing-store.ts";
import { TokenRescueDirectory } from "../../credentials/rescue/rescue-directory.ts";
import { capturingLogger } from "../support/core-harness.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { createOAuthResources } from "../support/oauth-aws.ts";
import { connectWithOAuth, resultText } from "../support/oauth-session.ts";
import { maya } from "../support/oauth-server.ts";
import { startRoundRobinProxy, type RoundRobinProxy } from "../support/round-robin-proxy.ts";
import { RecordingOAuthProvider } from "../support/sdk-oauth-provider.ts";

const plenty: [number, number] = [1_000_000, 10_000_000];
let moto: MotoServer;
let sandbox: RunningSandbox;
let proxy: RoundRobinProxy;
const instances: McpChild[] = [];
const rescue = scratchDirectory();
const savedEnv = { ...process.env };

beforeAll(async () => {
  moto = await startMotoServer();
  Object.assign(process.env, moto.env);
  await createOAuthResources({ table: "fitness-oauth", secret: "fitness-oauth-signing-key" });
  sandbox = await startSandbox({ rateLimits: { overall: plenty, read: plenty }, secondAthlete: true });
  proxy = await startRoundRobinProxy();
  const env = baseEnv({
    ...moto.env,
    MCP_AUTH: "oauth",
    PORT: "0",
    PUBLIC_URL: proxy.origin,
    MCP_OAUTH_TABLE: "fitness-oauth",
    MCP_SIGNING_KEY_SECRET: "fitness-oauth-signing-key",
    STRAVA_CLIENT_ID: sandbox.clientId,
    STRAVA_CLIENT_SECRET: sandbox.clientSecret,
    STRAVA_API_BASE: sandbox.apiBase,
    STRAVA_TOKEN_URL: sandbox.tokenUrl,
    STRAVA_AUTHORIZE_URL: sandbox.authorizeUrl,
    STRAVA_REVOKE_URL: sandbox.revokeUrl,
    FITNESS_TOKEN_RESCUE_DIR: rescue.path,
  });
  for (let i = 0; i < 2; i++) instances.push(spawnMcpChild({ env }));
  const ports = await Promise.all(instances.map(async (child) => Number((await child.waitForEvent("listening"))["port"])));
  proxy.setTargets(ports);
}, 90_000);

afterAll(async () => {
  await Promise.all(instances.map((child) => child.stop()));
  await proxy?.close();
  await sandbox?.close();
  await moto?.stop();
  process.env = savedEnv;
  rescue.remove();
});

describe("two instances on one DynamoDB table", () => {
  it(
    "serve one athlete through forced expiries under concurrent load without a failed call or a lost refresh",
    { timeout: 120_000 },
    async () => {
      const provider = new RecordingOAuthProvider();
      const mcpUrl = `${proxy.origin}/mcp`;
      const client = await connectWithOAuth(mcpUrl, provider);
      if (!client) throw new Error(`sign-in failed: ${JSON.stringify(provider.outcome?.page)}`);
      const failures: string[] = [];
      let calls = 0;
      for (let round = 0; round < 4; round++) {
        sandbox.expireAccessTokens();
        const results = await Promise.all(
          Array.from({ length: 16 }, (_, index) =>
            client.callTool({ name: index % 2 ? "get_athlete" : "get_activities", arguments: index % 2 ? {} : { per_page: 2 } }),
          ),
        );
        calls += results.length;
        for (const result of results) if (result.isError) failures.push(resultText(result));
      }
      expect(failures).toEqual([]);
      expect(calls).toBe(64);
      const counts = [...proxy.counts().values()];
      expect(counts).toHaveLength(2);
      expect(Math.min(...counts)).toBeGreaterThan(20);

      const stored = await new DynamoDbCredentialStore({
        tableName: "fitness-oauth",
        athleteId: maya,
        key: { name: "pk", value: `athlete#${maya}` },
        region: "us-west-2",
        application: { client_id: sandbox.clientId, client_secret: sandbox.clientSecret },
      }).load(AbortSignal.timeout(5_000));
      expect(sandbox.acceptsRefreshToken(stored.credentials.refresh_token)).toBe(true);
      const refreshed = instances.flatMap((child) => child.stderrLines.filter((line) => line.includes('"event":"token_refreshed"')));
      expect(refreshed.length).toBeGreaterThanOrEqual(4);

      // This server's own refresh tokens rotate through both instances, each new one working.
      let previous = provider.tokens()?.refresh_token;
      for (let i = 0; i < 4; i++) {
        expect(await auth(provider, { serverUrl: new URL(mcpUrl) })).toBe("AUTHORIZED");
        expect(provider.tokens()?.refresh_token).not.toBe(previous);
        previous = provider.tokens()?.refresh_token;
      }
      const after = await connectWithOAuth(mcpUrl, provider);
      expect(resultText(await after?.callTool({ name: "get_athlete", arguments: {} }))).toContain('"firstname":"Maya"');
      await after?.close();
      await client.close();
    },
  );

  it("tokens a stopped process kept in the rescue directory are saved by the next load, on either instance", async () => {
    const table = (client?: DynamoDBClient) =>
      new DynamoDbCredentialStore({
        tableName: "fitness-oauth",
        athleteId: maya,
        key: { name: "pk", value: `athlete#${maya}` },
        region: "us-west-2",
        application: { client_id: sandbox.clientId, client_secret: sandbox.clientSecret },
        ...(client ? { client } : {}),
      });
    // Signed in first: signing in with Strava stores a new grant of its own.
    const provider = new RecordingOAuthProvider();
    const client = await connectWithOAuth(`${proxy.origin}/mcp`, provider);
    if (!client) throw new Error(`sign-in failed: ${JSON.stringify(provider.outcome?.page)}`);
    // A process on this machine got new tokens from Strava and died before DynamoDB took them: its save failed
    // (no DynamoDB at that address), so only its copy holds the rotated refresh token.
    const before = await table().load(AbortSignal.timeout(5_000));
    const answer = await fetch(sandbox.tokenUrl, {
      method: "POST",
      body: new URLSearchParams({
        client_id: sandbox.clientId,
        client_secret: sandbox.clientSecret,
        grant_type: "refresh_token",
        refresh_token: before.credentials.refresh_token,
      }),
    });
    const rotated = (await answer.json()) as { access_token: string; refresh_token: string; expires_at: number };
    expect(rotated.refresh_token).not.toBe(before.credentials.refresh_token);
    const unreachable = new DynamoDBClient({
      region: "us-west-2",
      endpoint: "http://127.0.0.1:9",
      maxAttempts: 1,
      credentials: { accessKeyId: "test", secretAccessKey: "test" },
    });
    const dying = new RescuingCredentialStore(
      table(unreachable),
      TokenRescueDirectory.open(rescue.path, { createParents: false }),
      capturingLogger().logger,
    );
    await expect(dying.saveTokens(before, rotated, AbortSignal.timeout(5_000))).rejects.toThrow();
    unreachable.destroy();
    expect(await readdir(rescue.path)).toHaveLength(1);

    sandbox.expireAccessTokens();
    const result = await client.callTool({ name: "get_athlete", arguments: {} });
    await client.close();
    expect(resultText(result)).toContain('"firstname":"Maya"');
    expect(await readdir(rescue.path)).toEqual([]);
    await Promise.any(instances.map((child) => child.waitForEvent("tokens_rescued", 5_000)));
    const stored = await table().load(AbortSignal.timeout(5_000));
    expect(sandbox.acceptsRefreshToken(stored.credentials.refresh_token)).toBe(true);
  });
});
