/**
 * The sandbox's OAuth, as Strava plays it: both grants, rotation (the old refresh token dies), the
 * same access token while more than an hour is left, expiry by the clock, and the scope Faults.
 */
import { afterEach, describe, expect, test } from "vitest";
import { form, openSession, type SandboxSession } from "./sandbox-client.ts";
import { manualClock, testNow } from "../support/test-clock.ts";
import { uploadForm } from "./activity-file-fixtures.ts";

const invalidRefreshToken = '{"message":"Bad Request","errors":[{"resource":"RefreshToken","field":"refresh_token","code":"invalid"}]}';
const invalidAccessToken = '{"message":"Authorization Error","errors":[{"resource":"Athlete","field":"access_token","code":"invalid"}]}';
const missingWrite =
  '{"message":"Authorization Error","errors":[{"resource":"AccessToken","field":"activity:write_permission","code":"missing"}]}';
const missingRead =
  '{"message":"Authorization Error","errors":[{"resource":"AccessToken","field":"activity:read_permission","code":"missing"}]}';

const sessions: SandboxSession[] = [];
async function session(options: Parameters<typeof openSession>[0] = {}): Promise<SandboxSession> {
  const s = await openSession(options);
  sessions.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.sandbox.close()));
});

function refreshParams(s: SandboxSession, refreshToken: string): Record<string, string> {
  return { client_id: s.sandbox.clientId, client_secret: s.sandbox.clientSecret, grant_type: "refresh_token", refresh_token: refreshToken };
}

interface TokenAnswer {
  token_type: string;
  access_token: string;
  refresh_token: string;
  expires_at: number;
  expires_in: number;
}

/** Authorizes with the given scopes and exchanges the code: the operator's setup flow. */
async function authorize(s: SandboxSession, scope: string): Promise<{ redirect: URL; tokens: TokenAnswer }> {
  const url = new URL(s.sandbox.authorizeUrl);
  url.search = new URLSearchParams({
    client_id: s.sandbox.clientId,
    redirect_uri: "http://localhost:8765/callback",
    response_type: "code",
    approval_prompt: "auto",
    scope,
    state: "xyz-123",
  }).toString();
  const answer = await fetch(url, { redirect: "manual" });
  expect(answer.status).toBe(302);
  const redirect = new URL(answer.headers.get("location")!);
  const exchange = await s.tokenRequest({
    client_id: s.sandbox.clientId,
    client_secret: s.sandbox.clientSecret,
    grant_type: "authorization_code",
    code: redirect.searchParams.get("code")!,
  });
  expect(exchange.status).toBe(200);
  return { redirect, tokens: JSON.parse(exchange.text) as TokenAnswer };
}

