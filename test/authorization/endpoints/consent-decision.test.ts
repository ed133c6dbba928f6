/**
 * `POST /authorize`, the consent form (authorization/endpoints/consent-decision.ts), in process: the athlete has
 * seen where the client sends them, so from here faults go back to the client (Cancel: access_denied, with state
 * and iss); Continue sends the browser to Strava with the request signed as Strava's state, write access left
 * out when the athlete unticked it; a form that was altered, or posted without the sign-in's cookie, is refused
 * with a page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualOAuthClient, manualRedirectUri } from "../../support/manual-oauth-client.ts";
import { startOAuthInProcess, type InProcessOAuth } from "../../support/oauth-in-process.ts";

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

/** The consent page of a new sign-in: its form's fields and the sign-in cookie (name=value). */
async function consentPage(): Promise<{ field: (name: string) => string; cookie: string }> {
  const page = await server.fetch(client.authorizeUrl({ code_challenge: client.pkce().challenge }));
  const html = await page.text();
  const field = (name: string): string => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
  return { field, cookie: (page.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "" };
}

function post(body: Record<string, string>, cookie: string | undefined): Promise<Response> {
  return server.fetch(`${server.issuer}/authorize`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(body),
  });
}

describe("the consent form", () => {
  it("once the athlete has answered the consent page, faults go back to the client at once (Cancel: access_denied)", async () => {
    const { challenge } = client.pkce();
    const outcome = await client.userAgent.authorize(client.authorizeUrl({ code_challenge: challenge }), {
      redirectUri: manualRedirectUri,
      decision: "deny",
    });
    expect(outcome.callback?.searchParams.get("error")).toBe("access_denied");
    expect(outcome.callback?.searchParams.get("error_description")).toBe("The athlete declined.");
    expect(outcome.callback?.searchParams.get("state")).toBe("state-1");
    expect(outcome.callback?.searchParams.get("iss")).toBe(server.issuer);
    expect(server.events("consent_declined").at(-1)).toMatchObject({ client: client.clientId });
  });

  it("Cancel clears the sign-in cookie", async () => {
    const { field, cookie } = await consentPage();
    const declined = await post({ request: field("request"), csrf: field("csrf"), decision: "deny" }, cookie);
    expect(declined.status).toBe(302);
    const name = cookie.split("=")[0] as string;
    expect(declined.headers.getSetCookie().some((line) => line.startsWith(`${name}=;`) && /Max-Age=0/.test(line))).toBe(true);
  });

  it("a consent form that was altered, or posted without the sign-in's cookie, is refused with a page", async () => {
    const { field, cookie } = await consentPage();
    const altered = await post({ request: `${field("request")}x`, csrf: field("csrf"), decision: "allow" }, cookie);
    expect(altered.status).toBe(400);
    expect(await altered.text()).toContain("This sign-in has expired");
    const noCookie = await post({ request: field("request"), csrf: field("csrf"), decision: "allow" }, undefined);
    expect(noCookie.status).toBe(403);
    expect(await noCookie.text()).toContain("started in another browser");
    const wrongCsrf = await post({ request: field("request"), csrf: "guess", decision: "allow" }, cookie);
    expect(wrongCsrf.status).toBe(403);
    // The real form still works.
    const allowed = await post({ request: field("request"), csrf: field("csrf"), decision: "allow" }, cookie);
    expect(allowed.status).toBe(303);
  });

  it("Continue sends the browser to Strava's authorize page with the callback and a signed state; unticked write access is left out", async () => {
    const { field, cookie } = await consentPage();
    const withWrite = await post({ request: field("request"), csrf: field("csrf"), decision: "allow", allow_write: "yes" }, cookie);
    const toStrava = new URL(withWrite.headers.get("location") ?? "");
    expect(`${toStrava.origin}${toStrava.pathname}`).toBe(server.sandbox.authorizeUrl);
    expect(toStrava.searchParams.get("redirect_uri")).toBe(`${server.issuer}/oauth/strava/callback`);
    expect(toStrava.searchParams.get("client_id")).toBe(server.sandbox.clientId);
    expect(withWrite.headers.get("cache-control")).toBe("no-store");
    const readOnly = await post({ request: field("request"), csrf: field("csrf"), decision: "allow" }, cookie);
    const state = (location: string | null): string => new URL(location ?? "").searchParams.get("state") ?? "";
    const scopesIn = (signed: string): unknown =>
      (JSON.parse(Buffer.from(signed.split(".")[1] ?? "", "base64url").toString("utf8")) as { scopes: unknown }).scopes;
    expect(scopesIn(state(withWrite.headers.get("location")))).toEqual(["fitness:read", "fitness:write"]);
    expect(scopesIn(state(readOnly.headers.get("location")))).toEqual(["fitness:read"]);
  });

  it("a body that is not a form is refused with a page", async () => {
    const answer = await server.fetch(`${server.issuer}/authorize`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("This form could not be read");
  });
});
