/**
 * The intervals.icu client against the sandbox's intervals.icu face, over real HTTP: paced under the face's
 * per-address limit (which answers 429 to a client that is not), a wrong key refused once with a message naming
 * INTERVALS_API_KEY, the athlete's time zone, injected timeouts and resets, and no key in any log line or error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { createHttpSender } from "../../common/upstream/http-exchange.ts";
import { UpstreamNetworkError, UpstreamStatusError, UpstreamTimeoutError } from "../../common/upstream/upstream-errors.ts";
import { IntervalsClient } from "../../intervals/intervals-client.ts";
import { RequestPacer } from "../../intervals/request-pacer.ts";
import { AthleteTimeZone } from "../../intervals/athlete-time-zone.ts";
import { capturingLogger } from "../support/core-harness.ts";
import { manualClock, testNow } from "../support/test-clock.ts";

let sandbox: RunningSandbox;
const logs = capturingLogger();
const messages: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ clock: manualClock(testNow).now });
});
afterAll(() => sandbox.close());

function client(options: { apiKey?: string; timeoutMs?: number; pacer?: RequestPacer } = {}): IntervalsClient {
  return new IntervalsClient({
    settings: {
      apiKey: options.apiKey ?? sandbox.intervalsApiKey,
      athleteId: "0",
      apiBase: sandbox.intervalsApiBase,
      timeoutMs: options.timeoutMs,
    },
    logger: logs.logger,
    http: createHttpSender(),
    pacer: options.pacer,
  });
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    messages.push((error as Error).message);
    return error as Error;
  }
  throw new Error("expected the call to fail");
}

describe("the intervals.icu client on the sandbox", () => {
  it("paces a burst: 25 calls at once all answered, none refused, the last no sooner than two seconds in", async () => {
    const c = client();
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 25 }, () => c.send({ method: "GET", path: "/athlete/0/wellness/2026-11-20" })));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    // Ten at once, ten a second later, five a second after that.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_900);
  });

  it("without pacing, the same face refuses a burst with intervals.icu's 429, named as its limit", async () => {
    const unpaced = client({ pacer: new RequestPacer({ maxPerWindow: 1_000 }) });
    const outcomes = await Promise.allSettled(Array.from({ length: 40 }, () => unpaced.send({ method: "GET", path: "/athlete/0" })));
    const refused = outcomes
      .filter((outcome) => outcome.status === "rejected")
      .map((outcome) => (outcome as PromiseRejectedResult).reason as Error);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]).toBeInstanceOf(UpstreamStatusError);
    expect(refused[0]!.message).toContain("intervals.icu's rate limit is exceeded: it allows 10 requests a second from one address");
    messages.push(...refused.map((error) => error.message));
    await new Promise((resolve) => setTimeout(resolve, 2_100));
  });

  it("a wrong key: one request, refused, the error naming INTERVALS_API_KEY", async () => {
    sandbox.resetCounters();
    const wrongKey = "wrongwrongwrongwrongwrong";
    const error = await failure(
      client({ apiKey: wrongKey }).send({ method: "GET", path: "/athlete/0/activities", query: { oldest: "2026-11-01" } }),
    );
    expect(error.message).toBe(
      "intervals.icu answered 403 Forbidden to GET /athlete/0/activities: Access denied. intervals.icu did not accept the API key " +
        "for this athlete. Check INTERVALS_API_KEY: it must be the key shown under Settings > Developer Settings on intervals.icu " +
        "(generating a new one there ends the old one). Check INTERVALS_ATHLETE_ID too: 0 for the key's own athlete, or that " +
        "athlete's id (it starts with i). Nothing was retried.",
    );
    expect(sandbox.counters().requests).toBe(1);
    expect(error.message).not.toContain(wrongKey);
  });

  it("reads the athlete's time zone once and gives her local date", async () => {
    sandbox.resetCounters();
    const zone = new AthleteTimeZone(client(), "0");
    expect(await zone.today(testNow)).toBe("2026-11-21");
    expect(await zone.today(testNow + 9 * 3_600_000)).toBe("2026-11-22");
    expect(await zone.zone()).toBe("America/Denver");
    expect(sandbox.counters().byRoute).toEqual({ "intervals.icu GET /athlete/{id}": 1 });
  });

  it("a slow answer is a timeout and a reset connection a network failure, through the shared exchange", async () => {
    sandbox.injectFault({ kind: "delay", delayMs: 1_500, match: "GET /intervals/api/v1/athlete/0" });
    const slow = await failure(client({ timeoutMs: 200 }).send({ method: "GET", path: "/athlete/0" }));
    expect(slow).toBeInstanceOf(UpstreamTimeoutError);
    sandbox.injectFault({ kind: "reset", match: "GET /intervals/api/v1/athlete/0" });
    const reset = await failure(client().send({ method: "GET", path: "/athlete/0" }));
    expect(reset).toBeInstanceOf(UpstreamNetworkError);
    expect(reset.message).toMatch(/^Network failure on GET \/athlete\/0 to http:\/\/127\.0\.0\.1:\d+\/intervals\/api\/v1: /);
  });

  it("wrote the key into no log line and no error of this run", () => {
    expect(logs.lines.length).toBeGreaterThan(20);
    expect(messages.length).toBeGreaterThan(3);
    const basic = Buffer.from(`API_KEY:${sandbox.intervalsApiKey}`).toString("base64");
    for (const text of [...logs.lines, ...messages]) {
      expect(text).not.toContain(sandbox.intervalsApiKey);
      expect(text).not.toContain(basic);
    }
  });
});
