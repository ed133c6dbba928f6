/**
 * Quiet hours in the athlete's zone: a span that wraps past midnight, one that does not, and their end
 * across the nights the clocks change (America/Denver, 2027: forward on 14 March, back on 7 November).
 */
import { describe, expect, it } from "vitest";
import { isQuiet, parseQuietHours, quietEndsAt } from "../../../plugin/debriefs/quiet-hours.ts";
import { instantFromWallClock } from "../../../common/time-zone.ts";

const zone = "America/Denver";
const at = (year: number, month: number, day: number, hour: number, minute = 0): number =>
  instantFromWallClock({ year, month, day, hour, minute, second: 0 }, zone);

describe("quiet hours", () => {
  const night = parseQuietHours("22:00-07:00");

  it('reads "off" as none and HH:MM-HH:MM as a span', () => {
    expect(parseQuietHours("off")).toBeUndefined();
    expect(night).toEqual({ start: 22 * 60, end: 7 * 60, text: "22:00-07:00" });
    expect(isQuiet(undefined, at(2027, 1, 10, 3), zone)).toBe(false);
  });

  it("wraps past midnight: quiet from 22:00 (included) to 07:00 (excluded)", () => {
    expect(isQuiet(night, at(2027, 1, 10, 21, 59), zone)).toBe(false);
    expect(isQuiet(night, at(2027, 1, 10, 22, 0), zone)).toBe(true);
    expect(isQuiet(night, at(2027, 1, 11, 3, 30), zone)).toBe(true);
    expect(isQuiet(night, at(2027, 1, 11, 7, 0), zone)).toBe(false);
  });

  it("a span within a day", () => {
    const lunch = parseQuietHours("12:00-13:30");
    expect(isQuiet(lunch, at(2027, 1, 10, 11, 59), zone)).toBe(false);
    expect(isQuiet(lunch, at(2027, 1, 10, 13, 29), zone)).toBe(true);
    expect(isQuiet(lunch, at(2027, 1, 10, 13, 30), zone)).toBe(false);
  });

  it("ends at the end's wall time: the same morning, or the next one", () => {
    expect(quietEndsAt(night!, at(2027, 1, 10, 23, 0), zone)).toBe(at(2027, 1, 11, 7));
    expect(quietEndsAt(night!, at(2027, 1, 11, 2, 0), zone)).toBe(at(2027, 1, 11, 7));
  });

  it("ends at 07:00 local on the nights the clocks change", () => {
    // Spring forward: the night is an hour shorter; autumn back: an hour longer. 07:00 is 07:00.
    expect(quietEndsAt(night!, at(2027, 3, 13, 23), zone) - at(2027, 3, 13, 23)).toBe(7 * 3_600_000);
    expect(quietEndsAt(night!, at(2027, 11, 6, 23), zone) - at(2027, 11, 6, 23)).toBe(9 * 3_600_000);
    expect(new Date(quietEndsAt(night!, at(2027, 3, 13, 23), zone)).toISOString()).toBe("2027-03-14T13:00:00.000Z");
  });
});
