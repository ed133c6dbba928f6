/**
 * `GET /authorize` (authorization/endpoints/authorization-endpoint.ts) in process, through the authorization
 * server as OAuth mode puts it together (test/support/oauth-in-process.ts). An unknown client or a redirect URI
 * that is not exactly registered gets an error page and is never followed; every other fault is an error page
 * whose link back to the client (never an automatic redirect: RFC 9700 §4.11.2) carries the RFC's error, the
 * state and iss; a good request gets the consent page, with the request signed into its form and a cookie
 * that binds the sign-in to this browser.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualOAuthClient, manualRedirectUri } from "../../support/manual-oauth-client.ts";
import { startOAuthInProcess, type InProcessOAuth } from "../../support/oauth-in-process.ts";
import { linkBackToClient } from "../../support/oauth-user-agent.ts";

let server: InProcessOAuth;
let client: ManualOAuthClient;

beforeAll(async () => {
  server = await startOAuthInProcess();
  client = new ManualOAuthClient(server.issuer, { fetch: server.fetch });
  await client.register();
});

afterAll(async () => {
  await server?.close();
});

describe("a request whose client or redirect URI is not known", () => {
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
    expect(server.events("authorize_refused").map((line) => line["reason"])).toEqual(
      expect.arrayContaining(["invalid_client", "redirect_uri_mismatch"]),
    );
  });

  it("a parameter the link made up is not named when it appears twice, and a client with several redirect URIs must say which", async () => {
    const made = new URL(client.authorizeUrl({ code_challenge: client.pkce().challenge }));
    made.searchParams.append("utm_source", "a");
    made.searchParams.append("utm_source", "b");
    const page = await (await server.fetch(made)).text();
    expect(page).toContain("A parameter appears more than once in it.");
    expect(page).not.toContain("utm_source");
    const several = new ManualOAuthClient(server.issuer, { fetch: server.fetch });
    await several.register({ redirect_uris: [manualRedirectUri, "http://127.0.0.1:47615/other"] });
    const answer = await server.fetch(several.authorizeUrl({ code_challenge: several.pkce().challenge, redirect_uri: null }));
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("It has no redirect_uri, and the app has several: it must say which one to return to.");
  });
});

describe("a request from a known client to a registered redirect URI", () => {
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

  it("an unknown scope is named in the link back, never on the page", async () => {
    const answer = await server.fetch(client.authorizeUrl({ code_challenge: client.pkce().challenge, scope: "fitness:read <b>admin</b>" }));
    const html = await answer.text();
    expect(html).toContain("It asks for a scope this server does not grant (only fitness:read and fitness:write).");
    expect(html).not.toContain("&lt;b&gt;admin");
    expect(linkBackToClient(html)?.searchParams.get("error_description")).toBe(
      "Unknown scope <b>admin</b>; this server grants fitness:read and fitness:write.",
    );
  });

  it("no open redirector: one anonymous registration and a deliberately wrong request get a page that waits for a person, not a 302 to the registered URI", async () => {
    // Anybody can register any https redirect URI: this one stands for an attacker's landing page.
    const registered = await server.fetch(`${server.issuer}/register`, {
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
    const answer = await server.fetch(wrong, { redirect: "manual" });
    expect(answer.status).toBe(400);
    expect(answer.headers.get("location")).toBeNull();
    expect(answer.headers.get("content-type")).toContain("text/html");
    const html = await answer.text();
    expect(html).toContain("Return to the app");
    expect(html).not.toMatch(/http-equiv="?refresh/i);
    expect(linkBackToClient(html)?.searchParams.get("error")).toBe("unsupported_response_type");
  });

  it("a client registered with scope fitness:read is never offered write, and asking for more is refused before consent", async () => {
    const reader = new ManualOAuthClient(server.issuer, { fetch: server.fetch });
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

  it("a good request gets the consent page: the client named, the request signed into its form, and a sign-in cookie for this browser", async () => {
    const answer = await server.fetch(client.authorizeUrl({ code_challenge: client.pkce().challenge }));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toContain("no-store");
    const cookie = answer.headers.getSetCookie()[0] ?? "";
    expect(cookie).toMatch(/^fitness_signin_[0-9a-f]{12}=[A-Za-z0-9_-]{32}; Path=\/; Max-Age=900; HttpOnly; SameSite=Lax$/);
    const csp = answer.headers.get("content-security-policy") ?? "";
    expect(csp).toContain(`form-action 'self' ${new URL(server.sandbox.authorizeUrl).origin} http://127.0.0.1:47615;`);
    const html = await answer.text();
    expect(html).toContain("Manual client");
    expect(html).toContain(`action="${server.issuer}/authorize"`);
    expect(html).toMatch(/name="request" value="[^"]+"/);
    expect(html).toContain(`name="csrf" value="${cookie.split(";")[0]?.split("=")[1]}"`);
  });
});
