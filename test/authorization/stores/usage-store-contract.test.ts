/**
 * The usage store's contract, checked the same way on both backends (local files, and DynamoDB on moto_server):
 * the fair-share count stops at the share and says which window is full; another athlete's share and the next
 * quarter hour are their own; deauthorization checks take one place per athlete and quarter hour, up to the day's
 * limit; forgetting an athlete starts their counts afresh.
 */
import { describe, expect, it } from "vitest";
import type { FairShare, UsageStore } from "../../../authorization/stores/usage-store.ts";
import { testDayAt } from "../../support/test-clock.ts";
import { signal, storeBackends } from "./store-backends.ts";

const share: FairShare = { overall: { fifteenMinute: 3, daily: 100 }, read: { fifteenMinute: 2, daily: 100 } };

describe.each(storeBackends("usage-store"))("the usage store on %s", (_name, { open }) => {
  const usage = async (now?: () => number): Promise<UsageStore> => (await open(now)).usage;

  it("counts requests up to the athlete's share and names the full window", async () => {
    // The store's clock and the counted requests' times are one clock, pinned to the suite's day.
    const t = testDayAt("10:01:00");
    const store = await usage(() => t);
    expect((await store.countUpstreamRequest("200", true, share, t, signal())).admitted).toBe(true);
    expect((await store.countUpstreamRequest("200", true, share, t, signal())).admitted).toBe(true);
    expect(await store.countUpstreamRequest("200", true, share, t, signal())).toEqual({
      admitted: false,
      window: "read 15-minute",
      used: 2,
      share: 2,
    });
    expect((await store.countUpstreamRequest("200", false, share, t, signal())).admitted).toBe(true);
    expect(await store.countUpstreamRequest("200", false, share, t, signal())).toEqual({
      admitted: false,
      window: "overall 15-minute",
      used: 3,
      share: 3,
    });
    // Another athlete's share is their own; the next quarter hour starts afresh.
    expect((await store.countUpstreamRequest("201", true, share, t, signal())).admitted).toBe(true);
    expect((await store.countUpstreamRequest("200", true, share, t + 15 * 60_000, signal())).admitted).toBe(true);
  });

  it("a deauthorization check takes the athlete's place in the quarter hour, up to the day's limit", async () => {
    const store = await usage();
    const t = testDayAt("08:00:00");
    const athlete = String(500 + Math.floor(Math.random() * 1000));
    expect(await store.claimDeauthorizationCheck(athlete, 2, t, signal())).toBe(true);
    expect(await (await usage()).claimDeauthorizationCheck(athlete, 2, t + 60_000, signal())).toBe(false);
    expect(await store.claimDeauthorizationCheck(`${athlete}9`, 2, t, signal())).toBe(true);
    expect(await store.claimDeauthorizationCheck(athlete, 2, t + 15 * 60_000, signal())).toBe(true);
    expect(await store.claimDeauthorizationCheck(athlete, 2, t + 30 * 60_000, signal())).toBe(false);
    expect(await store.claimDeauthorizationCheck(athlete, 2, t + 86_400_000, signal())).toBe(true);
  });

  it("forgetting an athlete starts their counts afresh, and nobody else's", async () => {
    const t = testDayAt("12:01:00");
    const store = await usage(() => t);
    for (const athlete of ["210", "211"]) {
      for (let n = 0; n < 2; n++) await store.countUpstreamRequest(athlete, true, share, t, signal());
      expect((await store.countUpstreamRequest(athlete, true, share, t, signal())).admitted).toBe(false);
    }
    await store.forgetAthlete("210", signal());
    expect((await store.countUpstreamRequest("210", true, share, t, signal())).admitted).toBe(true);
    expect((await store.countUpstreamRequest("211", true, share, t, signal())).admitted).toBe(false);
  });
});
