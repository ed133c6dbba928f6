/**
 * The token manager through the real client and a real token file: refresh margin, one shared
 * refresh, 401 retry once, failure and recovery, save-then-use, and nothing lost when a save fails.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { fileBackedCore, textOf, type FileBackedCore } from "../support/core-harness.ts";
import { mockStrava, type StravaMock } from "../support/strava-mock.ts";
import { testNow } from "../support/test-clock.ts";

const nowMs = testNow;
const nowS = nowMs / 1000;
const base = { client_id: "1234", client_secret: "client-secret-value" };
const cores: FileBackedCore[] = [];
let mock: StravaMock;

async function coreWith(tokens: { refresh_token: string; access_token?: string; expires_at?: number }) {
  const core = await fileBackedCore({ credentials: { ...base, ...tokens }, now: () => nowMs, dispatcher: mock.agent });
  cores.push(core);
  return core;
}

/** `GET /api/v3/athlete` with `Bearer <accessToken>` (any token when left out). */
function athlete(accessToken?: string) {
  return mock.strava.intercept({
    path: "/api/v3/athlete",
    method: "GET",
    ...(accessToken ? { headers: { authorization: `Bearer ${accessToken}` } } : {}),
  });
}

/** A token request (any body, or only the refresh of `refreshToken` with this application's credentials). */
function tokenRequest(refreshToken?: string) {
  const expected = { client_id: "1234", client_secret: "client-secret-value", grant_type: "refresh_token", refresh_token: refreshToken };
  return mock.strava.intercept({
    path: "/oauth/token",
    method: "POST",
    ...(refreshToken
      ? { body: (sent: string) => JSON.stringify(Object.fromEntries(new URLSearchParams(sent))) === JSON.stringify(expected) }
      : {}),
  });
}

/** Expects one refresh with `refreshToken` and answers with the given new tokens. */
function tokenEndpoint(refreshToken: string, answer: { access_token: string; refresh_token: string; expires_at?: number }) {
  tokenRequest(refreshToken).reply(200, { token_type: "Bearer", expires_in: 21600, expires_at: nowS + 21600, ...answer });
}

beforeEach(() => {
  mock = mockStrava();
});
afterEach(async () => {
  await mock.close();
  await Promise.all(cores.splice(0).map((core) => core.cleanup()));
});

describe("refresh margin", () => {
  it("uses the stored token when it has more than 5 minutes left", async () => {
    const core = await coreWith({ refresh_token: "r1", access_token: "a1", expires_at: nowS + 301 });
    athlete("a1").reply(200, "{}");
    expect((await core.call("get_athlete")).isError).toBeUndefined();
  });

  it("refreshes first when the token is within 5 minutes of expiry", async () => {
    const core = await coreWith({ refresh_token: "r1", access_token: "a1", expires_at: nowS + 299 });
    tokenEndpoint("r1", { access_token: "a2", refresh_token: "r2" });
    athlete("a2").reply(200, "{}");
    expect((await core.call("get_athlete")).isError).toBeUndefined();
    expect(await core.stored()).toMatchObject({ ...base, refresh_token: "r2", access_token: "a2", expires_at: nowS + 21600 });
  });

  it("refreshes when there is no access token at all, and computes expires_at from expires_in if needed", async () => {
    const core = await coreWith({ refresh_token: "r1" });
    tokenRequest().reply(200, { access_token: "a2", refresh_token: "r1", expires_in: 3600 });
    athlete("a2").reply(200, "{}");
    expect((await core.call("get_athlete")).isError).toBeUndefined();
    expect(await core.stored()).toMatchObject({ access_token: "a2", expires_at: nowS + 3600 });
  });
});

