/**
 * Deterministic resolution of the dates and times spoken in a capture, in the reference time zone.
 *
 * chrono-node finds the phrases, but it ignores IANA zone names and applies the reference instant's UTC
 * offset to every date, which is an hour off on the far side of a DST change. So chrono is given only the
 * offset in force at the reference instant, and the wall-clock reading it returns (date, hour, minute) is
 * turned back into an instant in the real zone by common/time-zone.ts. Exact offsets ("in 2 hours") and
 * times with an explicit zone ("3pm EST") stay absolute instants. Durations are read separately
 * (voice/event-duration.ts) because chrono takes "for 45 minutes" as a date.
 *
 * The resolver prefers to abstain rather than guess: when the text names several unrelated times, a holiday,
 * or a phrase chrono garbles, it reads nothing and the model's (checked) timestamps are used instead.
 * Phrasings chrono misreads are rewritten first (voice/date-phrase-rewrites.ts).
 */
import * as chrono from "chrono-node";
import type { ParsedComponents, ParsedResult } from "chrono-node";
import { namesUnreadableDate, rewriteForParser } from "./date-phrase-rewrites.ts";
import { readDuration } from "./event-duration.ts";
import type { CaptureMode } from "./capture-request.ts";
import {
  addCalendarDays,
  instantFromWallClock,
  offsetMinutesAt,
  toIsoUtc,
  wallClockAt,
  wallClockAtOffset,
  type WallClock,
} from "../common/time-zone.ts";

/** What the text says about time, as instants (ms since the epoch). */
export interface TextTimes {
  /** Start (events) or due time (reminders); null when the text gives nothing the resolver can read. */
  startMs: number | null;
  /** End of a spoken range ("2 to 3pm"); null when the text gives no end time. */
  endMs: number | null;
  /** A spoken length ("for 45 minutes"); null when the text names none. */
  durationMs: number | null;
}

/** Resolved timestamps for one capture, and which of them came from the text. */
export interface DateResolution {
  dueISO: string | null;
  startISO: string | null;
  endISO: string | null;
  /** The raw reading, so the caller knows what the text did and did not give. */
  text: TextTimes;
}

export interface DateResolutionRequest {
  text: string;
  mode: CaptureMode;
  /** The instant the capture was made ("now"). */
  reference: Date;
  /** IANA zone the speaker lives in. */
  timeZone: string;
}

/** An event with a start but no spoken end or length lasts this long. */
export const defaultEventDurationMs = 60 * 60_000;

/** A date with no time of day ("tomorrow", "on Friday") means this time, local. */
export const defaultTimeOfDay = { hour: 9, minute: 0 } as const;

// Parts of the day, in local time. chrono's own choices (06:00 morning, 22:00 tonight) suit a parser, not a
// reminder list: nobody wants "tomorrow morning" at six.
const dayPartTimes: ReadonlyArray<{ tag: string; hour: number; minute: number }> = [
  { tag: "casualReference/morning", hour: 9, minute: 0 },
  { tag: "casualReference/afternoon", hour: 15, minute: 0 },
  { tag: "casualReference/evening", hour: 19, minute: 0 },
  { tag: "casualReference/tonight", hour: 20, minute: 0 },
];

/** Resolves the due/start/end timestamps that `mode` needs from the text alone. */
export function resolveDates(request: DateResolutionRequest): DateResolution {
  const none: DateResolution = {
    dueISO: null,
    startISO: null,
    endISO: null,
    text: { startMs: null, endMs: null, durationMs: null },
  };
  if (request.mode !== "reminder" && request.mode !== "event") return none;
  const text = readTextTimes(request.text, request.reference, request.timeZone);
  if (request.mode === "reminder") {
    return { ...none, dueISO: text.startMs === null ? null : toIsoUtc(text.startMs), text };
  }
  if (text.startMs === null) return { ...none, text };
  const endMs = text.endMs ?? text.startMs + (text.durationMs ?? defaultEventDurationMs);
  return { ...none, startISO: toIsoUtc(text.startMs), endISO: toIsoUtc(endMs), text };
}

