/**
 * Strava's webhook as an attacker pushes it, through the real server over HTTP, with the sandbox playing
 * Strava (its push subscription posts to the address the operator gave it) and counting what reaches it:
 *
 * - the webhook lives at a secret path that `npm run oauth-admin -- webhook` prints, with the commands that
 *   re-create an existing subscription (run here as printed); the old path and wrong secrets answer 404,
 *   and no log line holds the secret;
 * - so forging events at the old path cannot keep a real deauthorization waiting: the athlete who revokes
 *   on Strava is deleted;
 * - whoever learns the path still learns nothing from the answers: every well-formed event gets the same
 *   one, whether it names another subscription, an athlete stored here, one who is not, or one whose check
 *   is spent;
 * - forged deauthorizations from hundreds of addresses cost at most one Strava request for the athlete, and
 *   one address, or one IPv6 /64, may post 60 events a minute.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connectWithOAuth, rawToolCall } from "../support/oauth-session.ts";
import { jonas, maya, startOAuthServer, type OAuthServer } from "../support/oauth-server.ts";
import { RecordingOAuthProvider } from "../support/sdk-oauth-provider.ts";
import { baseEnv, repositoryRoot } from "../mcp-adapter/mcp-child.ts";
import { clearOfWindowTurn, minuteMs } from "../support/window-turns.ts";

const verifyToken = "webhook-verify-token-2";
let server: OAuthServer;
let webhookUrl: string;
let subscriptionId: number;
let provider: RecordingOAuthProvider;
let credentials: { client_id: string; client_secret: string };

beforeAll(async () => {
  server = await startOAuthServer({
    MCP_ATHLETES: `${maya},${jonas}`,
    STRAVA_WEBHOOK_VERIFY_TOKEN: verifyToken,
    MCP_CLIENT_ADDRESS_HEADER: "x-forwarded-for",
  });
  credentials = (await (await fetch(`${server.sandboxBaseUrl}/_sandbox/credentials`)).json()) as typeof credentials;
  provider = new RecordingOAuthProvider();
  (await connectWithOAuth(server.mcpUrl, provider))?.close();
});

afterAll(async () => {
  await server?.stop();
});

/** `npm run oauth-admin -- webhook` for this server, as its operator runs it. */
function oauthAdminWebhook(): string {
  const run = spawnSync(process.execPath, ["--import", "tsx", "authorization/oauth-admin-cli.ts", "webhook"], {
    cwd: repositoryRoot,
    env: baseEnv({
      FITNESS_OAUTH_DIR: server.stateDirectory,
      PUBLIC_URL: server.issuer,
      STRAVA_CLIENT_ID: credentials.client_id,
      STRAVA_CLIENT_SECRET: credentials.client_secret,
      STRAVA_API_BASE: `${server.sandboxBaseUrl}/api/v3`,
    }),
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

/** A server that answers Strava's subscription check, as a deployment of the earlier version did at /strava/webhook. */
async function earlierVersion(): Promise<{ url: string; server: Server }> {
  const earlier = createServer((request, response) => {
    const challenge = new URL(request.url ?? "/", "http://x").searchParams.get("hub.challenge");
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ "hub.challenge": challenge }));
  });
  await new Promise<void>((resolve) => earlier.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(earlier.address() as AddressInfo).port}/strava/webhook`, server: earlier };
}

function post(body: unknown, from: string, url = webhookUrl): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": from },
    body: JSON.stringify(body),
  });
}

const deauthorization = (subscription: number, athlete = maya): Record<string, unknown> => ({
  aspect_type: "update",
  object_type: "athlete",
  object_id: Number(athlete),
  owner_id: Number(athlete),
  subscription_id: subscription,
  event_time: 1_700_000_000,
  updates: { authorized: "false" },
});

async function stravaRequests(): Promise<Record<string, number>> {
  return ((await (await fetch(`${server.sandboxBaseUrl}/_sandbox/counters`)).json()) as { byRoute: Record<string, number> }).byRoute;
}

describe("the webhook's address", () => {
  it("is printed for the operator, whose printed commands re-create an existing subscription with it", async () => {
    const printed = oauthAdminWebhook();
    webhookUrl = /^ {2}(http\S+\/strava\/webhook\/[A-Za-z0-9_-]{43})$/m.exec(printed)?.[1] as string;
    expect(webhookUrl, printed).toBe(server.webhookUrl());
    // The subscription an upgraded deployment has: made by the earlier version, at the old path.
    const earlier = await earlierVersion();
    try {
      const made = await fetch(`${server.sandboxBaseUrl}/api/v3/push_subscriptions`, {
        method: "POST",
        body: new URLSearchParams({ ...credentials, callback_url: earlier.url, verify_token: verifyToken }),
      });
      expect(made.status).toBe(201);
    } finally {
      earlier.server.close();
    }
    // The three commands, as printed: list, delete by the listed id, create.
    const commands = printed.split("\n").filter((line) => line.startsWith("  curl "));
    expect(commands).toHaveLength(3);
    const shell = (command: string): string =>
      execFileSync("sh", ["-c", command], {
        env: { PATH: process.env["PATH"] ?? "", STRAVA_CLIENT_SECRET: credentials.client_secret, STRAVA_WEBHOOK_VERIFY_TOKEN: verifyToken },
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
    const listed = JSON.parse(shell(commands[0] as string)) as { id: number; callback_url: string }[];
    expect(listed).toEqual([expect.objectContaining({ callback_url: earlier.url })]);
    shell((commands[1] as string).replace("/ID?", `/${listed[0]?.id}?`));
    subscriptionId = (JSON.parse(shell(commands[2] as string)) as { id: number }).id;
    expect(JSON.parse(shell(commands[0] as string))).toEqual([expect.objectContaining({ id: subscriptionId, callback_url: webhookUrl })]);
  });

  it("the old path and wrong secrets answer 404 to the subscription check and to events, and no log line holds the secret", async () => {
    const secret = webhookUrl.split("/").at(-1) as string;
    for (const url of [`${server.issuer}/strava/webhook`, `${server.issuer}/strava/webhook/${"A".repeat(43)}`, `${webhookUrl}x`]) {
      const check = await fetch(`${url}?hub.mode=subscribe&hub.challenge=c&hub.verify_token=${verifyToken}`);
      expect(check.status, url).toBe(404);
      expect((await post(deauthorization(subscriptionId), "192.0.2.9", url)).status, url).toBe(404);
    }
    expect(server.child.stderrLines.filter((line) => line.includes(secret))).toEqual([]);
  });
});

describe("forged webhook events", () => {
  it("at the old path cannot keep a real deauthorization waiting: the athlete who revokes on Strava is deleted", async () => {
    await server.signIn(jonas);
    const jonasProvider = new RecordingOAuthProvider();
    (await connectWithOAuth(server.mcpUrl, jonasProvider))?.close();
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(deauthorization(subscriptionId, jonas), `198.18.99.${i}`, `${server.issuer}/strava/webhook`),
      ),
    );
    await server.deauthorize(jonas);
    await server.child.waitForEvent("athlete_disconnected", 10_000, (line) => line["athlete"] === jonas);
    expect((await rawToolCall(server.mcpUrl, jonasProvider.tokens()?.access_token, "get_athlete")).status).toBe(401);
  });

  it("of another shape are refused before any work", async () => {
    const before = await stravaRequests();
    expect((await post({ ...deauthorization(subscriptionId), subscription_id: undefined }, "192.0.2.10")).status).toBe(400);
    expect((await post({ ...deauthorization(subscriptionId), object_type: "club" }, "192.0.2.10")).status).toBe(400);
    expect((await post({ ...deauthorization(subscriptionId), owner_id: 1 }, "192.0.2.10")).status).toBe(400);
    expect((await post([], "192.0.2.10")).status).toBe(400);
    const after = await stravaRequests();
    expect(after["GET /athlete"] ?? 0).toBe(before["GET /athlete"] ?? 0);
  });

  it("get one answer, whether they name another subscription, an athlete stored here or not, or one whose check is spent", async () => {
    const before = await stravaRequests();
    const answers = [
      await post(deauthorization(subscriptionId + 1), "192.0.2.11"),
      await post(deauthorization(subscriptionId, "999000111"), "192.0.2.11"),
      // Maya is stored here: her check is made (Strava still accepts her), then spent for the quarter hour.
      await post(deauthorization(subscriptionId), "192.0.2.11"),
      await post(deauthorization(subscriptionId), "192.0.2.11"),
      await post({ ...deauthorization(subscriptionId), object_type: "activity", updates: {} }, "192.0.2.11"),
    ];
    const seen = await Promise.all(
      answers.map(async (answer) => ({ status: answer.status, type: answer.headers.get("content-type"), body: await answer.text() })),
    );
    expect(new Set(seen.map((answer) => JSON.stringify(answer))).size, JSON.stringify(seen)).toBe(1);
    expect(seen[0]).toEqual({ status: 200, type: "application/json", body: '{"received":true}' });
    // Only Maya's event, the first of its quarter hour, asked Strava anything.
    expect(((await stravaRequests())["GET /athlete"] ?? 0) - (before["GET /athlete"] ?? 0)).toBeLessThanOrEqual(1);
    expect((await rawToolCall(server.mcpUrl, provider.tokens()?.access_token, "get_athlete")).status).toBe(200);
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
      expect(statuses.every((status) => status === 200)).toBe(true);
      expect((await rawToolCall(server.mcpUrl, provider.tokens()?.access_token, "get_athlete")).status).toBe(200);
      const logged = server.child.stderrLines.filter((line) => line.includes('"event":"strava_webhook"'));
      expect(logged.length).toBeLessThan(16);
    },
  );

  it("one address, or one IPv6 /64, may post 60 events a minute", { timeout: 45_000 }, async () => {
    // The server (a child on the same clock) counts events by the clock's minute: one turning during a burst would let
    // a 61st through. The bursts take a fraction of a second, so ten seconds clear of the turn leave them room.
    await clearOfWindowTurn(minuteMs, 10_000);
    const activity = {
      aspect_type: "create",
      object_type: "activity",
      object_id: 1,
      owner_id: Number(maya),
      subscription_id: subscriptionId,
      event_time: 1_700_000_000,
      updates: {},
    };
    for (const from of [() => "192.0.2.77", (i: number) => `2001:db8:77:1:${(i + 1).toString(16)}::1`]) {
      const answers = await Promise.all(Array.from({ length: 61 }, (_, i) => post(activity, from(i))));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(60);
      const refused = answers[statuses.indexOf(429)];
      expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // Another /64 is not affected.
    expect((await post(activity, "2001:db8:77:2::1")).status).toBe(200);
  });
});
