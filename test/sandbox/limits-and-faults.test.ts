/**
 * 404 Faults for unknown ids and paths, Strava's rate-limit headers on every answer with 429 past each
 * limit (windows turning by the sandbox's clock), the injectable faults, and the HTTP test controls.
 */
import { request } from "node:http";
import { afterEach, describe, expect, test } from "vitest";
import { form, openSession, type RawAnswer, type SandboxSession } from "./sandbox-client.ts";
import { manualClock } from "../support/test-clock.ts";

const sessions: SandboxSession[] = [];
async function session(options: Parameters<typeof openSession>[0] = {}): Promise<SandboxSession> {
  const s = await openSession(options);
  sessions.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.sandbox.close()));
});

const notFound = (resource: string, field = "id"): string =>
  `{"message":"Record Not Found","errors":[{"resource":"${resource}","field":"${field}","code":"invalid"}]}`;
const pathNotFound = '{"message":"Record Not Found","errors":[{"resource":"resource","field":"path","code":"invalid"}]}';
const rateLimited = '{"message":"Rate Limit Exceeded","errors":[{"resource":"Application","field":"rate limit","code":"exceeded"}]}';

function usage(answer: RawAnswer | Response): { overall: string | null; read: string | null } {
  return { overall: answer.headers.get("x-ratelimit-usage"), read: answer.headers.get("x-readratelimit-usage") };
}

describe("not found", () => {
  test("unknown activity, upload and club ids and unknown paths get Strava's 404 Faults", async () => {
    const s = await session();
    const cases: Array<[Promise<RawAnswer>, string]> = [
      [s.get("/activities/99"), notFound("Activity")],
      [s.get("/activities/99/zones"), notFound("Activity")],
      [s.get("/activities/99/streams?keys=time"), notFound("Activity")],
      [s.get("/activities/not-a-number"), notFound("Activity")],
      [s.send("PUT", "/activities/99", JSON.stringify({ name: "x" }), "application/json"), notFound("Activity")],
      [s.get("/uploads/99"), notFound("Upload")],
      // The retired club feed: any club but the sandbox's answers like live Strava now.
      [s.get("/clubs/99/activities"), pathNotFound],
      [s.get("/activities/99/laps"), pathNotFound],
      [s.get("/segments/1"), pathNotFound],
    ];
    for (const [pending, body] of cases) {
      const answer = await pending;
      expect([answer.status, answer.text]).toEqual([404, body]);
    }
    const outside = await fetch(`${s.sandbox.baseUrl}/nothing-here`);
    expect([outside.status, await outside.text()]).toEqual([404, pathNotFound]);
  });

  test("stats of another athlete are a 403 Fault", async () => {
    const s = await session();
    const answer = await s.get("/athletes/1234/stats");
    expect([answer.status, answer.text]).toEqual([
      403,
      '{"message":"Forbidden","errors":[{"resource":"Athlete","field":"id","code":"forbidden"}]}',
    ]);
  });
});