describe("refresh_token grant", () => {
  test("rotates: the answer carries a new refresh token, the old one gets Strava's 400 Fault, the new one works", async () => {
    const s = await session();
    const first = s.sandbox.refreshToken();
    const answer = await s.tokenRequest(refreshParams(s, first));
    expect(answer.status).toBe(200);
    const tokens = JSON.parse(answer.text) as TokenAnswer;
    expect(tokens.token_type).toBe("Bearer");
    expect(tokens.refresh_token).not.toBe(first);
    expect(s.sandbox.refreshToken()).toBe(tokens.refresh_token);
    expect((await s.get("/athlete", tokens.access_token)).status).toBe(200);

    const reused = await s.tokenRequest(refreshParams(s, first));
    expect(reused.status).toBe(400);
    expect(reused.text).toBe(invalidRefreshToken);
    expect((await s.tokenRequest(refreshParams(s, tokens.refresh_token))).status).toBe(200);
  });

  test("kept grants: refresh tokens a restarted Strava would still know work from the start, each for its athlete, and rotate", async () => {
    const kept = [
      { athleteId: 48201735, refreshToken: "a".repeat(40) },
      { athleteId: 61930114, refreshToken: "b".repeat(40) },
    ];
    const s = await session({ secondAthlete: true, keptGrants: kept });
    for (const { athleteId, refreshToken } of kept) {
      const answer = await s.tokenRequest(refreshParams(s, refreshToken));
      expect(answer.status).toBe(200);
      const tokens = JSON.parse(answer.text) as TokenAnswer;
      const athlete = await s.get("/athlete", tokens.access_token);
      expect(JSON.parse(athlete.text)).toMatchObject({ id: athleteId });
      expect((await s.tokenRequest(refreshParams(s, refreshToken))).text).toBe(invalidRefreshToken);
    }
    expect((await s.tokenRequest(refreshParams(s, "c".repeat(40)))).text).toBe(invalidRefreshToken);
    await expect(openSession({ keptGrants: [{ athleteId: 61930114, refreshToken: "d".repeat(40) }] })).rejects.toThrow(
      "no athlete 61930114",
    );
  });

  test("without rotation the same refresh token comes back and keeps working", async () => {
    const s = await session({ rotateRefreshTokens: false });
    const token = s.sandbox.refreshToken();
    for (let i = 0; i < 2; i++) {
      const answer = JSON.parse((await s.tokenRequest(refreshParams(s, token))).text) as TokenAnswer;
      expect(answer.refresh_token).toBe(token);
    }
  });

  test("the same access token comes back while it has more than an hour left; a new one after that", async () => {
    const clock = manualClock(testNow);
    const s = await session({ clock: clock.now, tokenLifetimeSeconds: 21_600 });
    const first = JSON.parse((await s.tokenRequest(refreshParams(s, s.sandbox.refreshToken()))).text) as TokenAnswer;
    expect(first.expires_at).toBe(Math.floor(testNow / 1000) + 21_600);
    expect(first.expires_in).toBe(21_600);
    clock.advance(4 * 3_600_000);
    const second = JSON.parse((await s.tokenRequest(refreshParams(s, s.sandbox.refreshToken()))).text) as TokenAnswer;
    expect(second.access_token).toBe(first.access_token);
    expect(second.expires_at).toBe(first.expires_at);
    expect(second.expires_in).toBe(7_200);
    clock.advance(3_600_000 + 1000);
    const third = JSON.parse((await s.tokenRequest(refreshParams(s, s.sandbox.refreshToken()))).text) as TokenAnswer;
    expect(third.access_token).not.toBe(first.access_token);
    expect(third.expires_at).toBe(Math.floor(clock.now() / 1000) + 21_600);
  });

  test("accepts the parameters as a form, as JSON and in the query string", async () => {
    const s = await session({ rotateRefreshTokens: false });
    const params = refreshParams(s, s.sandbox.refreshToken());
    const asJson = await fetch(s.sandbox.tokenUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(params),
    });
    expect(asJson.status).toBe(200);
    const asQuery = await fetch(`${s.sandbox.tokenUrl}?${new URLSearchParams(params)}`, { method: "POST" });
    expect(asQuery.status).toBe(200);
  });

  test("wrong client credentials, a missing token or an unknown grant type are 400 Faults naming the field", async () => {
    const s = await session();
    const cases: Array<[Record<string, string>, string]> = [
      [
        { ...refreshParams(s, s.sandbox.refreshToken()), client_secret: "wrong" },
        '{"resource":"Application","field":"client_secret","code":"invalid"}',
      ],
      [
        { ...refreshParams(s, s.sandbox.refreshToken()), client_id: "1" },
        '{"resource":"Application","field":"client_id","code":"invalid"}',
      ],
      [
        { client_id: s.sandbox.clientId, client_secret: s.sandbox.clientSecret, grant_type: "refresh_token" },
        '{"resource":"RefreshToken","field":"refresh_token","code":"missing"}',
      ],
      [
        { ...refreshParams(s, s.sandbox.refreshToken()), grant_type: "password" },
        '{"resource":"Application","field":"grant_type","code":"invalid"}',
      ],
    ];
    for (const [params, error] of cases) {
      const answer = await s.tokenRequest(params);
      expect(answer.status).toBe(400);
      expect(answer.text).toBe(`{"message":"Bad Request","errors":[${error}]}`);
    }
  });
});