describe("one shared refresh", () => {
  it("a burst of 100 concurrent calls with an expired token makes exactly one token request", async () => {
    const core = await coreWith({ refresh_token: "r1", access_token: "old", expires_at: nowS - 10 });
    let tokenRequests = 0;
    tokenRequest()
      .reply(200, () => {
        tokenRequests++;
        return { access_token: "fresh", refresh_token: "r2", expires_at: nowS + 21600 };
      })
      .delay(30)
      .times(100);
    athlete("fresh").reply(200, '{"id":1}').times(100);
    const results = await Promise.all(Array.from({ length: 100 }, () => core.call("get_athlete")));
    expect(results.every((result) => result.isError === undefined)).toBe(true);
    expect(tokenRequests).toBe(1);
  });
});

describe("401 from the API", () => {
  it("refreshes and retries the request once", async () => {
    const core = await coreWith({ refresh_token: "r1", access_token: "revoked", expires_at: nowS + 3600 });
    athlete("revoked").reply(401, {
      message: "Authorization Error",
      errors: [{ resource: "Athlete", field: "access_token", code: "invalid" }],
    });
    tokenEndpoint("r1", { access_token: "a2", refresh_token: "r2" });
    athlete("a2").reply(200, '{"id":1}');
    expect(textOf(await core.call("get_athlete"))).toBe('{"id":1}');
  });

  it("a token taken from the store that is revoked too is renewed once more, with a token Strava issues", async () => {
    const core = await coreWith({ refresh_token: "r1", access_token: "mine", expires_at: nowS + 3600 });
    const rejected = { message: "Authorization Error", errors: [{ resource: "Athlete", field: "access_token", code: "invalid" }] };
    athlete("mine").reply(401, async () => {
      // Meanwhile another process saved a token of its own, revoked as well.
      await writeFile(core.path, JSON.stringify({ ...base, refresh_token: "r1", access_token: "theirs", expires_at: nowS + 3600 }));
      return rejected;
    });
    athlete("theirs").reply(401, rejected);
    tokenEndpoint("r1", { access_token: "fresh", refresh_token: "r2" });
    athlete("fresh").reply(200, '{"id":1}');
    expect(textOf(await core.call("get_athlete"))).toBe('{"id":1}');
    expect(mock.pending()).toEqual([]);
  });

  it("Strava renews the rejected token as it is (it has over an hour left): the request is sent once more with it", async () => {
    const core = await coreWith({ refresh_token: "r1", access_token: "a1", expires_at: nowS + 5 * 3600 });
    athlete("a1").reply(401, { message: "Authorization Error", errors: [{ resource: "Athlete", field: "access_token", code: "invalid" }] });
    tokenEndpoint("r1", { access_token: "a1", refresh_token: "r1", expires_at: nowS + 5 * 3600 });
    athlete("a1").reply(200, '{"id":1}');
    expect(textOf(await core.call("get_athlete"))).toBe('{"id":1}');
    expect(mock.pending()).toEqual([]);
  });

  it("a second 401 is an error result (no third attempt)", async () => {
    const core = await coreWith({ refresh_token: "r1", access_token: "revoked", expires_at: nowS + 3600 });
    const fault = { message: "Authorization Error", errors: [{ resource: "Athlete", field: "access_token", code: "invalid" }] };
    athlete().reply(401, fault).times(2);
    tokenEndpoint("r1", { access_token: "a2", refresh_token: "r2" });
    const result = await core.call("get_athlete");
    expect(result).toMatchObject({ isError: true, upstreamStatus: 401 });
    expect(textOf(result)).toContain("401 Unauthorized to GET /athlete: Authorization Error (Athlete.access_token invalid).");
    expect(textOf(result)).toContain("authorize again");
    expect(mock.pending()).toEqual([]);
  });
});

