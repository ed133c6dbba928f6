/**
 * Anonymous registration cannot grow what every request costs (authorization/endpoints/registration-limits.ts),
 * through the authorization server as OAuth mode puts it together, in process (test/support/oauth-in-process.ts:
 * its state as local files, requests as web Requests through the route table, the address a proxy names in
 * x-forwarded-for):
 *
 * - one source may register 20 clients an hour; the 21st gets 429 with Retry-After, and another source
 *   is not affected. Behind a proxy the operator names (MCP_CLIENT_ADDRESS_HEADER) the last address in
 *   the header counts, so a client cannot pick its own source;
 * - registrations that never complete a grant share 1,000 places: a flood from many networks evicts its
 *   own (the networks holding the most places), never a client that signed in nor an unused one from
 *   elsewhere, and a real new client still registers and signs in;
 * - a registration whose sign-in is in progress is not evicted, and no network holds more than its share of
 *   the places (an IPv6 /64 or /48 or an IPv4 /24 5%, an IPv6 /32 10%): rotating 50 IPv6 /64s neither evicts
 *   a client that is signing in nor every unused registration, and sign-ins started from one network pin
 *   at most its share (past it that network gets 429 saying when to retry, and others still register);
 * - only valid registrations are counted, in storage that does not grow with the number of sources: invalid
 *   ones write nothing and spend nobody's quota;
 * - the state is one small file per record (and the places' index, bounded by their number), so nothing a
 *   request reads grows with the flood.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ManualOAuthClient, manualRedirectUri } from "../../support/manual-oauth-client.ts";
import { startOAuthInProcess, type InProcessOAuth } from "../../support/oauth-in-process.ts";
import { rawToolCall } from "../../support/oauth-session.ts";
import { clearOfWindowTurn, hourMs } from "../../support/window-turns.ts";

type OAuthServer = InProcessOAuth;
let server: OAuthServer;

const startServer = (): Promise<OAuthServer> => startOAuthInProcess({ env: { MCP_CLIENT_ADDRESS_HEADER: "x-forwarded-for" } });

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.close();
});

/** A client of `on`, sending its requests in process. */
function clientOf(on: OAuthServer): ManualOAuthClient {
  return new ManualOAuthClient(on.issuer, { fetch: on.fetch });
}

function register(forwardedFor: string | undefined, name = "Flood", on: OAuthServer = server): Promise<Response> {
  return on.fetch(`${on.issuer}/register`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}) },
    body: JSON.stringify({ client_name: name, redirect_uris: [manualRedirectUri], token_endpoint_auth_method: "none" }),
  });
}

function filesUnder(directory: string): { path: string; size: number }[] {
  return readdirSync(directory, { recursive: true, encoding: "utf8" })
    .map((name) => join(directory, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, size: statSync(path).size }));
}

describe("registration from one source", () => {
  it(
    "takes 20 an hour, then answers 429 with Retry-After; other sources and the connection's own address are counted apart",
    { timeout: 65_000 },
    async () => {
      // Registrations are counted by the clock's hour: one turning between the 20th and the 21st would let the 21st in.
      await clearOfWindowTurn(hourMs, 30_000);
      for (let i = 0; i < 20; i++) expect((await register("198.51.100.7")).status).toBe(201);
      const refused = await register("198.51.100.7");
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(((await refused.json()) as { error_description: string }).error_description).toMatch(
        /registered 20 clients in the last hour.*register again in \d+ s/,
      );
      // A client cannot choose its source: only the last address, the proxy's own, counts.
      expect((await register("192.0.2.1, 198.51.100.7")).status).toBe(429);
      expect((await register("198.51.100.8")).status).toBe(201);
      expect((await register(undefined)).status).toBe(201);
      // An IPv6 source counts by its /64.
      for (let i = 0; i < 20; i++) expect((await register(`2001:db8:1:2::${i.toString(16)}`)).status).toBe(201);
      expect((await register("2001:db8:1:2:ffff::1")).status).toBe(429);
      expect((await register("2001:db8:1:3::1")).status).toBe(201);
    },
  );
});

