/** sandbox/server/request-counters.ts: what the sandbox counts, and copies that do not move with later requests. */
import { describe, expect, test } from "vitest";
import { RequestCounters } from "../../../sandbox/server/request-counters.ts";

describe("RequestCounters", () => {
  test("counts every request by route, token and API requests apart, and refused refresh tokens", () => {
    const counters = new RequestCounters();
    counters.count("POST /oauth/token", "token");
    counters.count("GET /activities/{id}", "api");
    counters.count("GET /activities/{id}", "api");
    counters.count("intervals.icu GET /athlete/{id}");
    counters.refreshTokenRejected();
    expect(counters.snapshot()).toEqual({
      requests: 4,
      tokenRequests: 1,
      refreshTokenRejections: 1,
      apiRequests: 2,
      byRoute: { "POST /oauth/token": 1, "GET /activities/{id}": 2, "intervals.icu GET /athlete/{id}": 1 },
    });
  });

  test("a snapshot is a copy, and reset starts from zero", () => {
    const counters = new RequestCounters();
    counters.count("GET /athlete", "api");
    const before = counters.snapshot();
    counters.count("GET /athlete", "api");
    expect(before.byRoute).toEqual({ "GET /athlete": 1 });
    counters.reset();
    expect(counters.snapshot()).toEqual({ requests: 0, tokenRequests: 0, refreshTokenRejections: 0, apiRequests: 0, byRoute: {} });
    expect(before.requests).toBe(1);
  });
});
