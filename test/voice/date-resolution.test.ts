import { describe, expect, it } from "vitest";
import { readDuration } from "../../voice/event-duration.ts";
import { resolveDates } from "../../voice/date-resolution.ts";
import { instantFromWallClock, isValidTimeZone, offsetMinutesAt } from "../../common/time-zone.ts";
import { DATE_PHRASES } from "./date-phrases.ts";

describe("date resolution phrase suite", () => {
  it("covers at least 60 phrases, every mode, five zones and both DST directions", () => {
    expect(DATE_PHRASES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(DATE_PHRASES.map((c) => c.mode))).toEqual(new Set(["note", "reminder", "event", "research", "deepthink"]));
    expect(new Set(DATE_PHRASES.map((c) => c.timeZone)).size).toBeGreaterThanOrEqual(5);
  });

  it.each(DATE_PHRASES)("$mode in $timeZone at $reference: $phrase", (c) => {
    const resolved = resolveDates({ text: c.phrase, mode: c.mode, reference: new Date(c.reference), timeZone: c.timeZone });
    expect({ dueISO: resolved.dueISO, startISO: resolved.startISO, endISO: resolved.endISO }).toEqual(c.expected);
  });

  it("gives the same answer whatever zone the process runs in (chrono falls back to it)", () => {
    // Lambda runs in UTC; a laptop does not. Node applies a changed TZ at once, so try a few.
    const reference = new Date("2026-03-07T18:00:00Z");
    const saved = process.env.TZ;
    try {
      for (const processZone of ["UTC", "Asia/Tokyo", "America/New_York", "Pacific/Chatham"]) {
        process.env.TZ = processZone;
        const due = resolveDates({ text: "tomorrow at 9 AM", mode: "reminder", reference, timeZone: "America/Los_Angeles" }).dueISO;
        const event = resolveDates({ text: "Sunday 2 to 3pm", mode: "event", reference, timeZone: "Europe/Berlin" });
        expect({ processZone, due, start: event.startISO, end: event.endISO }).toEqual({
          processZone,
          due: "2026-03-08T16:00:00Z",
          start: "2026-03-08T13:00:00Z",
          end: "2026-03-08T14:00:00Z",
        });
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it("reports what the text gave, so the caller knows where the model may fill in", () => {
    const reference = new Date("2026-03-07T18:00:00Z");
    const durationOnly = resolveDates({ text: "Book club for 45 minutes", mode: "event", reference, timeZone: "UTC" });
    expect(durationOnly.startISO).toBeNull();
    expect(durationOnly.text).toEqual({ startMs: null, endMs: null, durationMs: 45 * 60_000 });
  });
});

describe("durations", () => {
  it.each([
    ["lunch for 45 minutes", 45],
    ["for an hour and a half", 90],
    ["for one and a half hours", 90],
    ["for 1.5 hours", 90],
    ["for 2 hours and 30 minutes", 150],
    ["for half an hour", 30],
    ["lasting about 20 mins", 20],
    ["for a couple of hours", 120],
    ["a 30-minute call", 30],
    ["a two-hour workshop", 120],
    ["an hour-long review", 60],
    ["for an hour", 60],
  ])("%s lasts %i minutes", (text, minutes) => {
    expect(readDuration(text).durationMs).toBe(minutes * 60_000);
  });

  it("blanks duration phrases so the date parser does not read them as dates", () => {
    const reading = readDuration("Lunch on Friday at noon for 45 minutes");
    expect(reading.textWithoutDurations.trimEnd()).toBe("Lunch on Friday at noon");
    expect(reading.textWithoutDurations).toHaveLength("Lunch on Friday at noon for 45 minutes".length);
  });

  it("does not take relative times or counts for durations", () => {
    expect(readDuration("in 45 minutes").durationMs).toBeNull();
    expect(readDuration("dinner for 2 people at 7").durationMs).toBeNull();
  });
});

describe("time zones", () => {
  it("knows IANA names and rejects others", () => {
    expect(isValidTimeZone("Europe/Berlin")).toBe(true);
    expect(isValidTimeZone("UTC")).toBe(true);
    expect(isValidTimeZone("Mars/Olympus_Mons")).toBe(false);
    expect(isValidTimeZone("")).toBe(false);
  });

  it("reads offsets on both sides of a change", () => {
    expect(offsetMinutesAt(Date.parse("2026-03-08T09:59:00Z"), "America/Los_Angeles")).toBe(-480);
    expect(offsetMinutesAt(Date.parse("2026-03-08T10:00:00Z"), "America/Los_Angeles")).toBe(-420);
    expect(offsetMinutesAt(Date.parse("2026-06-10T00:00:00Z"), "Asia/Kolkata")).toBe(330);
  });

  it("moves a skipped time forward and takes the first of a repeated time", () => {
    const skipped = instantFromWallClock({ year: 2026, month: 3, day: 8, hour: 2, minute: 30, second: 0 }, "America/Los_Angeles");
    expect(new Date(skipped).toISOString()).toBe("2026-03-08T10:30:00.000Z");
    const repeated = instantFromWallClock({ year: 2026, month: 11, day: 1, hour: 1, minute: 30, second: 0 }, "America/Los_Angeles");
    expect(new Date(repeated).toISOString()).toBe("2026-11-01T08:30:00.000Z");
  });
});