describe("access tokens", () => {
  test("a missing, unknown or expired access token gets Strava's 401 Fault", async () => {
    const clock = manualClock(testNow);
    const s = await session({ clock: clock.now, tokenLifetimeSeconds: 600 });
    const token = await s.token();
    expect((await s.get("/athlete", token)).status).toBe(200);
    const missing = await fetch(`${s.sandbox.apiBase}/athlete`);
    expect(missing.status).toBe(401);
    expect(await missing.text()).toBe(invalidAccessToken);
    const unknown = await s.get("/athlete", "f".repeat(40));
    expect([unknown.status, unknown.text]).toEqual([401, invalidAccessToken]);
    clock.advance(599_000);
    expect((await s.get("/athlete", token)).status).toBe(200);
    clock.advance(1_000);
    const expired = await s.get("/athlete", token);
    expect([expired.status, expired.text]).toEqual([401, invalidAccessToken]);
    // A refresh after expiry gives a working token again.
    expect((await s.get("/athlete", await s.token())).status).toBe(200);
  });

  test("expireAccessTokens() and POST /_sandbox/expire-tokens end every issued token at once", async () => {
    const s = await session();
    const token = await s.token();
    s.sandbox.expireAccessTokens();
    expect((await s.get("/athlete", token)).status).toBe(401);
    const again = await s.token();
    expect((await s.get("/athlete", again)).status).toBe(200);
    expect((await fetch(`${s.sandbox.baseUrl}/_sandbox/expire-tokens`, { method: "POST" })).status).toBe(200);
    expect((await s.get("/athlete", again)).status).toBe(401);
  });

  test("the bearer scheme is case-insensitive and the legacy access_token query parameter works", async () => {
    const s = await session();
    const token = await s.token();
    expect((await fetch(`${s.sandbox.apiBase}/athlete`, { headers: { Authorization: `bearer ${token}` } })).status).toBe(200);
    expect((await fetch(`${s.sandbox.apiBase}/athlete?access_token=${token}`)).status).toBe(200);
  });
});

describe("authorization_code grant", () => {
  test("authorize approves at once and redirects with code, state and scope; the code gives tokens and the athlete, once", async () => {
    const s = await session();
    const { redirect, tokens } = await authorize(s, "read,activity:read_all,activity:write,profile:read_all");
    expect(`${redirect.origin}${redirect.pathname}`).toBe("http://localhost:8765/callback");
    expect(redirect.searchParams.get("state")).toBe("xyz-123");
    expect(redirect.searchParams.get("scope")).toBe("read,activity:read_all,activity:write,profile:read_all");
    expect((tokens as unknown as { athlete: { id: number } }).athlete.id).toBe(s.sandbox.athleteId);
    expect((await s.get("/athlete/activities?per_page=1", tokens.access_token)).status).toBe(200);
    // The code is single-use; the new grant's refresh token works and rotates.
    const code = redirect.searchParams.get("code")!;
    const reuse = await s.tokenRequest({
      client_id: s.sandbox.clientId,
      client_secret: s.sandbox.clientSecret,
      grant_type: "authorization_code",
      code,
    });
    expect([reuse.status, reuse.text]).toEqual([
      400,
      '{"message":"Bad Request","errors":[{"resource":"AuthorizationCode","field":"code","code":"invalid"}]}',
    ]);
    expect((await s.tokenRequest(refreshParams(s, tokens.refresh_token))).status).toBe(200);
  });

  test("authorize refuses an unknown client, a non-loopback redirect and an unknown scope", async () => {
    const s = await session();
    const base = { client_id: s.sandbox.clientId, redirect_uri: "http://127.0.0.1:9/cb", response_type: "code", scope: "read" };
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...base, client_id: "999" }, "client_id"],
      [{ ...base, redirect_uri: "https://evil.example/cb" }, "redirect_uri"],
      [{ ...base, scope: "read,everything" }, "scope"],
      [{ ...base, response_type: "token" }, "response_type"],
    ];
    for (const [params, field] of cases) {
      const answer = await fetch(`${s.sandbox.authorizeUrl}?${new URLSearchParams(params)}`, { redirect: "manual" });
      expect(answer.status).toBe(400);
      expect(await answer.text()).toBe(
        `{"message":"Bad Request","errors":[{"resource":"Application","field":"${field}","code":"invalid"}]}`,
      );
    }
  });

  test("scopes the sandbox does not grant are left out of the redirect, as when the athlete unticks them", async () => {
    const s = await session({ grantedScopes: ["read", "activity:read_all"] });
    const { redirect } = await authorize(s, "read,activity:read_all,activity:write");
    expect(redirect.searchParams.get("scope")).toBe("read,activity:read_all");
  });
});