describe("a flood of registrations from many sources", () => {
  it(
    "evicts the flood's own oldest registrations, never a client that signed in nor an unused one from elsewhere, and costs a signed-in athlete nothing",
    { timeout: 120_000 },
    async () => {
      const signedIn = clientOf(server);
      await signedIn.register();
      const { code, verifier } = await signedIn.code();
      const tokens = (await signedIn.exchange(code, verifier)).body as { access_token: string; refresh_token: string };
      const unused = clientOf(server);
      await unused.register();

      // 1,100 more from 55 sources of 20 each, each in an IPv4 /24 of its own: more than the 1,000 places.
      for (let source = 0; source < 55; source++) {
        const answers = await Promise.all(Array.from({ length: 20 }, () => register(`203.0.${source}.7`)));
        expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
      }

      // The unused registration made before the flood, from a network holding few places, is still there.
      const consent = await server.fetch(unused.authorizeUrl({ code_challenge: unused.pkce().challenge }));
      expect(consent.status).toBe(200);
      await consent.arrayBuffer();
      // The client that signed in keeps working: its token, and a refresh.
      expect((await rawToolCall(server.mcpUrl, tokens.access_token, "get_athlete", {}, server.fetch)).status).toBe(200);
      const refreshed = await signedIn.token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token });
      expect(refreshed.status).toBe(200);
      // A real new client still gets in.
      const newcomer = clientOf(server);
      await newcomer.register();
      const fresh = await newcomer.code();
      expect((await newcomer.exchange(fresh.code, fresh.verifier)).status).toBe(200);

      // One small file per record: nothing a request reads grows with the flood, and the unused ones are capped.
      // The places' index is bounded by the number of places; the hour's counts have a fixed size and are
      // read 9 bytes at a time.
      const files = filesUnder(server.stateDirectory);
      const index = files.find((file) => file.path.endsWith("ring.index"));
      expect(index?.size).toBeLessThan(1_000 * 100);
      const counts = files.filter((file) => file.path.endsWith(".counts"));
      for (const file of counts) expect(file.size).toBeLessThanOrEqual(4_096 * 9);
      const records = files.filter((file) => file !== index && !counts.includes(file));
      const largest = records.reduce((a, b) => (a.size >= b.size ? a : b));
      expect(largest.size, largest.path).toBeLessThan(4_096);
      const clients = files.filter((file) => /clients\/fc_[^/]+\.json$/.test(file.path)).length;
      expect(clients).toBeLessThanOrEqual(1_000 + 2);
      // Registrations are logged at a bounded rate, not one line each.
      const lines = server.logs.filter((line) => line.includes('"event":"client_registered"'));
      expect(lines.length).toBeLessThan(20);
    },
  );
});

/** A registration from `forwardedFor`: its client_id. */
async function registeredFrom(on: OAuthServer, forwardedFor: string, name: string): Promise<string> {
  const answer = await register(forwardedFor, name, on);
  expect(answer.status, await answer.clone().text()).toBe(201);
  return ((await answer.json()) as { client_id: string }).client_id;
}

/** The registered clients in a server's state directory with this name. */
function storedClientsNamed(on: OAuthServer, name: string): number {
  return filesUnder(join(on.stateDirectory, "clients"))
    .filter((file) => /fc_[^/]+\.json$/.test(file.path))
    .filter((file) => (JSON.parse(readFileSync(file.path, "utf8")) as { client_name?: string }).client_name === name).length;
}

