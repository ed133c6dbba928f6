/**
 * `GET /oauth/strava/callback` (authorization/endpoints/strava-callback.ts) in process, with the sandbox playing
 * Strava and counting the token requests that reach it. Anybody can run a sign-in of their own to its end and
 * keep what came back through their browser: the signed `state` and the sign-in cookie. Replayed with made-up
 * codes, each callback would make the server send a token request to Strava with the application's secret: so
 * a state is good for one callback (the store remembers it, so every instance agrees), every answer clears the
 * sign-in cookie, and callbacks are counted per source (an IPv6 /64 counts as one). Strava's own answers
 * (declined, unticked boxes, no code) and an athlete this deployment does not serve each get their answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualOAuthClient, manualRedirectUri } from "../../support/manual-oauth-client.ts";
import { startOAuthInProcess, type InProcessOAuth } from "../../support/oauth-in-process.ts";
import { clearOfWindowTurn, quarterHourMs } from "../../support/window-turns.ts";

let server: InProcessOAuth;
let client: ManualOAuthClient;

beforeAll(async () => {
  server = await startOAuthInProcess({ env: { MCP_CLIENT_ADDRESS_HEADER: "x-forwarded-for" } });
  client = new ManualOAuthClient(server.issuer, { fetch: server.fetch });
  await client.register();
});

afterAll(async () => {
  await server?.close();
});

/** A sign-in done by hand up to Strava's redirect back: the callback URL Strava sent the browser to, and the sign-in cookie. */
async function signInUpToCallback(): Promise<{ callback: URL; cookie: string }> {
  const { challenge } = client.pkce();
  const consent = await server.fetch(client.authorizeUrl({ code_challenge: challenge }), { redirect: "manual" });
  const html = await consent.text();
  const cookie = (consent.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const field = (name: string): string => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
  const toStrava = await server.fetch(`${server.issuer}/authorize`, {
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

function withParams(callback: URL, params: Record<string, string | null>): URL {
  const url = new URL(callback);
  for (const [key, value] of Object.entries(params)) {
    if (value === null) url.searchParams.delete(key);
    else url.searchParams.set(key, value);
  }
  return url;
}

function tokenRequests(): number {
  return server.sandbox.counters().byRoute["POST /oauth/token"] ?? 0;
}

function callback(url: URL, cookie: string, from: string): Promise<Response> {
  return server.fetch(url, { redirect: "manual", headers: { cookie, "x-forwarded-for": from } });
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

    const before = tokenRequests();
    const replays = await Promise.all(
      ["made-up-1", "made-up-2", "made-up-3"].map((code) => callback(withParams(url, { code }), cookie, "192.0.2.21")),
    );
    for (const replay of replays) {
      expect(replay.status).toBe(400);
      expect(await replay.text()).toContain("This sign-in was already used");
      expect(clears(replay, cookie)).toBe(true);
    }
    expect(tokenRequests()).toBe(before);
    expect(server.events("strava_state_replayed")).toHaveLength(3);
  });

  it("after Strava refused its made-up code: spent too, and that answer cleared the cookie", async () => {
    const { callback: url, cookie } = await signInUpToCallback();
    const before = tokenRequests();
    const refused = await callback(withParams(url, { code: "made-up-first" }), cookie, "192.0.2.22");
    expect(refused.status).toBe(502);
    expect(clears(refused, cookie)).toBe(true);
    expect(tokenRequests()).toBe(before + 1);
    // The real code, or another made-up one, finds the state spent: no second token request.
    const again = await callback(url, cookie, "192.0.2.22");
    expect(again.status).toBe(400);
    expect(clears(again, cookie)).toBe(true);
    expect(tokenRequests()).toBe(before + 1);
  });

  it("a state that cannot be opened still clears the sign-in cookies the browser sent", async () => {
    const answer = await callback(
      new URL(`${server.issuer}/oauth/strava/callback?state=forged&code=x&scope=read`),
      "fitness_signin_0a1b2c3d4e5f=abc",
      "192.0.2.23",
    );
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("This sign-in has expired");
    expect(clears(answer, "fitness_signin_0a1b2c3d4e5f=abc")).toBe(true);
  });

  it("a state of this server's brought by another browser (without its cookie) is refused, and the state is not spent", async () => {
    const { callback: url, cookie } = await signInUpToCallback();
    const elsewhere = await callback(url, "", "192.0.2.24");
    expect(elsewhere.status).toBe(403);
    expect(await elsewhere.text()).toContain("This sign-in was started in another browser");
    expect((await callback(url, cookie, "192.0.2.24")).status).toBe(302);
  });
});

describe("Strava's answer", () => {
  it("the athlete declined on Strava's page: back to the client with access_denied", async () => {
    const { callback: url, cookie } = await signInUpToCallback();
    const declined = await callback(withParams(url, { error: "access_denied", code: null }), cookie, "192.0.2.31");
    expect(declined.status).toBe(302);
    const back = new URL(declined.headers.get("location") ?? "");
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("error_description")).toBe("The athlete did not allow access on Strava's page.");
    expect(back.searchParams.get("state")).toBe("state-1");
    expect(back.searchParams.get("iss")).toBe(server.issuer);
    expect(server.events("strava_sign_in_declined").at(-1)).toMatchObject({ strava_error: "access_denied" });
  });

  it("unticked boxes on Strava's page get a page naming them; no code gets a page; neither asks Strava for tokens", async () => {
    const before = tokenRequests();
    const unticked = await signInUpToCallback();
    const partial = await callback(withParams(unticked.callback, { scope: "read" }), unticked.cookie, "192.0.2.32");
    expect(partial.status).toBe(400);
    expect(await partial.text()).toContain("On Strava&#39;s page the boxes for");
    const incomplete = await signInUpToCallback();
    const noCode = await callback(withParams(incomplete.callback, { code: null }), incomplete.cookie, "192.0.2.32");
    expect(noCode.status).toBe(400);
    expect(await noCode.text()).toContain("It carries no authorization code. Start the connection again from your app.");
    expect(tokenRequests()).toBe(before);
  });

  it("a completed sign-in stores the athlete's Strava tokens and logs who signed in with which client and scope", async () => {
    const { callback: url, cookie } = await signInUpToCallback();
    expect((await callback(url, cookie, "192.0.2.33")).status).toBe(302);
    expect(server.events("sign_in_completed").at(-1)).toMatchObject({
      athlete: String(server.sandbox.athleteId),
      client: client.clientId,
      scope: "fitness:read fitness:write",
    });
    expect((await server.stores.athletes.storedAthletes(AbortSignal.timeout(5_000))).map((athlete) => athlete.athleteId)).toContain(
      String(server.sandbox.athleteId),
    );
  });
});

describe("callbacks per source", () => {
  it(
    "are counted: past 10 in 15 minutes from one address (or one IPv6 /64) a 429 page, and nothing reaches Strava",
    { timeout: 65_000 },
    async () => {
      // Callbacks are counted by the clock's quarter hour: one turning before the 11th would let it through to Strava.
      await clearOfWindowTurn(quarterHourMs, 30_000);
      const forged = new URL(`${server.issuer}/oauth/strava/callback?state=forged&code=x&scope=read`);
      for (let i = 0; i < 10; i++) expect((await callback(forged, "", `2001:db8:7:1::${i + 1}`)).status).toBe(400);
      const { callback: url, cookie } = await signInUpToCallback();
      const before = tokenRequests();
      const limited = await callback(url, cookie, "2001:db8:7:1:ffff::9");
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await limited.text()).toContain("Too many sign-ins from your network");
      expect(clears(limited, cookie)).toBe(true);
      expect(tokenRequests()).toBe(before);
      // Another network is not affected.
      expect((await callback(forged, "", "2001:db8:7:2::1")).status).toBe(400);
    },
  );
});