describe("scopes", () => {
  test("writes without activity:write get the missing-scope 401 (create, update, upload, upload status)", async () => {
    const s = await session({ grantedScopes: ["read", "activity:read_all"] });
    const list = JSON.parse((await s.get("/athlete/activities?per_page=1")).text) as Array<{ id: number }>;
    const answers = [
      await s.send(
        "POST",
        "/activities",
        form({ name: "x", sport_type: "Run", start_date_local: "2026-11-20T07:00:00", elapsed_time: "60" }),
        "application/x-www-form-urlencoded",
      ),
      await s.send("PUT", `/activities/${list[0]!.id}`, JSON.stringify({ name: "y" }), "application/json"),
      await s.send("POST", "/uploads", uploadForm(Buffer.from("x"), "a.fit", { data_type: "fit" }), null),
      await s.get("/uploads/1"),
    ];
    for (const answer of answers) expect([answer.status, answer.text]).toEqual([401, missingWrite]);
  });

  test("GET /athlete without profile:read_all is the summary profile, as Strava's description says: no FTP, gear or clubs", async () => {
    const readOnly = await session({ grantedScopes: ["read", "activity:read_all"] });
    const summary = JSON.parse((await readOnly.get("/athlete")).text) as Record<string, unknown>;
    expect(summary).toMatchObject({ id: readOnly.sandbox.athleteId, resource_state: 2, firstname: "Maya" });
    for (const field of ["ftp", "bikes", "shoes", "clubs"]) expect(summary, field).not.toHaveProperty(field);
    const full = await session({ grantedScopes: ["read", "profile:read_all"] });
    expect(JSON.parse((await full.get("/athlete")).text)).toMatchObject({ resource_state: 3, ftp: 238 });
  });

  test("reading activities needs activity:read or activity:read_all; only read_all shows the private one", async () => {
    const none = await session({ grantedScopes: ["read", "profile:read_all"] });
    for (const path of ["/athlete/activities", "/activities/1", "/activities/1/streams?keys=time", "/activities/1/zones"]) {
      const answer = await none.get(path);
      expect([answer.status, answer.text]).toEqual([401, missingRead]);
    }
    expect((await none.get("/athlete")).status).toBe(200);

    const all = await session({ grantedScopes: ["read", "activity:read_all"] });
    const everything = JSON.parse((await all.get("/athlete/activities?per_page=200")).text) as Array<{ id: number; private: boolean }>;
    const hidden = everything.filter((a) => a.private);
    expect(hidden.length).toBe(1);

    const publicOnly = await session({ grantedScopes: ["read", "activity:read"] });
    const visible = JSON.parse((await publicOnly.get("/athlete/activities?per_page=200")).text) as Array<{ id: number }>;
    expect(visible.length).toBe(everything.length - 1);
    expect(visible.some((a) => a.id === hidden[0]!.id)).toBe(false);
    expect((await publicOnly.get(`/activities/${hidden[0]!.id}`)).status).toBe(404);
    expect((await all.get(`/activities/${hidden[0]!.id}`)).status).toBe(200);
  });
});