/** Reads the start, end and length the text gives, resolved in `timeZone` relative to `reference`. */
export function readTextTimes(input: string, reference: Date, timeZone: string): TextTimes {
  const { durationMs, textWithoutDurations } = readDuration(input);
  const referenceMs = reference.getTime();
  const text = rewriteForParser(textWithoutDurations, referenceMs, timeZone);
  const offset = offsetMinutesAt(referenceMs, timeZone);
  const results = chrono.casual
    .parse(text, { instant: reference, timezone: offset }, { forwardDate: true })
    .filter((result) => !isBareUnit(result));
  if (results.some(lostNamedDay)) return { startMs: null, endMs: null, durationMs };
  const pick = namesUnreadableDate(text) ? null : pickReading(results, mealHint(text));
  if (!pick) return { startMs: null, endMs: null, durationMs };
  const context: ReadContext = { referenceMs, timeZone, offset };
  const start = readStart(pick, context);
  const endComponents = pick.time.end;
  const endMs = endComponents ? readEnd(endComponents, start, context) : null;
  return { startMs: start, endMs, durationMs };
}

interface ReadContext {
  referenceMs: number;
  timeZone: string;
  /** The zone's UTC offset at the reference instant, in minutes; what chrono was told. */
  offset: number;
}

// chrono reads "the day" (as in "end of the day") as one day from now; a unit with no number is never a date.
function isBareUnit(result: ParsedResult): boolean {
  return /^(?:the\s+)?(?:day|week|month|year)s?$/i.test(result.text.trim());
}