describe("rate limits", () => {
  test('every answer carries the four headers as "15min,daily": API successes and errors, token, authorize, unknown paths, controls', async () => {
    const s = await session();
    const token = await s.token();
    const answers: Array<RawAnswer | Response> = [
      await s.get("/athlete", token),
      await s.get("/activities/99", token),
      await s.get("/athlete", "bad"),
      await s.tokenRequest({ grant_type: "refresh_token" }),
      await fetch(`${s.sandbox.authorizeUrl}?client_id=${s.sandbox.clientId}&redirect_uri=http://localhost/cb&response_type=code`, {
        redirect: "manual",
      }),
      await fetch(`${s.sandbox.baseUrl}/nowhere`),
      await fetch(`${s.sandbox.baseUrl}/_sandbox/counters`),
    ];
    for (const answer of answers) {
      expect(answer.headers.get("x-ratelimit-limit")).toBe("200,2000");
      expect(answer.headers.get("x-readratelimit-limit")).toBe("100,1000");
      expect(answer.headers.get("x-ratelimit-usage")).toMatch(/^\d+,\d+$/);
      expect(answer.headers.get("x-readratelimit-usage")).toMatch(/^\d+,\d+$/);
    }
  });

  test("GETs count against both limits, writes only against the overall one; windows turn at the quarter hour and at midnight UTC", async () => {
    const clock = manualClock(Date.UTC(2026, 10, 21, 23, 14, 50));
    const s = await session({ clock: clock.now });
    const token = await s.token();
    expect(usage(await s.get("/athlete", token))).toEqual({ overall: "1,1", read: "1,1" });
    const created = await s.send(
      "POST",
      "/activities",
      form({ name: "x", sport_type: "Yoga", start_date_local: "2026-11-21T07:00:00", elapsed_time: "600" }),
      "application/x-www-form-urlencoded",
      token,
    );
    expect(usage(created)).toEqual({ overall: "2,2", read: "1,1" });
    // The token endpoint does not count.
    await s.token();
    clock.advance(10_000); // 23:15:00
    expect(usage(await s.get("/athlete"))).toEqual({ overall: "1,3", read: "1,2" });
    clock.advance(45 * 60_000); // 00:00:00 the next day
    expect(usage(await s.get("/athlete"))).toEqual({ overall: "1,1", read: "1,1" });
  });

  // The tests that fill a window run on a clock that stands still: on the real one, a quarter hour (or midnight
  // UTC) between two requests would empty the window, and the request meant to be refused would go through.
  test("past the overall limit: 429 with Strava's Fault, no Retry-After; writes count", async () => {
    const s = await session({ clock: manualClock().now, rateLimits: { overall: [3, 100] } });
    const token = await s.token();
    await s.get("/athlete", token);
    await s.send(
      "POST",
      "/activities",
      form({ name: "x", sport_type: "Yoga", start_date_local: "2026-11-21T07:00:00", elapsed_time: "600" }),
      "application/x-www-form-urlencoded",
      token,
    );
    expect((await s.get("/athlete", token)).status).toBe(200);
    const over = await s.get("/athlete", token);
    expect([over.status, over.text]).toEqual([429, rateLimited]);
    expect(over.headers.get("retry-after")).toBeNull();
    expect(usage(over).overall).toBe("4,4");
    const write = await s.send("PUT", "/activities/1", JSON.stringify({ name: "y" }), "application/json", token);
    expect(write.status).toBe(429);
  });

  test("past the read limit: GETs get 429 while writes still go through; the daily limits work the same way", async () => {
    const s = await session({ clock: manualClock().now, rateLimits: { read: [2, 100] } });
    const token = await s.token();
    await s.get("/athlete", token);
    await s.get("/athlete", token);
    const over = await s.get("/athlete", token);
    expect([over.status, over.text]).toEqual([429, rateLimited]);
    const write = await s.send(
      "POST",
      "/activities",
      form({ name: "x", sport_type: "Yoga", start_date_local: "2026-11-21T07:00:00", elapsed_time: "600" }),
      "application/x-www-form-urlencoded",
      token,
    );
    expect(write.status).toBe(201);

    const daily = await session({ clock: manualClock().now, rateLimits: { overall: [100, 2], read: [100, 100] } });
    const dailyToken = await daily.token();
    await daily.get("/athlete", dailyToken);
    await daily.get("/athlete", dailyToken);
    expect((await daily.get("/athlete", dailyToken)).status).toBe(429);
  });
});

