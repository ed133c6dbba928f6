/**
 * sandbox/server/strava-request.ts in this process, against a sandbox on a loopback port: which endpoint a path
 * names and its route for the counters; the OAuth endpoints under /api/v3 too; push subscriptions counted but never
 * limited or faulted; a refresh token refused is counted; a token answer is told to onTokenAnswer once written.
 */
import { afterEach, describe, expect, test } from "vitest";
import { startSandbox, type RunningSandbox, type SandboxOptions, type TokenAnswer } from "../../../sandbox/server.ts";
import { stravaTarget } from "../../../sandbox/server/strava-request.ts";

const running: RunningSandbox[] = [];
async function sandboxWith(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox(options);
  running.push(sandbox);
  return sandbox;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

const refresh = (sandbox: RunningSandbox, url: string, refreshToken = sandbox.refreshToken()): Promise<Response> =>
  fetch(url, {
    method: "POST",
    body: new URLSearchParams({
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
      grant_type: "refresh_token",
      refresh_token: refreshToken,
    }),
  });

describe("stravaTarget", () => {
  test("names the OAuth endpoint at /oauth/ and under /api/v3 alike, and templates the API's ids", () => {
    expect(stravaTarget("POST", "/oauth/token", "")).toMatchObject({ oauthEndpoint: "token", isApi: false, route: "POST /oauth/token" });
    expect(stravaTarget("POST", "/api/v3/oauth/token", "")).toMatchObject({
      oauthEndpoint: "token",
      isApi: true,
      route: "POST /oauth/token",
    });
    expect(stravaTarget("GET", "/api/v3/oauth/authorize", "?x=1")).toMatchObject({
      oauthEndpoint: "authorize",
      route: "GET /oauth/authorize",
    });
    expect(stravaTarget("POST", "/oauth/revoke", "")).toMatchObject({ oauthEndpoint: "revoke" });
    expect(stravaTarget("GET", "/api/v3/activities/123/streams", "?keys=time")).toEqual({
      method: "GET",
      path: "/api/v3/activities/123/streams",
      search: "?keys=time",
      isApi: true,
      apiPath: "/activities/123/streams",
      oauthEndpoint: undefined,
      route: "GET /activities/{id}/streams",
    });
    expect(stravaTarget("GET", "/api/v3/uploads/77", "").route).toBe("GET /uploads/{uploadId}");
    expect(stravaTarget("GET", "/elsewhere", "")).toMatchObject({
      isApi: false,
      apiPath: "",
      oauthEndpoint: undefined,
      route: "GET /elsewhere",
    });
  });
});

describe("Strava's side of the sandbox", () => {
  test("the token endpoint under /api/v3 is a token request: counted as one, a spent refresh token counted as refused", async () => {
    const sandbox = await sandboxWith();
    const spent = sandbox.refreshToken();
    expect((await refresh(sandbox, `${sandbox.apiBase}/oauth/token`)).status).toBe(200);
    const refused = await refresh(sandbox, sandbox.tokenUrl, spent);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('"RefreshToken"');
    expect(sandbox.counters()).toEqual({
      requests: 2,
      tokenRequests: 2,
      refreshTokenRejections: 1,
      apiRequests: 0,
      byRoute: { "POST /oauth/token": 2 },
    });
  });

  test("a token request's body that cannot be read is a 400 Fault naming the body", async () => {
    const sandbox = await sandboxWith();
    const answer = await fetch(sandbox.tokenUrl, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toBe('{"message":"Bad Request","errors":[{"resource":"Application","field":"body","code":"invalid"}]}');
  });

  test("a GET of the token endpoint, or any path outside the API, is Strava's 404 with the rate-limit headers", async () => {
    const sandbox = await sandboxWith();
    for (const url of [sandbox.tokenUrl, `${sandbox.baseUrl}/elsewhere`]) {
      const answer = await fetch(url);
      expect(answer.status).toBe(404);
      expect(answer.headers.get("x-ratelimit-usage")).toBe("0,0");
    }
  });

  test("push subscriptions are counted under one route, and a queued fault waits for the next request it matches", async () => {
    const sandbox = await sandboxWith();
    sandbox.injectFault({ kind: "status", status: 503 });
    const list = await fetch(`${sandbox.apiBase}/push_subscriptions?client_id=${sandbox.clientId}&client_secret=${sandbox.clientSecret}`);
    expect(list.status).toBe(200);
    expect(await list.text()).toBe("[]");
    expect(sandbox.counters().byRoute).toEqual({ "GET /push_subscriptions": 1 });
    expect((await fetch(`${sandbox.baseUrl}/elsewhere`)).status).toBe(503);
  });

  test("onTokenAnswer hears of each successful token answer with the client's port and the refresh token it carries", async () => {
    const heard: TokenAnswer[] = [];
    const sandbox = await sandboxWith({ onTokenAnswer: (answer) => heard.push(answer) });
    const answer = await refresh(sandbox, sandbox.tokenUrl);
    const { refresh_token } = (await answer.json()) as { refresh_token: string };
    await refresh(sandbox, sandbox.tokenUrl, "spent-or-never-valid");
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ refreshToken: refresh_token });
    expect(heard[0]!.clientPort).toBeGreaterThan(0);
    expect(heard[0]!.sentAt).toBeLessThanOrEqual(performance.now());
  });
});
