/**
 * Strava's webhook costs nothing it should not, through the real server over HTTP, with the sandbox
 * counting what reaches "Strava": events that are not Strava's shape or name another subscription are
 * refused before any work; forged deauthorizations with this deployment's subscription, from hundreds of
 * addresses, cost at most one Strava request for the athlete (their deauthorization checks have a budget
 * of their own, outside the fair share); one address may post 60 events a minute; and the endpoint's log
 * stays a few lines.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectWithOAuth, rawToolCall } from "../../support/oauth-session.ts";
import { maya, startOAuthServer, type OAuthServer } from "../../support/oauth-server.ts";
import { RecordingOAuthProvider } from "../../support/sdk-oauth-provider.ts";

let server: OAuthServer;
let subscriptionId: number;
let provider: RecordingOAuthProvider;

beforeAll(async () => {
  server = await startOAuthServer({
    MCP_ATHLETES: maya,
    STRAVA_WEBHOOK_VERIFY_TOKEN: "webhook-verify-token-2",
    MCP_CLIENT_ADDRESS_HEADER: "x-forwarded-for",
  });
  const credentials = (await (await fetch(`${server.sandboxBaseUrl}/_sandbox/credentials`)).json()) as {
    client_id: string;
    client_secret: string;
  };
  const created = await fetch(`${server.sandboxBaseUrl}/api/v3/push_subscriptions`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...credentials, callback_url: `${server.issuer}/strava/webhook`, verify_token: "webhook-verify-token-2" }),
  });
  subscriptionId = ((await created.json()) as { id: number }).id;
  provider = new RecordingOAuthProvider();
  (await connectWithOAuth(server.mcpUrl, provider))?.close();
});

afterAll(async () => {
  await server?.stop();
});

function post(body: unknown, from: string): Promise<Response> {
  return fetch(`${server.issuer}/strava/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": from },
    body: JSON.stringify(body),
  });
}

const deauthorization = (subscription: number): Record<string, unknown> => ({
  aspect_type: "update",
  object_type: "athlete",
  object_id: Number(maya),
  owner_id: Number(maya),
  subscription_id: subscription,
  event_time: 1_700_000_000,
  updates: { authorized: "false" },
});

async function stravaRequests(): Promise<Record<string, number>> {
  return ((await (await fetch(`${server.sandboxBaseUrl}/_sandbox/counters`)).json()) as { byRoute: Record<string, number> }).byRoute;
}

describe("forged webhook events", () => {
  it("of another shape or subscription are refused before any work", async () => {
    const before = await stravaRequests();
    expect((await post({ ...deauthorization(subscriptionId), subscription_id: undefined }, "192.0.2.10")).status).toBe(400);
    expect((await post({ ...deauthorization(subscriptionId), object_type: "club" }, "192.0.2.10")).status).toBe(400);
    expect((await post({ ...deauthorization(subscriptionId), owner_id: 1 }, "192.0.2.10")).status).toBe(400);
    expect((await post([], "192.0.2.10")).status).toBe(400);
    expect((await post(deauthorization(subscriptionId + 1), "192.0.2.10")).status).toBe(403);
    const after = await stravaRequests();
    expect(after["GET /athlete"] ?? 0).toBe(before["GET /athlete"] ?? 0);
  });

  it(
    "1,000 forged deauthorizations from as many addresses cost at most one Strava request for the athlete",
    { timeout: 60_000 },
    async () => {
      const before = await stravaRequests();
      const startedMs = Date.now();
      const statuses: number[] = [];
      for (let batch = 0; batch < 20; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 50 }, (_, i) => post(deauthorization(subscriptionId), `198.18.${batch}.${i}`)),
        );
        statuses.push(...answers.map((answer) => answer.status));
      }
      const after = await stravaRequests();
      // One check per quarter hour (a flood that crosses :00, :15, :30 or :45 may take one more).
      const quarters = Math.floor(Date.now() / 900_000) - Math.floor(startedMs / 900_000) + 1;
      expect((after["GET /athlete"] ?? 0) - (before["GET /athlete"] ?? 0)).toBeLessThanOrEqual(quarters);
      expect((after["GET /push_subscriptions"] ?? 0) - (before["GET /push_subscriptions"] ?? 0)).toBeLessThanOrEqual(1);
      // One check said Strava still accepts Maya (200); the rest wait for the next window (503: Strava would retry).
      expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(quarters);
      expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
      expect((await rawToolCall(server.mcpUrl, provider.tokens()?.access_token, "get_athlete")).status).toBe(200);
      const logged = server.child.stderrLines.filter((line) => line.includes('"event":"strava_webhook"'));
      expect(logged.length).toBeLessThan(12);
    },
  );

  it("one address may post 60 events a minute", async () => {
    const activity = {
      aspect_type: "create",
      object_type: "activity",
      object_id: 1,
      owner_id: Number(maya),
      subscription_id: subscriptionId,
      event_time: 1_700_000_000,
      updates: {},
    };
    const answers = await Promise.all(Array.from({ length: 61 }, () => post(activity, "192.0.2.77")));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(60);
    const refused = answers[statuses.indexOf(429)];
    expect(refused?.headers.get("retry-after")).toBe("60");
  });
});
