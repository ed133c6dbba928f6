/**
 * The Strava half of a sign-in as an attacker replays it. Anybody can run a sign-in of their own to its
 * end and keep what came back through their browser: the signed `state` Strava returned and the sign-in
 * cookie. Replayed with made-up codes, each callback made the server send a token request to Strava with
 * the application's secret, for 15 minutes. Now a state is good for one callback (the store remembers it, so
 * every instance agrees), every answer of the callback clears the sign-in cookie, and callbacks are counted
 * per source (an IPv6 /64 counts as one). The sandbox plays Strava and counts the token requests that
 * reach it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualOAuthClient, manualRedirectUri } from "../support/manual-oauth-client.ts";
import { startOAuthServer, type OAuthServer } from "../support/oauth-server.ts";

let server: OAuthServer;
let client: ManualOAuthClient;

beforeAll(async () => {
  server = await startOAuthServer({ MCP_CLIENT_ADDRESS_HEADER: "x-forwarded-for" });
  client = new ManualOAuthClient(server.issuer);
  await client.register();
});

afterAll(async () => {
  await server?.stop();
});

/** A sign-in done by hand up to Strava's redirect back: the callback URL Strava sent the browser to, and the sign-in cookie. */
async function signInUpToCallback(): Promise<{ callback: URL; cookie: string }> {
  const { challenge } = client.pkce();
  const consent = await fetch(client.authorizeUrl({ code_challenge: challenge }), { redirect: "manual" });
  const html = await consent.text();
  const cookie = (consent.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const field = (name: string): string => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
  const toStrava = await fetch(`${server.issuer}/authorize`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams({ request: field("request"), csrf: field("csrf"), decision: "allow", allow_write: "yes" }),
  });
  expect(toStrava.status).toBe(303);
  const fromStrava = await fetch(toStrava.headers.get("location") as string, { redirect: "manual" });
  const callback = new URL(fromStrava.headers.get("location") as string);
  expect(callback.pathname).toBe("/oauth/strava/callback");
  return { callback, cookie };
}

function withCode(callback: URL, code: string): URL {
  const url = new URL(callback);
  url.searchParams.set("code", code);
  return url;
}

async function tokenRequests(): Promise<number> {
  const counters = (await (await fetch(`${server.sandboxBaseUrl}/_sandbox/counters`)).json()) as { byRoute: Record<string, number> };
  return counters.byRoute["POST /oauth/token"] ?? 0;
}

function callback(url: URL, cookie: string, from: string): Promise<Response> {
  return fetch(url, { redirect: "manual", headers: { cookie, "x-forwarded-for": from } });
}

/** Whether the answer clears the sign-in cookie `cookie` (name=value) in the browser. */
function clears(answer: Response, cookie: string): boolean {
  const name = cookie.split("=")[0] as string;
  return answer.headers.getSetCookie().some((line) => line.startsWith(`${name}=;`) && /max-age=0/i.test(line));
}

describe("a Strava state replayed", () => {
  it("after its sign-in finished: refused without a token request to Strava", async () => {
    const { callback: url, cookie } = await signInUpToCallback();
    const finished = await callback(url, cookie, "192.0.2.21");
    expect(finished.status).toBe(302);
    expect(finished.headers.get("location")).toMatch(new RegExp(`^${manualRedirectUri}\\?code=`));
    expect(clears(finished, cookie)).toBe(true);

    const before = await tokenRequests();
    const replays = await Promise.all(
      ["made-up-1", "made-up-2", "made-up-3"].map((code) => callback(withCode(url, code), cookie, "192.0.2.21")),
    );
    for (const replay of replays) {
      expect(replay.status).toBe(400);
      expect(await replay.text()).toContain("This sign-in was already used");
      expect(clears(replay, cookie)).toBe(true);
    }
    expect(await tokenRequests()).toBe(before);
  });

  it("after Strava refused its made-up code: spent too, and that answer cleared the cookie", async () => {
    const { callback: url, cookie } = await signInUpToCallback();
    const before = await tokenRequests();
    const refused = await callback(withCode(url, "made-up-first"), cookie, "192.0.2.22");
    expect(refused.status).toBe(502);
    expect(clears(refused, cookie)).toBe(true);
    expect(await tokenRequests()).toBe(before + 1);
    // The real code, or another made-up one, finds the state spent: no second token request.
    const again = await callback(url, cookie, "192.0.2.22");
    expect(again.status).toBe(400);
    expect(clears(again, cookie)).toBe(true);
    expect(await tokenRequests()).toBe(before + 1);
  });

  it("a state that cannot be opened still clears the sign-in cookies the browser sent", async () => {
    const answer = await callback(
      new URL(`${server.issuer}/oauth/strava/callback?state=forged&code=x&scope=read`),
      "fitness_signin_0a1b2c3d4e5f=abc",
      "192.0.2.23",
    );
    expect(answer.status).toBe(400);
    expect(clears(answer, "fitness_signin_0a1b2c3d4e5f=abc")).toBe(true);
  });
});

describe("callbacks per source", () => {
  it("are counted: past 10 in 15 minutes from one address (or one IPv6 /64) a 429 page, and nothing reaches Strava", async () => {
    const forged = new URL(`${server.issuer}/oauth/strava/callback?state=forged&code=x&scope=read`);
    for (let i = 0; i < 10; i++) expect((await callback(forged, "", `2001:db8:7:1::${i + 1}`)).status).toBe(400);
    const { callback: url, cookie } = await signInUpToCallback();
    const before = await tokenRequests();
    const limited = await callback(url, cookie, "2001:db8:7:1:ffff::9");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.text()).toContain("Too many sign-ins from your network");
    expect(clears(limited, cookie)).toBe(true);
    expect(await tokenRequests()).toBe(before);
    // Another network is not affected.
    expect((await callback(forged, "", "2001:db8:7:2::1")).status).toBe(400);
  });
});
