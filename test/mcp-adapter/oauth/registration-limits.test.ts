/**
 * Anonymous registration cannot grow what every request costs, through the real server over HTTP:
 *
 * - one source may register 20 clients an hour; the 21st gets 429 with Retry-After, and another source
 *   is not affected. Behind a proxy the operator names (MCP_CLIENT_ADDRESS_HEADER) the last address in
 *   the header counts, so a client cannot pick its own source;
 * - registrations that never complete a grant share 1,000 places: a flood from many sources evicts the
 *   oldest unused one, never a client that signed in, and a real new client still registers and signs in;
 * - the state is one small file per record, so nothing a request reads grows with the flood.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ManualOAuthClient, manualRedirectUri } from "../../support/manual-oauth-client.ts";
import { rawToolCall } from "../../support/oauth-session.ts";
import { startOAuthServer, type OAuthServer } from "../../support/oauth-server.ts";

let server: OAuthServer;

beforeAll(async () => {
  server = await startOAuthServer({ MCP_CLIENT_ADDRESS_HEADER: "x-forwarded-for" });
});

afterAll(async () => {
  await server?.stop();
});

function register(forwardedFor: string | undefined, name = "Flood"): Promise<Response> {
  return fetch(`${server.issuer}/register`, {
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
  it("takes 20 an hour, then answers 429 with Retry-After; other sources and the connection's own address are counted apart", async () => {
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
  });
});

describe("a flood of registrations from many sources", () => {
  it(
    "evicts the oldest unused registration, never a client that signed in, and costs a signed-in athlete nothing",
    { timeout: 120_000 },
    async () => {
      const signedIn = new ManualOAuthClient(server.issuer);
      await signedIn.register();
      const { code, verifier } = await signedIn.code();
      const tokens = (await signedIn.exchange(code, verifier)).body as { access_token: string; refresh_token: string };
      const unused = new ManualOAuthClient(server.issuer);
      await unused.register();

      // 1,100 more from 55 sources of 20 each: more than the 1,000 places.
      for (let source = 0; source < 55; source++) {
        const answers = await Promise.all(Array.from({ length: 20 }, () => register(`203.0.113.${source}`)));
        expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
      }

      // The unused registration made before the flood is gone; its sign-in link says so.
      const { challenge } = unused.pkce();
      const evicted = await unused.userAgent.authorize(unused.authorizeUrl({ code_challenge: challenge }), {
        redirectUri: manualRedirectUri,
      });
      expect(evicted.callback).toBeUndefined();
      expect(evicted.page?.status).toBe(400);
      // The client that signed in keeps working: its token, and a refresh.
      expect((await rawToolCall(server.mcpUrl, tokens.access_token, "get_athlete")).status).toBe(200);
      const refreshed = await signedIn.token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token });
      expect(refreshed.status).toBe(200);
      // A real new client still gets in.
      const newcomer = new ManualOAuthClient(server.issuer);
      await newcomer.register();
      const fresh = await newcomer.code();
      expect((await newcomer.exchange(fresh.code, fresh.verifier)).status).toBe(200);

      // One small file per record: nothing a request reads grows with the flood, and the unused ones are capped.
      const files = filesUnder(server.stateDirectory);
      const largest = files.reduce((a, b) => (a.size >= b.size ? a : b));
      expect(largest.size, largest.path).toBeLessThan(4_096);
      const clients = files.filter((file) => /clients\/fc_[^/]+\.json$/.test(file.path)).length;
      expect(clients).toBeLessThanOrEqual(1_000 + 2);
      // Registrations are logged at a bounded rate, not one line each.
      const lines = server.child.stderrLines.filter((line) => line.includes('"event":"client_registered"'));
      expect(lines.length).toBeLessThan(20);
    },
  );
});