describe("injected faults", () => {
  test("status: a Strava Fault with that status, for the matching requests only, as many times as asked", async () => {
    const s = await session();
    const token = await s.token();
    s.sandbox.injectFault({ kind: "status", status: 503, match: "GET /athlete/activities", times: 2 });
    expect((await s.get("/athlete", token)).status).toBe(200);
    const first = await s.get("/athlete/activities", token);
    expect([first.status, first.text]).toEqual([503, '{"message":"Service Unavailable","errors":[]}']);
    expect(usage(first).overall).toMatch(/^\d+,\d+$/);
    expect((await s.get("/athlete/activities", token)).status).toBe(503);
    expect((await s.get("/athlete/activities", token)).status).toBe(200);
    s.sandbox.injectFault({ kind: "status", status: 500 });
    expect((await s.get("/athlete", token)).status).toBe(500);
  });

  test("a fault on the token endpoint, then the next token request works", async () => {
    const s = await session();
    s.sandbox.injectFault({ kind: "status", status: 500, match: "POST /oauth/token" });
    const failed = await s.tokenRequest({
      client_id: s.sandbox.clientId,
      client_secret: s.sandbox.clientSecret,
      grant_type: "refresh_token",
      refresh_token: s.sandbox.refreshToken(),
    });
    expect(failed.status).toBe(500);
    expect(JSON.parse(failed.text)).toEqual({ message: "Internal Server Error", errors: [] });
    await expect(s.token()).resolves.toMatch(/^[0-9a-f]{40}$/);
  });

  test("reset: the connection dies without an answer", async () => {
    const s = await session();
    const token = await s.token();
    s.sandbox.injectFault({ kind: "reset", match: "/athlete" });
    await expect(fetch(`${s.sandbox.apiBase}/athlete`, { headers: { Authorization: `Bearer ${token}` } })).rejects.toThrow();
    expect((await s.get("/athlete", token)).status).toBe(200);
  });

  test("truncate: the headers promise the whole body, half arrives, the connection closes", async () => {
    const s = await session();
    const token = await s.token();
    const whole = (await s.get("/athlete", token)).text;
    s.sandbox.injectFault({ kind: "truncate", match: "GET /athlete" });
    const response = await fetch(`${s.sandbox.apiBase}/athlete`, { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get("content-length"))).toBe(Buffer.byteLength(whole));
    await expect(response.text()).rejects.toThrow();
  });

  test("non-json: an HTML page instead of JSON, with status 200 or the one asked for", async () => {
    const s = await session();
    const token = await s.token();
    s.sandbox.injectFault({ kind: "non-json", match: "GET /athlete" });
    const html = await s.get("/athlete", token);
    expect(html.status).toBe(200);
    expect(html.headers.get("content-type")).toContain("text/html");
    expect(() => JSON.parse(html.text)).toThrow();
    s.sandbox.injectFault({ kind: "non-json", status: 502 });
    expect((await s.get("/athlete", token)).status).toBe(502);
  });

  test("delay: the answer comes normally, after requests sent later", async () => {
    const s = await session();
    const token = await s.token();
    s.sandbox.injectFault({ kind: "delay", delayMs: 1_500, match: "GET /athlete/activities" });
    const order: string[] = [];
    const slow = s.get("/athlete/activities?per_page=1", token).then((a) => {
      order.push("delayed");
      return a;
    });
    const fast = s.get("/athlete", token).then((a) => {
      order.push("immediate");
      return a;
    });
    const [slowAnswer, fastAnswer] = await Promise.all([slow, fast]);
    expect([slowAnswer.status, fastAnswer.status]).toEqual([200, 200]);
    expect(order).toEqual(["immediate", "delayed"]);
  });

  test("bad faults are refused with a message saying what to fix", async () => {
    const s = await session();
    expect(() => s.sandbox.injectFault({ kind: "status" })).toThrow(/needs "status"/);
    expect(() => s.sandbox.injectFault({ kind: "explode" as "status" })).toThrow(/must be one of/);
    expect(() => s.sandbox.injectFault({ kind: "delay", delayMs: -1 })).toThrow(/delayMs/);
  });
});

