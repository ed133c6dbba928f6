/**
 * Strava's webhook endpoint (authorization/strava/strava-webhook.ts) in process, through the OAuth app as OAuth
 * mode puts it together, with web Requests at its secret path and the sandbox as Strava: Strava's subscription
 * check is answered only with this deployment's verify token; an event not of Strava's shape is 400 naming what
 * is wrong; every well-formed event gets the same answer, whatever it names, and costs no request of Strava
 * unless it is a deauthorization of an athlete stored here; such a deauthorization is believed only once Strava
 * refuses the athlete's own credentials, and each athlete's check is taken at most once a quarter hour; one
 * address may post 60 events a minute. What only the server over HTTP shows (the path printed by
 * `npm run oauth-admin -- webhook`, forged events from hundreds of addresses) is webhook-abuse.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventsPerSourcePerMinute } from "../../../authorization/strava/strava-webhook.ts";
import { stravaWebhookPath } from "../../../authorization/strava/webhook-path.ts";
import { ManualOAuthClient } from "../../support/manual-oauth-client.ts";
import { jonas, maya } from "../../support/oauth-server.ts";
import { startOAuthInProcess, type InProcessOAuth } from "../../support/oauth-in-process.ts";
import { clearOfWindowTurn, minuteMs, quarterHourMs } from "../../support/window-turns.ts";

const verifyToken = "webhook-verify-token-in-process";
const subscriptionId = 4242;
let server: InProcessOAuth;
let path: string;

beforeAll(async () => {
  server = await startOAuthInProcess({
    env: {
      MCP_ATHLETES: `${maya},${jonas}`,
      STRAVA_WEBHOOK_VERIFY_TOKEN: verifyToken,
      STRAVA_WEBHOOK_SUBSCRIPTION_ID: String(subscriptionId),
    },
  });
  path = stravaWebhookPath(server.signingKey());
  // Both athletes sign in, so that both are stored here.
  for (const athlete of [maya, jonas]) {
    server.sandbox.signIn(Number(athlete));
    const client = new ManualOAuthClient(server.issuer, { fetch: server.fetch });
    await client.register();
    const { code, verifier } = await client.code();
    expect((await client.exchange(code, verifier)).status).toBe(200);
  }
});

afterAll(async () => {
  await server?.close();
});

/** A request at the webhook's path, as from `from` (the address the platform saw). */
function webhook(init: RequestInit & { query?: string; from?: string } = {}): Promise<Response> {
  const { query, from, ...rest } = init;
  return server.app.route(
    new Request(`${server.issuer}${path}${query ?? ""}`, rest),
    server.app.originOf(() => undefined, from ?? "203.0.113.7"),
  );
}

const event = (fields: Record<string, unknown> = {}) => ({
  object_type: "activity",
  object_id: 1234,
  aspect_type: "create",
  owner_id: Number(maya),
  subscription_id: subscriptionId,
  event_time: 1_700_000_000,
  updates: {},
  ...fields,
});
const deauthorization = (athlete: string) =>
  event({
    object_type: "athlete",
    object_id: Number(athlete),
    owner_id: Number(athlete),
    aspect_type: "update",
    updates: { authorized: "false" },
  });
const post = (body: unknown, from?: string) =>
  webhook({
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
    from,
  });
const stored = (athlete: string) => server.stores.athletes.hasAthlete(athlete, AbortSignal.timeout(5_000));

describe("Strava's subscription check", () => {
  it("is answered with the challenge only for this deployment's verify token", async () => {
    const check = (token: string) => webhook({ query: `?hub.mode=subscribe&hub.challenge=chal-42&hub.verify_token=${token}` });
    const answered = await check(verifyToken);
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ "hub.challenge": "chal-42" });
    const refused = await check(`${verifyToken}x`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: "forbidden" });
    expect((await webhook({ query: "?hub.challenge=chal-42" })).status).toBe(400);
    const put = await webhook({ method: "PUT" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST");
    expect(server.logs.some((line) => line.includes(verifyToken))).toBe(false);
  });
});

describe("events", () => {
  it("of another shape, or not JSON, are 400 naming what is wrong", async () => {
    const notJson = await post("{not json", "203.0.113.8");
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error_description: "The event must be a JSON object of at most 8 KiB." });
    for (const [body, problem] of [
      [event({ object_type: "club" }), 'object_type must be "activity" or "athlete"'],
      [event({ subscription_id: -1 }), "subscription_id must be a positive whole number"],
      [event({ object_type: "athlete", object_id: 1, owner_id: 2 }), "an athlete event's object_id and owner_id must be the athlete"],
    ] as const) {
      const answer = await post(body, "203.0.113.8");
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ error: "invalid_request", error_description: `Not a Strava webhook event: ${problem}.` });
    }
  });

  it("get one answer whatever they name, and cost Strava nothing unless they deauthorize an athlete stored here", async () => {
    const before = server.sandbox.counters().requests;
    for (const body of [
      event(),
      event({ subscription_id: subscriptionId + 1 }),
      deauthorization("99999999"),
      { ...deauthorization(maya), subscription_id: subscriptionId + 1 },
    ]) {
      const answer = await post(body, "203.0.113.9");
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ received: true });
    }
    expect(server.sandbox.counters().requests).toBe(before);
    expect(await stored(maya)).toBe(true);
  });

  it(
    "a deauthorization is believed only once Strava refuses the athlete's credentials, and checked once a quarter hour",
    { timeout: 45_000 },
    async () => {
      // Checks are remembered for the clock's quarter hour: one turning between the two forged events would let the
      // second ask Strava again. The two take a fraction of a second, so ten seconds clear of the turn leave them room.
      await clearOfWindowTurn(quarterHourMs, 10_000);
      // Maya did not revoke anything: Strava still takes her credentials, so nothing is deleted.
      expect(await (await post(deauthorization(maya), "203.0.113.10")).json()).toEqual({ received: true });
      expect(await stored(maya)).toBe(true);
      expect(server.events("strava_webhook").some((line) => line["reason"] === "deauthorization_unconfirmed")).toBe(true);
      // A second forged one within the quarter hour does not ask Strava again.
      const before = server.sandbox.counters().requests;
      expect(await (await post(deauthorization(maya), "203.0.113.10")).json()).toEqual({ received: true });
      expect(server.sandbox.counters().requests).toBe(before);
      // Jonas revokes the application on Strava: everything stored for him goes.
      await server.sandbox.deauthorize(Number(jonas));
      expect(await (await post(deauthorization(jonas), "203.0.113.10")).json()).toEqual({ received: true });
      expect(await stored(jonas)).toBe(false);
      expect(await stored(maya)).toBe(true);
    },
  );

  it(
    `one address may post ${eventsPerSourcePerMinute} a minute; past that 429 with Retry-After, other addresses unaffected`,
    { timeout: 45_000 },
    async () => {
      // Events are counted by the clock's minute: one turning between the last admitted post and the next would let it in.
      // The posts take a fraction of a second in process, so ten seconds clear of the turn leave them room many times over
      // (the whole test's time would mean waiting in half the runs).
      await clearOfWindowTurn(minuteMs, 10_000);
      for (let i = 0; i < eventsPerSourcePerMinute; i++) expect((await post(event(), "198.51.100.70")).status).toBe(200);
      const refused = await post(event(), "198.51.100.70");
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await post(event(), "198.51.100.71")).status).toBe(200);
    },
  );
});
