/**
 * Bad input at every endpoint of OAuth mode gets the RFC's error and loses nothing: the legitimate
 * flow still works afterwards (a code survives a wrong verifier; a grant survives a wrong refresh), and
 * no code or token ever appears in the server's log. Before the athlete has answered the consent page, an
 * authorization fault is never an automatic redirect to the client (RFC 9700 §4.11.2): the error page
 * links back, and a person follows the link.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualOAuthClient, manualRedirectUri } from "../support/manual-oauth-client.ts";
import { rawToolCall } from "../support/oauth-session.ts";
import { startOAuthServer, type OAuthServer } from "../support/oauth-server.ts";
import { linkBackToClient } from "../support/oauth-user-agent.ts";

let server: OAuthServer;
let client: ManualOAuthClient;
const secrets: string[] = [];

beforeAll(async () => {
  server = await startOAuthServer();
  client = new ManualOAuthClient(server.issuer);
  await client.register();
});

afterAll(async () => {
  // No code or token the tests saw is in any log line.
  const leaked = server.child.stderrLines.filter((line) => secrets.some((secret) => line.includes(secret)));
  await server?.stop();
  expect(leaked).toEqual([]);
  expect(secrets.length).toBeGreaterThan(5);
});

function keep<T extends Record<string, unknown>>(body: T): T {
  for (const key of ["access_token", "refresh_token"]) if (typeof body[key] === "string") secrets.push(body[key] as string);
  return body;
}

describe("the authorization endpoint", () => {
  it("an unknown client or a redirect URI that is not exactly registered gets an error page, never a redirect", async () => {
    const { challenge } = client.pkce();
    const cases: [Record<string, string | null>, RegExp][] = [
      [{ client_id: "fc_unknown" }, /not registered here/],
      [{ client_id: null }, /client_id is missing/],
      [{ redirect_uri: "http://127.0.0.1:47615/cb/other" }, /not exactly one of the addresses/],
      [{ redirect_uri: "https://attacker.example/cb" }, /not exactly one of the addresses/],
    ];
    for (const [params, message] of cases) {
      const outcome = await client.userAgent.authorize(client.authorizeUrl({ code_challenge: challenge, ...params }), {
        redirectUri: manualRedirectUri,
      });
      expect(outcome.callback, JSON.stringify(params)).toBeUndefined();
      expect(outcome.page?.status).toBe(400);
      expect(outcome.page?.html).toMatch(message);
    }
    const twice = new URL(client.authorizeUrl({ code_challenge: challenge }));
    twice.searchParams.append("scope", "fitness:read");
    expect((await client.userAgent.authorize(twice, { redirectUri: manualRedirectUri })).page?.html).toMatch(/appears more than once/);
  });

  it("every other fault shows the error page, whose link (never an automatic redirect) takes the RFC's error, the state and iss back to the client", async () => {
    const { challenge } = client.pkce();
    const cases: [Record<string, string | null>, string, RegExp][] = [
      [{ response_type: "token" }, "unsupported_response_type", /response_type/],
      [{ code_challenge: null }, "invalid_request", /code_challenge is missing/],
      [{ code_challenge_method: "plain" }, "invalid_request", /S256/],
      [{ code_challenge: "short" }, "invalid_request", /43 characters/],
      [{ resource: null }, "invalid_target", /resource is missing/],
      [{ resource: "https://elsewhere.example.com/mcp" }, "invalid_target", /this server's MCP endpoint/],
      [{ scope: "fitness:read admin" }, "invalid_scope", /Unknown scope admin/],
    ];
    for (const [params, error, description] of cases) {
      const outcome = await client.userAgent.authorize(client.authorizeUrl({ code_challenge: challenge, ...params }), {
        redirectUri: manualRedirectUri,
      });
      expect(outcome.callback, JSON.stringify(params)).toBeUndefined();
      expect(outcome.page?.status).toBe(400);
      const back = linkBackToClient(outcome.page?.html ?? "");
      expect(back?.toString().startsWith(manualRedirectUri), JSON.stringify(params)).toBe(true);
      expect(back?.searchParams.get("error")).toBe(error);
      expect(back?.searchParams.get("error_description")).toMatch(description);
      expect(back?.searchParams.get("state")).toBe("state-1");
      expect(back?.searchParams.get("iss")).toBe(server.issuer);
      expect(back?.searchParams.has("code")).toBe(false);
    }
  });

  it("no open redirector: one anonymous registration and a deliberately wrong request get a page that waits for a person, not a 302 to the registered URI", async () => {
    // Anybody can register any https redirect URI: this one stands for an attacker's landing page.
    const registered = await fetch(`${server.issuer}/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["https://attacker.example/landing"], token_endpoint_auth_method: "none" }),
    });
    const { client_id } = (await registered.json()) as { client_id: string };
    const wrong = new URL(`${server.issuer}/authorize`);
    for (const [key, value] of Object.entries({
      client_id,
      response_type: "x",
      redirect_uri: "https://attacker.example/landing",
      state: "s",
    }))
      wrong.searchParams.set(key, value);
    const answer = await fetch(wrong, { redirect: "manual" });
    expect(answer.status).toBe(400);
    expect(answer.headers.get("location")).toBeNull();
    expect(answer.headers.get("content-type")).toContain("text/html");
    const html = await answer.text();
    expect(html).toContain("Return to the app");
    expect(html).not.toMatch(/http-equiv="?refresh/i);
    expect(linkBackToClient(html)?.searchParams.get("error")).toBe("unsupported_response_type");
  });

  it("once the athlete has answered the consent page, faults go back to the client at once (Cancel: access_denied)", async () => {
    const { challenge } = client.pkce();
    const outcome = await client.userAgent.authorize(client.authorizeUrl({ code_challenge: challenge }), {
      redirectUri: manualRedirectUri,
      decision: "deny",
    });
    expect(outcome.callback?.searchParams.get("error")).toBe("access_denied");
    expect(outcome.callback?.searchParams.get("state")).toBe("state-1");
    expect(outcome.callback?.searchParams.get("iss")).toBe(server.issuer);
  });

  it("a client registered with scope fitness:read is never offered write, and asking for more is refused before consent", async () => {
    const reader = new ManualOAuthClient(server.issuer);
    await reader.register({ scope: "fitness:read" });
    let consent = "";
    const plain = await reader.userAgent.authorize(reader.authorizeUrl({ code_challenge: reader.pkce().challenge, scope: null }), {
      redirectUri: manualRedirectUri,
      decision: "deny",
      beforeConsent: (html) => (consent = html),
    });
    expect(plain.callback?.searchParams.get("error")).toBe("access_denied");
    expect(consent).toContain("asked for read-only access");
    expect(consent).not.toContain('name="allow_write"');
    for (const scope of ["fitness:read fitness:write", "fitness:write"]) {
      const wider = await reader.userAgent.authorize(reader.authorizeUrl({ code_challenge: reader.pkce().challenge, scope }), {
        redirectUri: manualRedirectUri,
      });
      expect(wider.callback, scope).toBeUndefined();
      expect(wider.page?.status).toBe(400);
      const back = linkBackToClient(wider.page?.html ?? "");
      expect(back?.searchParams.get("error")).toBe("invalid_scope");
      expect(back?.searchParams.get("error_description")).toMatch(/more than this client registered \(fitness:read\)/);
    }
  });

  it("a consent form that was altered, or posted without the sign-in's cookie, is refused with a page", async () => {
    const { challenge } = client.pkce();
    const page = await fetch(client.authorizeUrl({ code_challenge: challenge }));
    const html = await page.text();
    const field = (name: string): string => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
    const cookie = (page.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
    const post = (body: Record<string, string>, withCookie: boolean) =>
      fetch(`${server.issuer}/authorize`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", ...(withCookie ? { cookie } : {}) },
        body: new URLSearchParams(body),
      });
    const altered = await post({ request: `${field("request")}x`, csrf: field("csrf"), decision: "allow" }, true);
    expect(altered.status).toBe(400);
    expect(await altered.text()).toContain("This sign-in has expired");
    const noCookie = await post({ request: field("request"), csrf: field("csrf"), decision: "allow" }, false);
    expect(noCookie.status).toBe(403);
    expect(await noCookie.text()).toContain("started in another browser");
    const wrongCsrf = await post({ request: field("request"), csrf: "guess", decision: "allow" }, true);
    expect(wrongCsrf.status).toBe(403);
    // The real form still works.
    const allowed = await post({ request: field("request"), csrf: field("csrf"), decision: "allow" }, true);
    expect(allowed.status).toBe(303);
  });

  it("a Strava callback with a forged state is refused with a page", async () => {
    const response = await fetch(`${server.issuer}/oauth/strava/callback?state=forged&code=x&scope=read`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("This sign-in has expired");
  });
});

describe("the token endpoint", () => {
  it("a wrong PKCE verifier, a wrong redirect URI or resource, or another client is refused, and the code still works after; a replay revokes its grant", async () => {
    const { code, verifier } = await client.code();
    secrets.push(code);
    const other = new ManualOAuthClient(server.issuer);
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
    expect((await rawToolCall(server.mcpUrl, good.body["access_token"] as string, "get_athlete")).status).toBe(200);
    // Used once: the same code again is refused, and the grant it bought is revoked (RFC 6749 section 4.1.2):
    // whoever replays a code holds it, so its tokens cannot be trusted either.
    const reused = await client.exchange(code, verifier);
    expect(reused).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await rawToolCall(server.mcpUrl, good.body["access_token"] as string, "get_athlete")).status).toBe(401);
    expect((await client.token({ grant_type: "refresh_token", refresh_token: good.body["refresh_token"] as string })).body["error"]).toBe(
      "invalid_grant",
    );
    await server.child.waitForEvent("authorization_code_replayed", 5_000);
  });

  it("a body that is not a form, or a parameter sent twice, is invalid_request", async () => {
    const json = await fetch(`${server.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "refresh_token" }),
    });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: string }).error).toBe("invalid_request");
    const twice = await fetch(`${server.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `client_id=${client.clientId}&grant_type=refresh_token&grant_type=refresh_token`,
    });
    expect(((await twice.json()) as { error_description: string }).error_description).toMatch(/more than once/);
  });

  it("refresh: a tampered token, a wider scope or another client's token is refused and the grant keeps working", async () => {
    const { code, verifier } = await client.code();
    secrets.push(code);
    const tokens = keep((await client.exchange(code, verifier)).body);
    const refresh = tokens["refresh_token"] as string;
    const other = new ManualOAuthClient(server.issuer);
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
    expect((await rawToolCall(server.mcpUrl, retry["access_token"] as string, "get_athlete")).status).toBe(401);
    await server.child.waitForEvent("refresh_token_reuse", 5_000);
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

describe("the registration endpoint", () => {
  it("refuses bad metadata with invalid_client_metadata or invalid_redirect_uri", async () => {
    const register = (body: string, type = "application/json") =>
      fetch(`${server.issuer}/register`, { method: "POST", headers: { "content-type": type }, body });
    const cases: [string, string][] = [
      ["{not json", "invalid_client_metadata"],
      [JSON.stringify({ client_name: "x" }), "invalid_redirect_uri"],
      [JSON.stringify({ redirect_uris: ["http://evil.example.com/cb"] }), "invalid_redirect_uri"],
      [JSON.stringify({ redirect_uris: ["javascript:alert(1)"] }), "invalid_redirect_uri"],
      [JSON.stringify({ redirect_uris: ["ms-msdt:/id PCWDiagnostic"] }), "invalid_redirect_uri"],
      [
        JSON.stringify({ redirect_uris: ["https://a.example.com/cb", "itms-services://?action=download-manifest"] }),
        "invalid_redirect_uri",
      ],
      [JSON.stringify({ redirect_uris: ["https://a.example.com/cb#frag"] }), "invalid_redirect_uri"],
      [
        JSON.stringify({ redirect_uris: ["https://a.example.com/cb"], token_endpoint_auth_method: "private_key_jwt" }),
        "invalid_client_metadata",
      ],
      [JSON.stringify({ redirect_uris: ["https://a.example.com/cb"], grant_types: ["client_credentials"] }), "invalid_client_metadata"],
      [JSON.stringify({ redirect_uris: ["https://a.example.com/cb"], client_name: "x".repeat(20_000) }), "invalid_client_metadata"],
    ];
    for (const [body, error] of cases) {
      const response = await register(body);
      expect(response.status, body.slice(0, 80)).toBe(400);
      expect(((await response.json()) as { error: string }).error, body.slice(0, 80)).toBe(error);
    }
    expect((await register("redirect_uris=x", "application/x-www-form-urlencoded")).status).toBe(400);
    const native = await register(
      JSON.stringify({ redirect_uris: ["com.example.coach:/oauth", "http://[::1]:8123/cb"], token_endpoint_auth_method: "none" }),
    );
    expect(native.status).toBe(201);
    // What Cursor registers, in one request: its own scheme, its hosted callback and a loopback one.
    const cursor = await register(
      JSON.stringify({
        client_name: "Cursor",
        redirect_uris: [
          "cursor://anysphere.cursor-mcp/oauth/callback",
          "https://www.cursor.com/agents/mcp/oauth/callback",
          "http://localhost:8787/callback",
        ],
        token_endpoint_auth_method: "none",
      }),
    );
    expect(cursor.status).toBe(201);
    const confidential = (await (await register(JSON.stringify({ redirect_uris: ["https://a.example.com/cb"] }))).json()) as Record<
      string,
      unknown
    >;
    expect(confidential["token_endpoint_auth_method"]).toBe("client_secret_basic");
    expect(typeof confidential["client_secret"]).toBe("string");
  });
});

describe("the revocation endpoint", () => {
  it("an unknown client gets 401 invalid_client, a missing token 400, another client's token 400, and nothing is revoked", async () => {
    const { code, verifier } = await client.code();
    secrets.push(code);
    const tokens = keep((await client.exchange(code, verifier)).body);
    const revoke = (body: Record<string, string>) =>
      fetch(`${server.issuer}/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(body),
      });
    const unknown = await revoke({ client_id: "fc_nobody", token: tokens["refresh_token"] as string });
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { error: string }).error).toBe("invalid_client");
    expect((await revoke({ client_id: client.clientId })).status).toBe(400);
    const other = new ManualOAuthClient(server.issuer);
    await other.register();
    expect((await revoke({ client_id: other.clientId, token: tokens["access_token"] as string })).status).toBe(400);
    expect((await rawToolCall(server.mcpUrl, tokens["access_token"] as string, "get_athlete")).status).toBe(200);
  });
});