describe("failed refresh", () => {
  it("is an error result, and the next call tries again", async () => {
    const core = await coreWith({ refresh_token: "r1", access_token: "old", expires_at: nowS - 1 });
    tokenRequest().reply(503, { message: "Service Unavailable" });
    const first = await core.call("get_athlete");
    expect(first.isError).toBe(true);
    expect(textOf(first)).toBe("Error: The Strava token endpoint answered 503 Service Unavailable. Try again shortly.");
    tokenEndpoint("r1", { access_token: "a2", refresh_token: "r2" });
    athlete().reply(200, "{}");
    expect((await core.call("get_athlete")).isError).toBeUndefined();
  });

  it("an invalid refresh token says to authorize again and names the store, not the token", async () => {
    const core = await coreWith({ refresh_token: "dead-refresh-token", access_token: "old", expires_at: nowS - 1 });
    tokenRequest().reply(400, { message: "Bad Request", errors: [{ resource: "RefreshToken", field: "refresh_token", code: "invalid" }] });
    const text = textOf(await core.call("get_athlete"));
    expect(text).toContain(
      `Strava refused to refresh the access token with the refresh token from token file ${core.path}: 400 Bad Request (RefreshToken.refresh_token invalid).`,
    );
    expect(text).toContain("npm run authorize");
    expect(text).not.toContain("dead-refresh-token");
  });

  it("a token endpoint answering garbage changes nothing in the store", async () => {
    const core = await coreWith({ refresh_token: "r1", access_token: "old", expires_at: nowS - 1 });
    const before = await core.stored();
    tokenRequest().reply(200, "<html>oops</html>");
    expect(textOf(await core.call("get_athlete"))).toBe(
      "Error: The Strava token endpoint answered with a body that is not JSON; try again shortly.",
    );
    tokenRequest().reply(200, { access_token: "a2" });
    expect(textOf(await core.call("get_athlete"))).toContain("without a usable refresh_token, expires_at");
    expect(await core.stored()).toEqual(before);
  });
});

describe("save, then use", () => {
  it("the new tokens are in the store before the API sees them", async () => {
    const core = await coreWith({ refresh_token: "r1", access_token: "old", expires_at: nowS - 1 });
    tokenEndpoint("r1", { access_token: "a2", refresh_token: "r2" });
    let storedWhenUsed: Record<string, unknown> | undefined;
    athlete("a2").reply(200, async () => {
      storedWhenUsed = await core.stored();
      return "{}";
    });
    expect((await core.call("get_athlete")).isError).toBeUndefined();
    expect(storedWhenUsed).toMatchObject({ refresh_token: "r2", access_token: "a2" });
  });

  it("a failed save keeps the rotated tokens in memory and writes them first on the next call", async () => {
    const core = await coreWith({ refresh_token: "r1", access_token: "old", expires_at: nowS - 1 });
    // The store breaks after it was read and while Strava rotates the tokens: the token file's
    // directory is replaced by a plain file, so the save cannot happen.
    const directory = dirname(core.path);
    const original = await core.stored();
    tokenRequest().reply(200, async () => {
      await rm(directory, { recursive: true });
      await writeFile(directory, "not a directory");
      return { access_token: "a2", refresh_token: "r2", expires_at: nowS + 21600 };
    });
    const first = await core.call("get_athlete");
    expect(first.isError).toBe(true);
    expect(textOf(first)).toContain("Strava issued new tokens but they could not be saved to token file");
    expect(textOf(first)).toContain("retried on the next call");
    // The store comes back: the next call saves the kept tokens and uses them, with no second refresh
    // (Strava has already retired r1).
    await rm(directory);
    await mkdir(directory);
    await writeFile(core.path, JSON.stringify(original));
    athlete("a2").reply(200, "{}");
    expect((await core.call("get_athlete")).isError).toBeUndefined();
    expect(await core.stored()).toMatchObject({ refresh_token: "r2", access_token: "a2" });
    expect(mock.pending()).toEqual([]);
  });

  it("re-reads the store before refreshing and adopts tokens another instance saved", async () => {
    const core = await coreWith({ refresh_token: "r1", access_token: "old", expires_at: nowS - 1 });
    await writeFile(core.path, JSON.stringify({ ...base, refresh_token: "r9", access_token: "a9", expires_at: nowS + 20000 }));
    athlete("a9").reply(200, "{}");
    expect((await core.call("get_athlete")).isError).toBeUndefined();
  });
});
