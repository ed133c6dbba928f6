/**
 * The athlete's local dates as the intervals.icu tools take them ("YYYY-MM-DD"): checked to exist, counted and
 * moved by whole days. Calendar arithmetic on the date alone (as UTC days), so no time zone or daylight-saving
 * change can shift a day; "today" itself comes from the time zone intervals.icu holds for the athlete.
 */
import { ToolInputError } from "../arguments/validate-arguments.ts";

const dayMs = 86_400_000;

/** Days since 1970-01-01 of a "YYYY-MM-DD" that exists; throws `ToolInputError` naming `parameter` otherwise. */
export function dayNumber(date: string, parameter: string): number {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day); // Date.UTC would read years 0 to 99 as 1900 to 1999
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) {
    throw new ToolInputError(`${parameter} must be a real date, YYYY-MM-DD; "${date}" has no such day.`);
  }
  return Math.round(at.getTime() / dayMs);
}

/** "YYYY-MM-DD" of a day number. */
export function dateOfDayNumber(day: number): string {
  return new Date(day * dayMs).toISOString().slice(0, 10);
}

/** The date `days` after `date` (before it when negative). */
export function addDays(date: string, days: number): string {
  return dateOfDayNumber(dayNumber(date, "date") + days);
}

/**
 * The window `oldest` to `newest`, both included, from what the caller gave: `newest` defaults to the athlete's
 * today, `oldest` to `defaultDays` days ending at `newest`. Refused when `oldest` is after `newest` or the window
 * is longer than `maxDays` (when given).
 */
export async function dateWindow(
  given: { oldest?: string | undefined; newest?: string | undefined },
  today: () => Promise<string>,
  options: { defaultDays: number; maxDays?: number },
): Promise<{ oldest: string; newest: string }> {
  const newest = given.newest ?? (await today());
  const last = dayNumber(newest, "newest");
  const first = given.oldest === undefined ? last - options.defaultDays + 1 : dayNumber(given.oldest, "oldest");
  if (first > last) {
    throw new ToolInputError(
      `oldest (${given.oldest}) must not be after newest (${newest}); both are the athlete's local dates, both included.`,
    );
  }
  const days = last - first + 1;
  if (options.maxDays !== undefined && days > options.maxDays) {
    throw new ToolInputError(
      `The dates span ${days} days (${dateOfDayNumber(first)} to ${newest}); at most ${options.maxDays} are answered at once: ask for a shorter span.`,
    );
  }
  return { oldest: dateOfDayNumber(first), newest };
}

/** A local date and time as intervals.icu takes it, "YYYY-MM-DDTHH:MM:SS", from one with or without seconds; checked to exist. */
export function localDateTime(value: string, parameter: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match)
    throw new ToolInputError(`${parameter} must be the athlete's local date and time, such as 2026-11-21T18:30:00; got "${value}".`);
  const [, date, hour, minute, second = "00"] = match as unknown as [string, string, string, string, string | undefined];
  dayNumber(date, parameter);
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) {
    throw new ToolInputError(`${parameter} must be a real time of day; "${value}" has none.`);
  }
  return `${date}T${hour}:${minute}:${second}`;
}
