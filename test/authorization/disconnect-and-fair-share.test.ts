/**
 * Disconnecting, and sharing Strava's rate limit:
 *
 * - Strava's webhook: the sandbox validates the push subscription against the server (hub.challenge with
 *   the verify token) and, when an athlete revokes the application on Strava, posts the deauthorization
 *   event; the server confirms it with Strava, deletes everything it stored for the athlete, and their
 *   grants stop working. A forged event for an athlete whose access still works changes nothing.
 * - Revoking an athlete's last grant (RFC 7009) revokes the Strava grant too and deletes their data.
 * - Each admitted athlete gets a fair share of the application's limit: past it, a 429 naming the
 *   athlete and the window, nothing sent to Strava, and the other athlete unaffected; Strava's own 429
 *   says the whole application's budget ran out.
 */
import { afterAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { RecordingOAuthProvider } from "../support/sdk-oauth-provider.ts";
import { connectWithOAuth, rawToolCall, resultText } from "../support/oauth-session.ts";
import { jonas, maya, startOAuthServer, type OAuthServer } from "../support/oauth-server.ts";
import { clearOfWindowTurn, quarterHourMs } from "../support/window-turns.ts";

const servers: OAuthServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});
async function start(env: Record<string, string> = {}): Promise<OAuthServer> {
  const server = await startOAuthServer(env);
  servers.push(server);
  return server;
}

async function subscribe(server: OAuthServer, verifyToken: string): Promise<Response> {
  const credentials = (await (await fetch(`${server.sandboxBaseUrl}/_sandbox/credentials`)).json()) as {
    client_id: string;
    client_secret: string;
  };
  return fetch(`${server.sandboxBaseUrl}/api/v3/push_subscriptions`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...credentials, callback_url: server.webhookUrl(), verify_token: verifyToken }),
  });
}

