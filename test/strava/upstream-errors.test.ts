/** Every upstream failure becomes an error result whose message says what happened and what to do. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileBackedCore, textOf, type FileBackedCore } from "../support/core-harness.ts";
import { freePort } from "../support/free-port.ts";
import { mockStrava, pathAnyQuery, type StravaMock } from "../support/strava-mock.ts";
import { testDayAt } from "../support/test-clock.ts";
import { statusErrorFor } from "../../strava/strava-errors.ts";

// 3 min 12 s before a quarter hour ends.
const now = testDayAt("12:41:48");
let core: FileBackedCore;
let mock: StravaMock;

beforeEach(async () => {
  mock = mockStrava();
  core = await fileBackedCore({
    credentials: { client_id: "1", client_secret: "s", refresh_token: "r", access_token: "a", expires_at: now / 1000 + 3600 },
    now: () => now,
    dispatcher: mock.agent,
  });
});
afterEach(async () => {
  await mock.close();
  await core.cleanup();
});

const get = (path: string | ((path: string) => boolean)) => mock.strava.intercept({ path, method: "GET" });

describe("upstream status errors", () => {
  it("404 gives the status, the Fault message and its errors, and where a right id comes from", async () => {
    get("/api/v3/activities/99").reply(404, {
      message: "Resource Not Found",
      errors: [{ resource: "Activity", field: "id", code: "invalid" }],
    });
    const result = await core.call("get_activity_by_id", { id: 99 });
    expect(result).toMatchObject({ isError: true, upstreamStatus: 404 });
    expect(textOf(result)).toBe(
      "Error: Strava answered 404 Not Found to GET /activities/99: Resource Not Found (Activity.id invalid). " +
        "No activity of the athlete's has this id: take the `id` of an item from get_activities (not its upload_id or external_id).",
    );
  });

  it("429 reports usage against each limit and when the window resets, without retrying", async () => {
    get("/api/v3/athlete").reply(
      429,
      { message: "Rate Limit Exceeded", errors: [{ resource: "Application", field: "rate limit", code: "exceeded" }] },
      {
        headers: {
          "X-RateLimit-Limit": "200,2000",
          "X-RateLimit-Usage": "150,900",
          "X-ReadRateLimit-Limit": "100,1000",
          "X-ReadRateLimit-Usage": "101,800",
        },
      },
    );
    const text = textOf(await core.call("get_athlete", {}));
    expect(text).toContain("Strava answered 429 Too Many Requests to GET /athlete: Rate Limit Exceeded (Application.rate limit exceeded).");
    expect(text).toContain("Usage: overall 15-min 150/200, daily 900/2000; read 15-min 101/100, daily 800/1000.");
    expect(text).toContain("The 15-minute window resets at 12:45:00 UTC (in 3 min 12 s).");
    expect(text).toContain("this server does not retry");
    expect(mock.pending()).toEqual([]);
  });

  it("429 on the daily limit points at midnight UTC", async () => {
    get("/api/v3/athlete").reply(
      429,
      { message: "Rate Limit Exceeded" },
      { headers: { "X-RateLimit-Limit": "200,2000", "X-RateLimit-Usage": "10,2001" } },
    );
    expect(textOf(await core.call("get_athlete", {}))).toContain(
      "The daily limit is used up; it resets at midnight UTC (2026-11-22T00:00:00.000Z, in 11 h 18 min).",
    );
  });

  it("500 says the failure is Strava's", async () => {
    get("/api/v3/athlete").reply(500, { message: "Internal Error" });
    expect(textOf(await core.call("get_athlete", {}))).toBe(
      "Error: Strava answered 500 Internal Server Error to GET /athlete: Internal Error. This is a failure on Strava's side; try again in a moment.",
    );
  });

  it("a non-Fault error body is quoted briefly", async () => {
    get("/api/v3/athlete").reply(502, "<html><body>Bad gateway</body></html>");
    expect(textOf(await core.call("get_athlete", {}))).toContain("502 Bad Gateway to GET /athlete: <html><body>Bad gateway</body></html>.");
  });

  it("club activities' 404 says Strava retired the endpoint", async () => {
    get(pathAnyQuery("/api/v3/clubs/7/activities")).reply(404, {
      message: "Record Not Found",
      errors: [{ resource: "path", field: "", code: "invalid" }],
    });
    const text = textOf(await core.call("get_club_activities", { id: 7 }));
    expect(text).toContain("404 Not Found to GET /clubs/7/activities: Record Not Found (path. invalid).");
    expect(text).toContain("Strava retired GET /clubs/{id}/activities on 2026-09-01");
  });

  it("a gear_id that is not the athlete's says where the right ids are and how to clear the gear", async () => {
    mock.strava.intercept({ path: "/api/v3/activities/5", method: "PUT" }).reply(400, {
      message: "Bad Request",
      errors: [{ resource: "Activity", field: "gear_id", code: "invalid" }],
    });
    const result = await core.call("update_activity", { id: 5, gear_id: "b999" });
    expect(textOf(result)).toBe(
      "Error: Strava answered 400 Bad Request to PUT /activities/5: Bad Request (Activity.gear_id invalid). " +
        "gear_id must be the id of one of the athlete's bikes or shoes: get_athlete lists them (its `bikes` and `shoes`, each with " +
        'an `id` such as "b1234567"); "none" clears the gear.',
    );
  });

  it("missing scope 401 is not retried and says to authorize again with every scope", async () => {
    mock.strava.intercept({ path: "/api/v3/activities/5", method: "PUT" }).reply(401, {
      message: "Authorization Error",
      errors: [{ resource: "AccessToken", field: "activity:write_permission", code: "missing" }],
    });
    const text = textOf(await core.call("update_activity", { id: 5, name: "x" }));
    expect(text).toContain("401 Unauthorized to PUT /activities/5: Authorization Error (AccessToken.activity:write_permission missing).");
    expect(text).toContain("did not grant the permission this needs (activity:write_permission)");
    expect(mock.pending()).toEqual([]);
  });

  it("a success status with a cut-off body is an error, not a result", async () => {
    get("/api/v3/activities/3").reply(200, '{"id":3,"name":"Half a bo');
    const result = await core.call("get_activity_by_id", { id: 3 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Strava answered GET \/activities\/3 with 200, but the body is not complete JSON \(25 characters/);
  });

  it("an empty success body is an error too", async () => {
    get("/api/v3/athlete").reply(200, "");
    expect(textOf(await core.call("get_athlete", {}))).toMatch(/not complete JSON/);
  });
});

describe("what a 401 says to do, where authorizing again is not npm run authorize (OAuth mode)", () => {
  it("names the store's own words, never npm run authorize", () => {
    const authorizeAgain = "athlete 48201735 must sign in with Strava again from their MCP client";
    const rejected = statusErrorFor({ request: "GET /athlete", status: 401, bodyText: "", headers: {}, nowMs: now, authorizeAgain });
    expect(rejected.message).toBe(
      "Strava answered 401 Unauthorized to GET /athlete. The access token was rejected even after a refresh; " +
        "athlete 48201735 must sign in with Strava again from their MCP client.",
    );
    const scope = statusErrorFor({
      request: "GET /athlete",
      status: 401,
      bodyText: JSON.stringify({
        message: "Authorization Error",
        errors: [{ resource: "AccessToken", field: "activity:read_permission", code: "missing" }],
      }),
      headers: {},
      nowMs: now,
      authorizeAgain,
    });
    expect(scope.message).toContain(`(activity:read_permission). To fix it, ${authorizeAgain} and keep every requested scope ticked.`);
    expect(rejected.message + scope.message).not.toContain("npm run authorize");
  });
});

describe("transport failures", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((request) => {
      if (request.url?.includes("/slow")) return; // never answers
      request.socket.destroy(); // connection reset
    });
    await once(server.listen(0, "127.0.0.1"), "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("a timeout is named as one", async () => {
    const local = await fileBackedCore({
      credentials: { client_id: "1", client_secret: "s", refresh_token: "r", access_token: "a", expires_at: 4_000_000_000 },
      settings: { apiBase: `${base}/slow`, timeoutMs: 300 },
    });
    const text = textOf(await local.call("get_athlete", {}));
    expect(text).toBe(
      "Error: Strava did not answer GET /athlete within 0.3 s (timeout). It may be slow or unreachable; try again shortly (STRAVA_TIMEOUT_MS sets the limit).",
    );
    await local.cleanup();
  });

  it("a reset connection is a network failure", async () => {
    const local = await fileBackedCore({
      credentials: { client_id: "1", client_secret: "s", refresh_token: "r", access_token: "a", expires_at: 4_000_000_000 },
      settings: { apiBase: base },
    });
    expect(textOf(await local.call("get_athlete", {}))).toMatch(
      /^Error: Network failure on GET \/athlete to http:\/\/127\.0\.0\.1:\d+: .+\. Try again shortly\.$/,
    );
    await local.cleanup();
  });

  it("a refused connection is a network failure naming the cause", async () => {
    const local = await fileBackedCore({
      credentials: { client_id: "1", client_secret: "s", refresh_token: "r", access_token: "a", expires_at: 4_000_000_000 },
      settings: { apiBase: `http://127.0.0.1:${await freePort()}` }, // nothing listens there
    });
    expect(textOf(await local.call("get_athlete", {}))).toContain("connection refused (ECONNREFUSED)");
    await local.cleanup();
  });

  it("a cancelled call says so and stops waiting", async () => {
    const local = await fileBackedCore({
      credentials: { client_id: "1", client_secret: "s", refresh_token: "r", access_token: "a", expires_at: 4_000_000_000 },
      settings: { apiBase: `${base}/slow`, timeoutMs: 20_000 },
    });
    const controller = new AbortController();
    const pending = local.call("get_athlete", {}, controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect(textOf(await pending)).toBe("Error: The call was cancelled while waiting for GET /athlete.");
    await local.cleanup();
  });
});
