/**
 * When background reads should wait, from Strava's rate-limit headers: 80% or more of the 15-minute read
 * limit until the next quarter hour, of the daily one until midnight UTC; a reading whose window has reset
 * holds nothing. Instants come from the suite's clock.
 */
import { describe, expect, it } from "vitest";
import { readRateLimitHeaders, readsPausedUntil } from "../../strava/rate-limit.ts";
import { testDayAt } from "../support/test-clock.ts";

const headers = (read15: number, readDay: number) =>
  readRateLimitHeaders({
    "x-ratelimit-limit": "200,2000",
    "x-ratelimit-usage": "10,100",
    "x-readratelimit-limit": "100,1000",
    "x-readratelimit-usage": `${read15},${readDay}`,
  });

describe("readsPausedUntil", () => {
  const at = testDayAt("12:41:48");

  it("holds nothing below the share", () => {
    expect(readsPausedUntil(headers(79, 799), at, 0.8)).toBeUndefined();
    expect(readsPausedUntil({}, at, 0.8)).toBeUndefined();
  });

  it("holds until the quarter hour at 80% of the 15-minute read limit", () => {
    expect(readsPausedUntil(headers(80, 100), at, 0.8)).toBe(testDayAt("12:45:00"));
  });

  it("holds until midnight UTC at 80% of the daily read limit, whatever the 15-minute window says", () => {
    expect(readsPausedUntil(headers(5, 800), at, 0.8)).toBe(testDayAt("00:00:00") + 86_400_000);
    expect(readsPausedUntil(headers(95, 950), at, 0.8)).toBe(testDayAt("00:00:00") + 86_400_000);
  });
});
