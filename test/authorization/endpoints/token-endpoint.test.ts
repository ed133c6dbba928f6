/**
 * The token endpoint (authorization/endpoints/token-endpoint.ts) in process, through the authorization server
 * as OAuth mode puts it together (test/support/oauth-in-process.ts: local-file stores, the sandbox as Strava):
 * bad input gets the RFC's error and loses nothing (a code survives a wrong verifier, a grant a wrong refresh),
 * a code is used once and its replay revokes the grant it bought, refresh tokens rotate with a grace for a lost
 * answer and revoke the grant when an older one comes back, and no code or token is ever logged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualOAuthClient, manualRedirectUri } from "../../support/manual-oauth-client.ts";
import { startOAuthInProcess, type InProcessOAuth } from "../../support/oauth-in-process.ts";
import { rawToolCall } from "../../support/oauth-session.ts";

let server: InProcessOAuth;
let client: ManualOAuthClient;
const secrets: string[] = [];

beforeAll(async () => {
  server = await startOAuthInProcess();
  client = newClient();
  await client.register();
});

afterAll(async () => {
  // No code or token the tests saw is in any log line.
  const leaked = server.logs.filter((line) => secrets.some((secret) => line.includes(secret)));
  await server?.close();
  expect(leaked).toEqual([]);
  expect(secrets.length).toBeGreaterThan(5);
});

function newClient(): ManualOAuthClient {
  return new ManualOAuthClient(server.issuer, { fetch: server.fetch });
}

function keep<T extends Record<string, unknown>>(body: T): T {
  for (const key of ["access_token", "refresh_token"]) if (typeof body[key] === "string") secrets.push(body[key] as string);
  return body;
}

const toolStatus = async (accessToken: string): Promise<number> =>
  (await rawToolCall(server.mcpUrl, accessToken, "get_athlete", {}, server.fetch)).status;

describe("the authorization_code grant", () => {
  it("a wrong PKCE verifier, a wrong redirect URI or resource, or another client is refused, and the code still works after; a replay revokes its grant", async () => {
    const { code, verifier } = await client.code();
    secrets.push(code);
    const other = newClient();
    await other.register();
    const cases: [() => Promise<{ status: number; body: Record<string, unknown> }>, number, string][] = [
      [() => client.exchange(code, client.pkce().verifier), 400, "invalid_grant"],
      [() => client.exchange(code, "short"), 400, "invalid_grant"],
      [() => client.token({ grant_type: "authorization_code", code, redirect_uri: manualRedirectUri }), 400, "invalid_request"],
      [() => client.exchange(code, verifier, { redirect_uri: "http://127.0.0.1:47615/other" }), 400, "invalid_grant"],
      [() => client.exchange(code, verifier, { resource: "https://elsewhere.example.com/mcp" }), 400, "invalid_target"],
      [() => other.exchange(code, verifier), 400, "invalid_grant"],
      [() => client.exchange(code, verifier, { client_id: "fc_nobody" }), 401, "invalid_client"],
      [() => client.token({ grant_type: "password", username: "x", password: "y" }), 400, "unsupported_grant_type"],
      [() => client.token({ code }), 400, "invalid_request"],
    ];
    for (const [attempt, status, error] of cases) {
      const answer = await attempt();
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      expect(answer.body["error"]).toBe(error);
      expect(typeof answer.body["error_description"]).toBe("string");
    }
    const good = await client.exchange(code, verifier);
    expect(good.status).toBe(200);
    keep(good.body);
    expect(good.body).toMatchObject({ token_type: "Bearer", scope: "fitness:read fitness:write" });
    expect(await toolStatus(good.body["access_token"] as string)).toBe(200);
    // Used once: the same code again is refused, and the grant it bought is revoked (RFC 6749 section 4.1.2):
    // whoever replays a code holds it, so its tokens cannot be trusted either.
    const reused = await client.exchange(code, verifier);
    expect(reused).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(await toolStatus(good.body["access_token"] as string)).toBe(401);
    expect((await client.token({ grant_type: "refresh_token", refresh_token: good.body["refresh_token"] as string })).body["error"]).toBe(
      "invalid_grant",
    );
    expect(server.events("authorization_code_replayed")).toHaveLength(1);
  });

  it("a code presented by another client after it was redeemed is refused but ends nobody's grant", async () => {
    const { code, verifier } = await client.code();
    secrets.push(code);
    const tokens = keep((await client.exchange(code, verifier)).body);
    const other = newClient();
    await other.register();
    expect((await other.exchange(code, verifier)).body["error"]).toBe("invalid_grant");
    expect(await toolStatus(tokens["access_token"] as string)).toBe(200);
  });

  it("answers a refusal with no-store and, for an unknown client, the Basic challenge (RFC 6749 §5.2)", async () => {
    const response = await server.fetch(`${server.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: "fc_nobody", grant_type: "refresh_token", refresh_token: "x" }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Basic realm="openclaw-fitness"');
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(server.events("token_request_refused").at(-1)).toMatchObject({ error: "invalid_client" });
  });
});

describe("the request itself", () => {
  it("a body that is not a form, or a parameter sent twice, is invalid_request", async () => {
    const json = await server.fetch(`${server.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "refresh_token" }),
    });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: string }).error).toBe("invalid_request");
    const twice = await server.fetch(`${server.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `client_id=${client.clientId}&grant_type=refresh_token&grant_type=refresh_token`,
    });
    expect(((await twice.json()) as { error_description: string }).error_description).toMatch(/more than once/);
  });

  it("takes POST only, and answers a CORS preflight", async () => {
    const get = await server.fetch(`${server.issuer}/token`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const preflight = await server.fetch(`${server.issuer}/token`, { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("the refresh_token grant", () => {
  it("refresh: a tampered token, a wider scope or another client's token is refused and the grant keeps working", async () => {
    const { code, verifier } = await client.code();
    secrets.push(code);
    const tokens = keep((await client.exchange(code, verifier)).body);
    const refresh = tokens["refresh_token"] as string;
    const other = newClient();
    await other.register();
    const narrow = keep((await client.token({ grant_type: "refresh_token", refresh_token: refresh, scope: "fitness:read" })).body);
    expect(narrow["scope"]).toBe("fitness:read");
    const current = narrow["refresh_token"] as string;
    const cases: [Record<string, string>, ManualOAuthClient, string][] = [
      [{ refresh_token: `${current.slice(0, -2)}AA` }, client, "invalid_grant"],
      [{ refresh_token: "not-a-refresh-token" }, client, "invalid_grant"],
      [{ refresh_token: current, scope: "fitness:read fitness:write admin" }, client, "invalid_scope"],
      [{ refresh_token: current, resource: "https://elsewhere.example.com/mcp" }, client, "invalid_target"],
      [{ refresh_token: current }, other, "invalid_grant"],
    ];
    for (const [params, who, error] of cases) {
      const answer = await who.token({ grant_type: "refresh_token", ...params });
      expect(answer.body["error"], JSON.stringify(params)).toBe(error);
    }
    const next = await client.token({ grant_type: "refresh_token", refresh_token: current });
    expect(next.status).toBe(200);
    keep(next.body);
  });

  it("a scope asked for at a refresh narrows this answer, offline_access is ignored, and the grant keeps its own", async () => {
    const { code, verifier } = await client.code();
    secrets.push(code);
    const first = keep((await client.exchange(code, verifier)).body)["refresh_token"] as string;
    const narrowed = keep(
      (await client.token({ grant_type: "refresh_token", refresh_token: first, scope: "fitness:read offline_access" })).body,
    );
    expect(narrowed["scope"]).toBe("fitness:read");
    const again = keep((await client.token({ grant_type: "refresh_token", refresh_token: narrowed["refresh_token"] as string })).body);
    expect(again["scope"]).toBe("fitness:read fitness:write");
    const beyond = await client.token({
      grant_type: "refresh_token",
      refresh_token: again["refresh_token"] as string,
      scope: "fitness:admin",
    });
    expect(beyond.body["error_description"]).toBe("The grant does not include fitness:admin; a refresh can only keep or narrow the scope.");
  });

  it("rotation: the token just replaced still works once (a lost answer); an older one revokes the grant", async () => {
    const { code, verifier } = await client.code();
    secrets.push(code);
    const first = keep((await client.exchange(code, verifier)).body)["refresh_token"] as string;
    const second = keep((await client.token({ grant_type: "refresh_token", refresh_token: first })).body)["refresh_token"] as string;
    // The answer carrying `second` was "lost": the client tries `first` again within the grace period.
    const retry = keep((await client.token({ grant_type: "refresh_token", refresh_token: first })).body);
    const third = retry["refresh_token"] as string;
    expect(third).toBeDefined();
    // `second` never reached the client and is dead now; presenting it again is reuse of a spent token.
    const reuse = await client.token({ grant_type: "refresh_token", refresh_token: second });
    expect(reuse.body).toMatchObject({ error: "invalid_grant" });
    expect(String(reuse.body["error_description"])).toMatch(/revoked/);
    // The grant is gone: the newest token is refused too, and its access token no longer works.
    expect((await client.token({ grant_type: "refresh_token", refresh_token: third })).body["error"]).toBe("invalid_grant");
    expect(await toolStatus(retry["access_token"] as string)).toBe(401);
    expect(server.events("refresh_token_reuse").length).toBeGreaterThan(0);
  });

  it("rotation: a refresh token spent twelve rotations ago still revokes the grant (it carries its generation)", async () => {
    const { code, verifier } = await client.code();
    secrets.push(code);
    const first = keep((await client.exchange(code, verifier)).body)["refresh_token"] as string;
    let current = first;
    for (let i = 0; i < 12; i++)
      current = keep((await client.token({ grant_type: "refresh_token", refresh_token: current })).body)["refresh_token"] as string;
    const reuse = await client.token({ grant_type: "refresh_token", refresh_token: first });
    expect(reuse.body).toMatchObject({ error: "invalid_grant" });
    expect(String(reuse.body["error_description"])).toMatch(/already used and replaced; as a precaution the grant is revoked/);
    expect((await client.token({ grant_type: "refresh_token", refresh_token: current })).body["error"]).toBe("invalid_grant");
  });
});