const weekdayName = /\b(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\b/i;

// chrono sometimes merges a day part with a later phrase and drops the weekday on the way ("movie night
// Saturday at 9" comes back as tonight at 9). A result that names a weekday it did not keep is not trusted.
function lostNamedDay(result: ParsedResult): boolean {
  const c = result.start;
  return weekdayName.test(result.text) && !c.isCertain("weekday") && !c.isCertain("day");
}

function hasDate(c: ParsedComponents): boolean {
  return c.isCertain("day") || c.isCertain("weekday") || c.isCertain("month") || c.tags().has("result/relativeDate");
}

function hasTime(c: ParsedComponents): boolean {
  return c.isCertain("hour") || dayPartTimes.some(({ tag }) => c.tags().has(tag));
}

/** A day part said on its own, as a noun ("Night shift", "Evening walk"): no hour, no date. */
function isBareDayPart(result: ParsedResult): boolean {
  return !result.start.isCertain("hour") && !hasDate(result.start) && dayPartTimes.some(({ tag }) => result.start.tags().has(tag));
}

interface Reading {
  date: ParsedComponents;
  time: ParsedResult;
  /** am/pm suggested by a day part said apart from the time ("Evening call at 7"). */
  meridiemHint: "am" | "pm" | null;
}

/**
 * One reading of the text: usually a single chrono result; or a date-only phrase plus a time-only phrase
 * ("tomorrow I have to call Sam at 9am"), which belong together. A day part used as a noun next to a clock
 * time ("Night shift from 11pm") only hints at am/pm. Anything else with several results is ambiguous, and
 * the resolver reads nothing.
 */
function pickReading(all: ParsedResult[], contextHint: Reading["meridiemHint"]): Reading | null {
  let results = all;
  let meridiemHint = contextHint;
  if (results.some((r) => r.start.isCertain("hour"))) {
    const dayParts = results.filter(isBareDayPart);
    if (dayParts.length === 1) {
      meridiemHint = dayParts[0]?.start.tags().has("casualReference/morning") ? "am" : "pm";
    }
    results = results.filter((r) => !isBareDayPart(r));
  }
  const [first, second, ...rest] = results;
  if (!first) return null;
  if (!second) return { date: first.start, time: first, meridiemHint };
  if (rest.length > 0) return null;
  for (const [datePart, timePart] of [
    [first, second],
    [second, first],
  ] as const) {
    if (hasDate(datePart.start) && !hasTime(datePart.start) && hasTime(timePart.start) && !hasDate(timePart.start) && !datePart.end) {
      return { date: datePart.start, time: timePart, meridiemHint };
    }
  }
  return null;
}

// chrono's components are a reading of a fixed-offset clock. When it has used another offset for a relative
// date (it does for "the day after tomorrow"), read the same instant on the clock it was given.
function dateOf(c: ParsedComponents, context: ReadContext): { year: number; month: number; day: number } {
  const offset = c.get("timezoneOffset");
  if (offset !== null && offset !== context.offset && !c.isCertain("timezoneOffset")) {
    const wall = wallClockAtOffset(c.date().getTime(), context.offset);
    return { year: wall.year, month: wall.month, day: wall.day };
  }
  return { year: c.get("year") ?? 0, month: c.get("month") ?? 1, day: c.get("day") ?? 1 };
}

// An hour with no am/pm: a day part said elsewhere decides ("Evening call at 7"); otherwise 1 to 6 means the
// afternoon ("call her at 3"), since nobody books 3 a.m. by voice. A leading zero ("at 03:30") is a 24-hour
// time and is left alone.
function hourOf(c: ParsedComponents, phrase: string, meridiemHint: Reading["meridiemHint"]): number {
  const hour = c.get("hour") ?? 0;
  if (c.isCertain("meridiem") || hour < 1 || hour > 11 || /\b0\d:\d\d/.test(phrase)) return hour;
  if (meridiemHint) return meridiemHint === "pm" ? hour + 12 : hour;
  return hour <= 6 ? hour + 12 : hour;
}

function timeOfDay(reading: Reading, context: ReadContext): { hour: number; minute: number } {
  const c = reading.time.start;
  if (c.isCertain("hour")) return { hour: hourOf(c, reading.time.text, reading.meridiemHint), minute: c.get("minute") ?? 0 };
  const dayPart = dayPartTimes.find(({ tag }) => c.tags().has(tag));
  if (dayPart) return { hour: dayPart.hour, minute: dayPart.minute };
  // "in 3 days", "next week": the same time of day as now.
  if (c.tags().has("result/relativeDate")) {
    const now = wallClockAt(context.referenceMs, context.timeZone);
    return { hour: now.hour, minute: now.minute };
  }
  return defaultTimeOfDay;
}

function readStart(reading: Reading, context: ReadContext): number {
  const { date: datePart, time: timePart } = reading;
  const time = timePart.start;
  // Exact offsets from now ("in 2 hours") and times in a named zone ("3pm EST") are instants already.
  if (time.tags().has("result/relativeDateAndTime") || time.isCertain("timezoneOffset")) return time.date().getTime();

  const { hour, minute } = timeOfDay(reading, context);
  if (!hasDate(datePart)) {
    // A time with no date is its next occurrence: today if still ahead, otherwise tomorrow.
    const today = wallClockAt(context.referenceMs, context.timeZone);
    const wall: WallClock = { ...today, hour, minute, second: 0 };
    const instant = instantFromWallClock(wall, context.timeZone);
    return instant > context.referenceMs ? instant : instantFromWallClock(addCalendarDays(wall, 1), context.timeZone);
  }
  const wall: WallClock = { ...dateOf(datePart, context), hour, minute, second: 0 };
  const instant = instantFromWallClock(wall, context.timeZone);
  // A bare weekday already past today ("Monday at 10am" said on Monday at 11) means next week's.
  if (instant < context.referenceMs && datePart.isCertain("weekday") && !datePart.isCertain("day")) {
    return instantFromWallClock(addCalendarDays(wall, 7), context.timeZone);
  }
  return instant;
}

function readEnd(end: ParsedComponents, startMs: number, context: ReadContext): number | null {
  if (!end.isCertain("hour")) return null;
  if (end.isCertain("timezoneOffset")) return end.date().getTime();
  const start = wallClockAt(startMs, context.timeZone);
  let hour = end.get("hour") ?? 0;
  // "9 to 5", "11 to 1": an end hour with no am/pm that would fall before the start is the afternoon one.
  if (!end.isCertain("meridiem") && hour >= 1 && hour < 12 && hour <= start.hour && hour + 12 > start.hour) hour += 12;
  const endDate = end.isCertain("day") ? dateOf(end, context) : start;
  const wall: WallClock = { year: endDate.year, month: endDate.month, day: endDate.day, hour, minute: end.get("minute") ?? 0, second: 0 };
  let instant = instantFromWallClock(wall, context.timeZone);
  // "11pm to 1am": an end at or before the start is on the next day.
  if (instant <= startMs) instant = instantFromWallClock(addCalendarDays(wall, 1), context.timeZone);
  return instant;
}

// What the event is says whether "at 7" is morning or evening.
function mealHint(text: string): Reading["meridiemHint"] {
  if (/\b(?:dinner|supper|drinks|cocktails|party|concert|date night)\b/i.test(text)) return "pm";
  if (/\bbreakfast\b/i.test(text)) return "am";
  return null;
}