describe("rotating networks against clients that registered and are signing in", () => {
  let own: OAuthServer;

  beforeAll(async () => {
    own = await startServer();
  });
  afterAll(async () => {
    await own?.close();
  });

  it(
    "50 rotating IPv6 /64s (20 registrations each, 1,000 in all) evict neither a client whose sign-in is in progress nor an unused registration from elsewhere",
    { timeout: 120_000 },
    async () => {
      const waiting = clientOf(own);
      waiting.clientId = await registeredFrom(own, "198.51.100.20", "Registered, not signing in yet");
      // A client that registers from its vendor's cloud, then sends the athlete to the consent page.
      const signingIn = clientOf(own);
      signingIn.clientId = await registeredFrom(own, "192.0.2.50", "Signing in");
      const { verifier, challenge } = signingIn.pkce();
      const outcome = await signingIn.userAgent.authorize(signingIn.authorizeUrl({ code_challenge: challenge }), {
        redirectUri: manualRedirectUri,
        // While the athlete reads the consent page: 50 /64s, each in a /32 of its own, 20 registrations each.
        beforeConsent: async () => {
          for (let network = 1; network <= 50; network++) {
            const answers = await Promise.all(
              Array.from({ length: 20 }, (_, host) =>
                register(`2600:${network.toString(16)}:0:1::${(host + 1).toString(16)}`, "Rotating", own),
              ),
            );
            expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
          }
        },
      });
      const code = outcome.callback?.searchParams.get("code");
      expect(code, JSON.stringify(outcome.page ?? outcome.visited)).toBeTruthy();
      expect((await signingIn.exchange(code as string, verifier)).status).toBe(200);
      // The unused registration from another network is still there: its sign-in link shows the consent page.
      const consent = await own.fetch(waiting.authorizeUrl({ code_challenge: waiting.pkce().challenge }));
      expect(consent.status).toBe(200);
      expect(await consent.text()).toContain("Registered, not signing in yet");
    },
  );

  it(
    "no IPv6 /48 holds more than 5% of the places: 5 of its /64s registering 100 clients keep at most 50, their own oldest evicted",
    { timeout: 120_000 },
    async () => {
      for (let network = 0; network < 5; network++) {
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, host) =>
            register(`2001:db8:4800:${network.toString(16)}::${(host + 1).toString(16)}`, "One /48", own),
          ),
        );
        expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
      }
      // At most its share (with every place taken it soon holds the most, and evicts its own oldest earlier).
      const kept = storedClientsNamed(own, "One /48");
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThanOrEqual(50);
      expect(storedClientsNamed(own, "Registered, not signing in yet")).toBe(1);
    },
  );

  it(
    "sign-ins started from one network pin at most its share: past it that network gets 429 saying when to retry, and others still register",
    { timeout: 120_000 },
    async () => {
      // 50 registrations from three /64s of one /48 (its whole share), each with a sign-in started.
      for (let n = 0; n < 50; n++) {
        const client = clientOf(own);
        client.clientId = await registeredFrom(own, `2001:db8:4801:${Math.floor(n / 20)}::${(n + 1).toString(16)}`, "Pinning");
        const consent = await own.fetch(client.authorizeUrl({ code_challenge: client.pkce().challenge }));
        expect(consent.status).toBe(200);
        await consent.arrayBuffer();
      }
      const refused = await register("2001:db8:4801:2::ff", "Pinning", own);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(600);
      expect(retryAfter).toBeLessThanOrEqual(900);
      expect(((await refused.json()) as { error_description: string }).error_description).toMatch(
        /^This network \(its IPv6 \/48\) already holds its share of the places this server keeps for registrations that have not signed in yet, each with a sign-in in progress; register again in \d+ s, or reuse a client_id you were given\.$/,
      );
      expect((await register("2001:db8:4802::1", "Elsewhere", own)).status).toBe(201);
      expect((await register("203.0.113.99", "Elsewhere", own)).status).toBe(201);
    },
  );
});

describe("what registration attempts cost the store", () => {
  let own: OAuthServer;

  beforeAll(async () => {
    own = await startServer();
  });
  afterAll(async () => {
    await own?.close();
  });

  const invalidRegistration = (n: number, forwardedFor: string): Promise<Response> => {
    const bodies: [string, string][] = [
      ["text/plain", "not a registration"],
      ["application/json", "{"],
      ["application/json", JSON.stringify({ redirect_uris: ["http://attacker.example/cb"], token_endpoint_auth_method: "none" })],
    ];
    const [type, body] = bodies[n % bodies.length] as [string, string];
    return own.fetch(`${own.issuer}/register`, {
      method: "POST",
      headers: { "content-type": type, "x-forwarded-for": forwardedFor },
      body,
    });
  };

  it(
    "3,000 invalid registrations from 3,000 sources write nothing, and invalid attempts spend no source's quota",
    { timeout: 155_000 },
    async () => {
      const before = filesUnder(own.stateDirectory).length;
      for (let batch = 0; batch < 60; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 50 }, (_, i) => {
            const n = batch * 50 + i;
            return invalidRegistration(n, `10.9.${n >> 8}.${n & 255}`);
          }),
        );
        expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(400));
      }
      expect(filesUnder(own.stateDirectory).length).toBe(before);
      // Counted by the clock's hour: one turning during the twenty would let the 21st in.
      await clearOfWindowTurn(hourMs, 30_000);
      // Twenty mistakes from one address leave it its twenty registrations.
      for (let n = 0; n < 20; n++) expect((await invalidRegistration(n, "198.51.100.77")).status).toBe(400);
      for (let n = 0; n < 20; n++) expect((await register("198.51.100.77", "After mistakes", own)).status).toBe(201);
      expect((await register("198.51.100.77", "After mistakes", own)).status).toBe(429);
    },
  );

  it("the counts of 500 valid registrations from 500 sources take no file per source", { timeout: 120_000 }, async () => {
    const outsideClients = (): number => filesUnder(own.stateDirectory).filter((file) => !file.path.includes("/clients/")).length;
    const before = outsideClients();
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => register(`10.8.${batch}.${i + 1}`, "Many sources", own)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(201));
    }
    expect(outsideClients() - before).toBeLessThanOrEqual(2);
  });
});
