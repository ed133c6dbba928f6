/**
 * `POST /revoke` (authorization/endpoints/revocation-endpoint.ts, RFC 7009) in process: either token of a grant
 * ends the whole grant (every access token of it stops at once); an unknown or invalid token is answered 200;
 * an unknown client gets 401, a missing token 400, another client's token 400, and nothing is revoked then.
 * When a client ends an athlete's last grant, their Strava grant is revoked too and their data deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualOAuthClient } from "../../support/manual-oauth-client.ts";
import { startOAuthInProcess, type InProcessOAuth } from "../../support/oauth-in-process.ts";
import { rawToolCall } from "../../support/oauth-session.ts";

let server: InProcessOAuth;
let client: ManualOAuthClient;
const secrets: string[] = [];
/** Every grant's refresh token, in the order the tests made them. */
const granted: string[] = [];

beforeAll(async () => {
  server = await startOAuthInProcess();
  client = new ManualOAuthClient(server.issuer, { fetch: server.fetch });
  await client.register();
});

afterAll(async () => {
  const leaked = server.logs.filter((line) => secrets.some((secret) => line.includes(secret)));
  await server?.close();
  expect(leaked).toEqual([]);
});

async function grantTokens(): Promise<{ access_token: string; refresh_token: string }> {
  const { code, verifier } = await client.code();
  const tokens = (await client.exchange(code, verifier)).body as { access_token: string; refresh_token: string };
  secrets.push(code, tokens.access_token, tokens.refresh_token);
  granted.push(tokens.refresh_token);
  return tokens;
}

const revoke = (body: Record<string, string>): Promise<Response> =>
  server.fetch(`${server.issuer}/revoke`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body),
  });

const toolStatus = async (accessToken: string): Promise<number> =>
  (await rawToolCall(server.mcpUrl, accessToken, "get_athlete", {}, server.fetch)).status;

describe("the revocation endpoint", () => {
  it("an unknown client gets 401 invalid_client, a missing token 400, another client's token 400, and nothing is revoked", async () => {
    const tokens = await grantTokens();
    const unknown = await revoke({ client_id: "fc_nobody", token: tokens.refresh_token });
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { error: string }).error).toBe("invalid_client");
    expect((await revoke({ client_id: client.clientId })).status).toBe(400);
    const other = new ManualOAuthClient(server.issuer, { fetch: server.fetch });
    await other.register();
    const foreign = await revoke({ client_id: other.clientId, token: tokens.access_token });
    expect(foreign.status).toBe(400);
    expect(((await foreign.json()) as { error_description: string }).error_description).toBe(
      "This token was issued to another client; only that client can revoke it.",
    );
    expect(await toolStatus(tokens.access_token)).toBe(200);
  });

  it("an unknown or malformed token is answered 200 and changes nothing", async () => {
    const tokens = await grantTokens();
    for (const token of ["not-a-token", `${tokens.refresh_token.slice(0, -2)}AA`, "a.b.c"]) {
      const answer = await revoke({ client_id: client.clientId, token });
      expect(answer.status, token).toBe(200);
      expect(await answer.json()).toEqual({});
    }
    expect(await toolStatus(tokens.access_token)).toBe(200);
  });

  it("the refresh token ends the whole grant: its access token stops at once and the refresh token is refused", async () => {
    await grantTokens();
    const tokens = await grantTokens();
    expect((await revoke({ client_id: client.clientId, token: tokens.refresh_token })).status).toBe(200);
    expect(await toolStatus(tokens.access_token)).toBe(401);
    expect((await client.token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token })).body["error"]).toBe("invalid_grant");
    expect(server.events("grant_revoked").length).toBeGreaterThan(0);
  });

  it("ending the athlete's last grant revokes their Strava grant and deletes what is stored for them", async () => {
    const revocations = (): number => server.sandbox.counters().byRoute["POST /oauth/revoke"] ?? 0;
    const athlete = String(server.sandbox.athleteId);
    const earlier = [...granted];
    const last = await grantTokens();
    for (const token of earlier) expect((await revoke({ client_id: client.clientId, token })).status).toBe(200);
    // The athlete's other grants ended: nothing at Strava yet, since this one still needs their tokens.
    const before = revocations();
    expect(before).toBe(0);
    expect(await server.stores.athletes.hasAthlete(athlete, AbortSignal.timeout(5_000))).toBe(true);
    expect((await revoke({ client_id: client.clientId, token: last.access_token })).status).toBe(200);
    expect(revocations()).toBe(before + 1);
    expect(await server.stores.athletes.hasAthlete(athlete, AbortSignal.timeout(5_000))).toBe(false);
  });
});
