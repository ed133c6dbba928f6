/**
 * sandbox/server/intervals-request.ts in this process: the intervals.icu face's requests are counted by route and
 * open to the injected faults (a status or an inactive application as intervals.icu's error body, an intermediary's
 * page, a cut answer), with none of Strava's rate-limit headers.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startSandbox, type RunningSandbox } from "../../../sandbox/server.ts";
import { isIntervalsPath } from "../../../sandbox/server/intervals-request.ts";
import { basicAuthorization } from "../intervals-client.ts";

let sandbox: RunningSandbox;
const athlete = (): Promise<Response> =>
  fetch(`${sandbox.intervalsApiBase}/athlete/0`, { headers: { Authorization: basicAuthorization(sandbox.intervalsApiKey) } });

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

describe("the intervals.icu face's requests", () => {
  test("its paths are the prefix and below it, nothing that only starts alike", () => {
    expect(isIntervalsPath("/intervals")).toBe(true);
    expect(isIntervalsPath("/intervals/api/v1/athlete/0")).toBe(true);
    expect(isIntervalsPath("/intervalsx")).toBe(false);
    expect(isIntervalsPath("/api/v3/athlete")).toBe(false);
  });

  test("are counted by route, without Strava's rate-limit headers", async () => {
    sandbox.resetCounters();
    const answer = await athlete();
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-ratelimit-usage")).toBeNull();
    expect(sandbox.counters()).toMatchObject({ requests: 1, apiRequests: 0, byRoute: { "intervals.icu GET /athlete/{id}": 1 } });
  });

  test("a status fault and an inactive application answer in intervals.icu's error body", async () => {
    sandbox.injectFault({ kind: "status", status: 502, match: "GET /api/v1/athlete/0" });
    const failed = await athlete();
    expect(failed.status).toBe(502);
    expect(await failed.json()).toMatchObject({ status: 502, error: "Bad Gateway" });
    sandbox.injectFault({ kind: "application-inactive", match: "/intervals/api/v1/athlete" });
    const inactive = await athlete();
    expect(inactive.status).toBe(403);
    expect(await inactive.json()).toMatchObject({ status: 403, error: "Forbidden" });
    expect((await athlete()).status).toBe(200);
  });

  test("a non-json fault is an intermediary's page; a truncate fault cuts the real answer", async () => {
    sandbox.injectFault({ kind: "non-json", status: 504, match: "GET /api/v1/athlete/0" });
    const page = await athlete();
    expect(page.status).toBe(504);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    sandbox.injectFault({ kind: "truncate", match: "GET /api/v1/athlete/0" });
    await expect(athlete().then((answer) => answer.text())).rejects.toThrow();
  });
});