describe("disconnecting", () => {
  it("Strava's deauthorization event deletes the athlete's data and ends their grants; a forged one changes nothing", async () => {
    const server = await start({ MCP_ATHLETES: `${maya},${jonas}`, STRAVA_WEBHOOK_VERIFY_TOKEN: "webhook-verify-token-1" });
    expect((await subscribe(server, "not-the-token")).status).toBe(400);
    const created = await subscribe(server, "webhook-verify-token-1");
    expect(created.status).toBe(201);

    const mayaProvider = new RecordingOAuthProvider();
    (await connectWithOAuth(server.mcpUrl, mayaProvider))?.close();
    await server.signIn(jonas);
    const jonasProvider = new RecordingOAuthProvider();
    (await connectWithOAuth(server.mcpUrl, jonasProvider))?.close();
    const mayaFile = join(server.stateDirectory, "athletes", `${maya}.json`);
    expect(existsSync(mayaFile)).toBe(true);

    // A forged event naming another subscription (from someone who learned the webhook's address): ignored
    // before anything is asked, with the answer every event gets.
    const subscriptionId = ((await created.json()) as { id: number }).id;
    const forge = (subscription: number): Promise<Response> =>
      fetch(server.webhookUrl(), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          aspect_type: "update",
          object_type: "athlete",
          object_id: Number(jonas),
          owner_id: Number(jonas),
          subscription_id: subscription,
          event_time: 1,
          updates: { authorized: "false" },
        }),
      });
    expect((await forge(subscriptionId + 1)).status).toBe(200);
    await server.child.waitForEvent("strava_webhook", 5_000, (line) => line["reason"] === "other_subscription");
    // A forged event for Jonas with this deployment's subscription, whose access Strava still accepts: ignored.
    expect((await forge(subscriptionId)).status).toBe(200);
    await server.child.waitForEvent("strava_webhook", 5_000, (line) => line["reason"] === "deauthorization_unconfirmed");
    expect((await rawToolCall(server.mcpUrl, jonasProvider.tokens()?.access_token, "get_athlete")).status).toBe(200);

    // Maya revokes the application on Strava's settings page: the sandbox pushes the event.
    await server.deauthorize(maya);
    await server.child.waitForEvent("athlete_disconnected", 5_000, (line) => line["athlete"] === maya);
    expect(existsSync(mayaFile)).toBe(false);
    const after = await rawToolCall(server.mcpUrl, mayaProvider.tokens()?.access_token, "get_athlete");
    expect(after.status).toBe(401);
    expect((await rawToolCall(server.mcpUrl, jonasProvider.tokens()?.access_token, "get_athlete")).status).toBe(200);
  });

  it("revoking an athlete's last grant revokes the Strava grant and deletes their data", async () => {
    const server = await start();
    const provider = new RecordingOAuthProvider();
    (await connectWithOAuth(server.mcpUrl, provider))?.close();
    const file = join(server.stateDirectory, "athletes", `${maya}.json`);
    expect(existsSync(file)).toBe(true);
    const revoked = await fetch(`${server.issuer}/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        token: provider.tokens()?.refresh_token as string,
        client_id: provider.clientInformation()?.client_id as string,
      }),
    });
    expect(revoked.status).toBe(200);
    await server.child.waitForEvent("athlete_disconnected", 5_000);
    expect(existsSync(file)).toBe(false);
    const counters = (await (await fetch(`${server.sandboxBaseUrl}/_sandbox/counters`)).json()) as { byRoute: Record<string, number> };
    expect(counters.byRoute["POST /oauth/revoke"]).toBe(1);
  });
});

describe("the application's rate limit, shared", () => {
  // Both tests fill a 15-minute window of the server's (or its sandbox's), on the real clock of a child process: a
  // quarter hour during the test would start the counts again and let the request meant to be refused through.
  // So each starts only with a whole test's time left before the next quarter hour.
  const testMs = 30_000;
  const clearOfTheQuarterHour = (): Promise<void> => clearOfWindowTurn(quarterHourMs, testMs);
  const timeout = 2 * testMs + 5_000;

  it(
    "each athlete gets their share; past it a 429 names the athlete and window, and the other athlete is unaffected",
    { timeout },
    async () => {
      await clearOfTheQuarterHour();
      // Application limits 10 per 15 minutes overall and 8 for reads, less one deauthorization check per athlete,
      // shared by two athletes: 4 and 3 each.
      const server = await start({ MCP_ATHLETES: `${maya},${jonas}`, STRAVA_RATE_LIMITS: "10,100,8,60" });
      const mayaClient = await connectWithOAuth(server.mcpUrl, new RecordingOAuthProvider());
      await server.signIn(jonas);
      const jonasClient = await connectWithOAuth(server.mcpUrl, new RecordingOAuthProvider());
      if (!mayaClient || !jonasClient) throw new Error("sign-in failed");
      for (let i = 0; i < 3; i++) expect((await mayaClient.callTool({ name: "get_athlete", arguments: {} })).isError).toBeFalsy();
      const before = (await (await fetch(`${server.sandboxBaseUrl}/_sandbox/counters`)).json()) as { apiRequests: number };
      const refused = await mayaClient.callTool({ name: "get_athlete", arguments: {} });
      expect(refused.isError).toBe(true);
      expect(resultText(refused)).toMatch(
        /429 Too Many Requests: athlete 48201735's share .* 3 of 3 requests in the read 15-minute window .* shared by the 2 athletes/,
      );
      const after = (await (await fetch(`${server.sandboxBaseUrl}/_sandbox/counters`)).json()) as { apiRequests: number };
      expect(after.apiRequests).toBe(before.apiRequests);
      // Writes count against the overall window only: one more fits.
      const created = await mayaClient.callTool({
        name: "create_activity",
        arguments: { name: "Core", sport_type: "Workout", start_date_local: "2026-11-20T07:00:00", elapsed_time: 1200 },
      });
      expect(created.isError).toBeFalsy();
      expect((await jonasClient.callTool({ name: "get_athlete", arguments: {} })).isError).toBeFalsy();
      await server.child.waitForEvent("fair_share_exceeded", 5_000, (line) => line["athlete"] === maya);
      await mayaClient.close();
      await jonasClient.close();
    },
  );

  it("Strava's own 429 says the whole application's budget ran out", { timeout }, async () => {
    await clearOfTheQuarterHour();
    const server = await start({ MCP_ATHLETES: `${maya},${jonas}`, SANDBOX_RATE_LIMITS: "2,1000,100,1000" });
    const client = await connectWithOAuth(server.mcpUrl, new RecordingOAuthProvider());
    if (!client) throw new Error("sign-in failed");
    let last;
    for (let i = 0; i < 3; i++) last = await client.callTool({ name: "get_athlete", arguments: {} });
    expect(last?.isError).toBe(true);
    expect(resultText(last)).toMatch(/Strava answered 429/);
    expect(resultText(last)).toMatch(/whole application, shared by the 2 athletes/);
    await client.close();
  });
});