describe("request bodies over Strava's 25 MB upload limit", () => {
  /** POSTs `headers` and then `chunks` of 1 MiB (none: the client only declares its length); resolves with the answer or the connection error. */
  function post(
    url: string,
    headers: Record<string, string>,
    chunks: number,
  ): Promise<{ status: number; connection: string | undefined; text: string } | { error: string }> {
    return new Promise((resolve) => {
      const outgoing = request(url, { method: "POST", headers }, (answer) => {
        let text = "";
        answer.setEncoding("utf8").on("data", (part: string) => (text += part));
        answer.on("end", () => resolve({ status: answer.statusCode ?? 0, connection: answer.headers.connection, text }));
      });
      outgoing.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      const chunk = Buffer.alloc(1024 * 1024, 97);
      for (let i = 0; i < chunks; i += 1) outgoing.write(chunk);
      if (chunks > 0) outgoing.end();
      else outgoing.flushHeaders();
    });
  }

  test("a declared length over 26 MiB gets a 413 Fault before any of it is read, and the connection closes; a streamed one is read no further", async () => {
    const s = await session();
    const auth = { Authorization: `Bearer ${await s.token()}`, "Content-Type": "multipart/form-data; boundary=x" };
    const declared = await post(`${s.sandbox.apiBase}/uploads`, { ...auth, "Content-Length": String(27 * 1024 * 1024) }, 0);
    expect(declared).toEqual({
      status: 413,
      connection: "close",
      text: '{"message":"Payload Too Large","errors":[{"resource":"Upload","field":"file","code":"too large"}]}',
    });
    // Chunked, so the length is only known as it arrives: the sandbox stops reading there (a 413 if the
    // connection still stands, else the client sees it drop) and keeps serving.
    const streamed = await post(`${s.sandbox.apiBase}/uploads`, { ...auth, "Transfer-Encoding": "chunked" }, 27);
    expect("error" in streamed || streamed.status === 413, JSON.stringify(streamed)).toBe(true);
    expect((await s.get("/athlete")).status).toBe(200);
  });
});

describe("HTTP controls (/_sandbox/, loopback only)", () => {
  test("faults, counters, reset and credentials work over HTTP", async () => {
    const s = await session();
    const control = (method: string, name: string, body?: string): Promise<Response> =>
      fetch(`${s.sandbox.baseUrl}/_sandbox/${name}`, { method, body });
    const bad = await control("POST", "faults", '{"kind":"status","status":42}');
    expect(bad.status).toBe(400);
    expect((await bad.json()) as { message: string }).toEqual({ message: expect.stringContaining("HTTP error status") });
    expect((await control("POST", "faults", '{"kind":"status","status":502,"match":"GET /athlete"}')).status).toBe(200);
    const credentials = (await (await control("GET", "credentials")).json()) as Record<string, string>;
    expect(credentials).toEqual({
      client_id: s.sandbox.clientId,
      client_secret: s.sandbox.clientSecret,
      refresh_token: s.sandbox.refreshToken(),
    });
    const token = await s.token();
    expect((await s.get("/athlete", token)).status).toBe(502);
    await s.get("/activities/99", token);
    await s.get("/activities/98", token);
    const counters = (await (await control("GET", "counters")).json()) as {
      requests: number;
      tokenRequests: number;
      apiRequests: number;
      byRoute: Record<string, number>;
    };
    expect(counters).toEqual({
      requests: 4,
      tokenRequests: 1,
      refreshTokenRejections: 0,
      apiRequests: 3,
      byRoute: { "POST /oauth/token": 1, "GET /athlete": 1, "GET /activities/{id}": 2 },
    });
    expect(s.sandbox.counters()).toEqual(counters);
    await control("POST", "reset-counters");
    expect(s.sandbox.counters()).toEqual({ requests: 0, tokenRequests: 0, refreshTokenRejections: 0, apiRequests: 0, byRoute: {} });
    expect((await control("GET", "nope")).status).toBe(404);
  });
});
