/**
 * The intervals.icu client at the network edge (undici's MockAgent under the real HTTP exchange): the key goes
 * as HTTP Basic credentials on every request and nowhere else, the address must be https unless it is this
 * machine, refusals and the rate limit are errors that say what to do and are never retried, timeouts and
 * network failures come through the shared exchange, and requests are paced to ten a second.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHttpSender } from "../../common/upstream/http-exchange.ts";
import { ConfigurationError } from "../../common/configuration-error.ts";
import {
  UpstreamNetworkError,
  UpstreamStatusError,
  UpstreamTimeoutError,
  CallCancelledError,
} from "../../common/upstream/upstream-errors.ts";
import { IntervalsClient } from "../../intervals/intervals-client.ts";
import { RequestPacer } from "../../intervals/request-pacer.ts";
import { AthleteTimeZone } from "../../intervals/athlete-time-zone.ts";
import { capturingLogger } from "../support/core-harness.ts";
import { intervalsApiBase, mockIntervals, type IntervalsMock } from "../support/intervals-mock.ts";
import { manualClock, testNow } from "../support/test-clock.ts";

const apiKey = "7kq2lmv0x4d9zz1c8p3ny5rtw";
const basic = `Basic ${Buffer.from(`API_KEY:${apiKey}`).toString("base64")}`;
let mock: IntervalsMock;
let logs: ReturnType<typeof capturingLogger>;

beforeEach(() => {
  mock = mockIntervals();
  logs = capturingLogger();
});
afterEach(async () => {
  await mock.close();
});

function client(options: { apiBase?: string; timeoutMs?: number; pacer?: RequestPacer } = {}): IntervalsClient {
  return new IntervalsClient({
    settings: { apiKey, athleteId: "0", apiBase: options.apiBase ?? intervalsApiBase, timeoutMs: options.timeoutMs },
    logger: logs.logger,
    http: createHttpSender({ dispatcher: mock.agent }),
    pacer: options.pacer,
  });
}

/** The error `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the call to fail");
}

describe("the intervals.icu client", () => {
  it("sends the key as HTTP Basic credentials (user API_KEY) on every request, and answers the body as it came", async () => {
    mock.intervals.intercept({ path: "/api/v1/athlete/0", method: "GET", headers: { authorization: basic } }).reply(200, '{"id":"i1"}');
    mock.intervals
      .intercept({
        path: "/api/v1/athlete/0/activities?oldest=2026-11-01&newest=2026-11-21T23:59:59",
        method: "GET",
        headers: { authorization: basic },
      })
      .reply(200, "[]");
    const c = client();
    expect((await c.send({ method: "GET", path: "/athlete/0" })).bodyText).toBe('{"id":"i1"}');
    const listed = await c.send({
      method: "GET",
      path: "/athlete/0/activities",
      query: { oldest: "2026-11-01", newest: "2026-11-21T23:59:59" },
    });
    expect(listed).toMatchObject({ status: 200, bodyText: "[]" });
    expect(mock.authorizations()).toEqual([basic, basic]);
  });

  it("sends a JSON body with its content type", async () => {
    mock.intervals
      .intercept({ path: "/api/v1/activity/i42", method: "PUT", headers: { "content-type": "application/json" }, body: '{"name":"Tempo"}' })
      .reply(200, '{"id":"i42","name":"Tempo"}');
    const answer = await client().send({ method: "PUT", path: "/activity/i42", body: { kind: "json", value: { name: "Tempo" } } });
    expect(answer.bodyText).toBe('{"id":"i42","name":"Tempo"}');
  });

  it("refuses at construction an address the key would travel to in the clear, naming INTERVALS_API_BASE", () => {
    expect(() => client({ apiBase: "http://intervals.example.com/api/v1" })).toThrow(
      new ConfigurationError(
        "INTERVALS_API_BASE must be an https:// address: the API key goes with every request, and plain http is allowed only to " +
          'this machine (localhost, 127.0.0.1, [::1]) for a local server such as the sandbox; got "http://intervals.example.com/api/v1".',
      ),
    );
    expect(() => client({ apiBase: "ftp://intervals.icu/api/v1" })).toThrow(
      'INTERVALS_API_BASE must be an https:// address such as https://intervals.icu/api/v1; got "ftp://intervals.icu/api/v1".',
    );
    expect(() => client({ apiBase: "https://API_KEY:hunter2@intervals.icu/api/v1" })).toThrow(
      "INTERVALS_API_BASE must not carry a user name or password (before an @): the API key goes in INTERVALS_API_KEY.",
    );
    for (const local of ["http://127.0.0.1:8900/intervals/api/v1", "http://localhost:8900/api/v1", "http://[::1]:8900/api/v1/"]) {
      expect(client({ apiBase: local }).apiBase).toBe(local.replace(/\/$/, ""));
    }
    expect(client({ apiBase: "https://intervals.icu/api/v1/" }).apiBase).toBe("https://intervals.icu/api/v1");
  });

  it("refuses an empty key at construction", () => {
    expect(
      () =>
        new IntervalsClient({
          settings: { apiKey: " ", athleteId: "0", apiBase: intervalsApiBase },
          logger: logs.logger,
          http: createHttpSender(),
        }),
    ).toThrow("INTERVALS_API_KEY is empty: set it to the key shown under Settings > Developer Settings on intervals.icu.");
  });

  it("a refused key (403) is an error naming INTERVALS_API_KEY and what to check, sent once, never holding the key", async () => {
    // An upstream that echoes the request's credentials must not get them into the message.
    mock.intervals
      .intercept({ path: "/api/v1/athlete/0/activities?oldest=2026-11-01", method: "GET" })
      .reply(403, { status: 403, error: `Access denied for ${apiKey}` });
    const error = await failure(client().send({ method: "GET", path: "/athlete/0/activities", query: { oldest: "2026-11-01" } }));
    expect(error).toBeInstanceOf(UpstreamStatusError);
    expect((error as UpstreamStatusError).status).toBe(403);
    expect(error.message).toBe(
      "intervals.icu answered 403 Forbidden to GET /athlete/0/activities: Access denied for [the API key]. intervals.icu did not accept " +
        "the API key for this athlete. Check INTERVALS_API_KEY: it must be the key shown under Settings > Developer Settings on " +
        "intervals.icu (generating a new one there ends the old one). Check INTERVALS_ATHLETE_ID too: 0 for the key's own athlete, " +
        "or that athlete's id (it starts with i). Nothing was retried.",
    );
    expect(mock.requests()).toBe(1);
  });

  it("a missing or malformed key (401) says the same", async () => {
    mock.intervals.intercept({ path: "/api/v1/athlete/0", method: "GET" }).reply(401, { status: 401, error: "Unauthorized" });
    const error = await failure(client().send({ method: "GET", path: "/athlete/0" }));
    expect(error.message).toMatch(
      /^intervals\.icu answered 401 Unauthorized to GET \/athlete\/0: Unauthorized\. intervals\.icu did not accept the API key for this athlete\. Check INTERVALS_API_KEY/,
    );
    expect(mock.requests()).toBe(1);
  });

  it("a 429 is an error naming intervals.icu's limit, sent once", async () => {
    mock.intervals.intercept({ path: "/api/v1/athlete/0/wellness", method: "GET" }).reply(429, { status: 429, error: "Too Many Requests" });
    const error = await failure(client().send({ method: "GET", path: "/athlete/0/wellness" }));
    expect((error as UpstreamStatusError).status).toBe(429);
    expect(error.message).toBe(
      "intervals.icu answered 429 Too Many Requests to GET /athlete/0/wellness: Too Many Requests. intervals.icu's rate limit is " +
        "exceeded: it allows 10 requests a second from one address, with a short burst. This server keeps its own requests under " +
        "that, so another program using intervals.icu from this address is probably sending too. Wait a few seconds and try again; " +
        "this server does not retry.",
    );
    expect(mock.requests()).toBe(1);
  });

  it("a Strava-synced activity's 422 says why intervals.icu cannot give it and what the athlete can do", async () => {
    mock.intervals
      .intercept({ path: "/api/v1/activity/16358453283/streams", method: "GET" })
      .reply(422, { status: 422, error: "Cannot read Strava activities via the API" });
    const error = await failure(client().send({ method: "GET", path: "/activity/16358453283/streams" }));
    expect(error.message).toBe(
      "intervals.icu answered 422 Unprocessable Entity to GET /activity/16358453283/streams: Cannot read Strava activities via the API. " +
        "This activity reached intervals.icu from Strava, and Strava's rules keep intervals.icu from passing it on through its API " +
        "(its website still shows it). To have such activities here, connect the device or app that records them (Garmin, Wahoo, " +
        "COROS, Polar, Suunto, Zwift...) to intervals.icu directly.",
    );
  });

  it("an address intervals.icu does not serve names INTERVALS_API_BASE; a 5xx says it is intervals.icu's side; a tool adds its hint", async () => {
    mock.intervals
      .intercept({ path: "/api/v1/athlete/0/fitness", method: "GET" })
      .reply(404, { timestamp: "2026-11-21T22:37:12.000+00:00", status: 404, error: "Not Found", path: "/api/v1/athlete/0/fitness" });
    expect((await failure(client().send({ method: "GET", path: "/athlete/0/fitness" }))).message).toBe(
      "intervals.icu answered 404 Not Found to GET /athlete/0/fitness: Not Found. intervals.icu serves nothing at this address: " +
        "check INTERVALS_API_BASE (https://intervals.icu/api/v1).",
    );
    mock.intervals.intercept({ path: "/api/v1/activity/i9", method: "GET" }).reply(502, "<html><body>Bad gateway</body></html>");
    const hinted = client().send(
      { method: "GET", path: "/activity/i9" },
      { errorHint: (status) => (status === 502 ? "The hint." : undefined) },
    );
    expect((await failure(hinted)).message).toBe(
      "intervals.icu answered 502 Bad Gateway to GET /activity/i9: <html><body>Bad gateway</body></html>. This is a failure on " +
        "intervals.icu's side; try again in a moment. The hint.",
    );
  });

  it("a timeout and a network failure come through the shared exchange as named errors", async () => {
    mock.intervals.intercept({ path: "/api/v1/athlete/0", method: "GET" }).reply(200, "{}").delay(2_000);
    const slow = await failure(client({ timeoutMs: 100 }).send({ method: "GET", path: "/athlete/0" }));
    expect(slow).toBeInstanceOf(UpstreamTimeoutError);
    expect(slow.message).toBe(
      "intervals.icu did not answer GET /athlete/0 within 0.1 s (timeout). It may be slow or unreachable; try again shortly.",
    );
    mock.intervals
      .intercept({ path: "/api/v1/athlete/0", method: "GET" })
      .replyWithError(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }));
    const down = await failure(client().send({ method: "GET", path: "/athlete/0" }));
    expect(down).toBeInstanceOf(UpstreamNetworkError);
    expect(down.message).toBe(
      "Network failure on GET /athlete/0 to https://intervals.icu/api/v1: connection refused (ECONNREFUSED). Try again shortly.",
    );
    const controller = new AbortController();
    controller.abort();
    expect(await failure(client().send({ method: "GET", path: "/athlete/0" }, { signal: controller.signal }))).toBeInstanceOf(
      CallCancelledError,
    );
  });

  it("paces eleven calls so that the eleventh goes a second after the first (on the test's clock)", async () => {
    const clock = manualClock();
    const sentAt: number[] = [];
    const pacer = new RequestPacer({
      now: clock.now,
      sleep: (ms) => new Promise<void>((resolve) => setImmediate(() => (clock.advance(ms), resolve()))),
    });
    for (let i = 0; i < 11; i++)
      mock.intervals
        .intercept({ path: `/api/v1/activity/i${i}`, method: "GET" })
        .reply(() => (sentAt.push(clock.now() - testNow), { statusCode: 200, data: "{}" }));
    const c = client({ pacer });
    await Promise.all(Array.from({ length: 11 }, (_, i) => c.send({ method: "GET", path: `/activity/i${i}` })));
    expect(sentAt.sort((a, b) => a - b)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1000]);
  });

  it("never writes the key to its logs or errors", async () => {
    mock.intervals.intercept({ path: "/api/v1/athlete/0", method: "GET" }).reply(200, '{"timezone":"Europe/Berlin"}');
    mock.intervals.intercept({ path: "/api/v1/activity/i1", method: "GET" }).reply(403, apiKey);
    mock.intervals.intercept({ path: "/api/v1/activity/i2", method: "GET" }).replyWithError(new Error(`socket closed after ${apiKey}`));
    const c = client();
    const messages: string[] = [];
    await c.send({ method: "GET", path: "/athlete/0" });
    for (const path of ["/activity/i1", "/activity/i2"]) messages.push((await failure(c.send({ method: "GET", path }))).message);
    expect(logs.lines.length).toBeGreaterThan(0);
    for (const text of [...logs.lines, ...messages]) {
      expect(text).not.toContain(apiKey);
      expect(text).not.toContain(basic.slice(6));
    }
  });
});

describe("the athlete's time zone", () => {
  it("is read once per process from GET /athlete/{id}, shared by concurrent callers, and gives the athlete's local date", async () => {
    mock.intervals
      .intercept({ path: "/api/v1/athlete/i218734", method: "GET" })
      .reply(200, { id: "i218734", timezone: "Pacific/Auckland" });
    const zone = new AthleteTimeZone(client(), "i218734");
    // testNow is 22:37 UTC on the 21st: already the 22nd in Auckland.
    const [first, second] = await Promise.all([zone.today(testNow), zone.today(testNow)]);
    expect(first).toBe("2026-11-22");
    expect(second).toBe("2026-11-22");
    expect(await zone.zone()).toBe("Pacific/Auckland");
    expect(mock.requests()).toBe(1);
  });

  it("forgets a failed lookup so the next call tries again, and refuses a zone it does not know", async () => {
    mock.intervals.intercept({ path: "/api/v1/athlete/0", method: "GET" }).reply(503, { status: 503, error: "Service Unavailable" });
    mock.intervals.intercept({ path: "/api/v1/athlete/0", method: "GET" }).reply(200, { timezone: "Mars/Olympus_Mons" });
    mock.intervals.intercept({ path: "/api/v1/athlete/0", method: "GET" }).reply(200, { timezone: "America/Denver" });
    const zone = new AthleteTimeZone(client(), "0");
    await expect(zone.zone()).rejects.toThrow("intervals.icu answered 503 Service Unavailable to GET /athlete/0");
    await expect(zone.zone()).rejects.toThrow(
      "intervals.icu's athlete record (GET /athlete/0) has no time zone this server knows (\"Mars/Olympus_Mons\"), so the athlete's local dates cannot be worked out.",
    );
    expect(await zone.today(testNow)).toBe("2026-11-21");
    expect(mock.requests()).toBe(3);
  });
});
