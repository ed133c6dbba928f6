/**
 * Local calendar dates as day numbers (days since 1970-01-01 of that date, no zone attached), so that
 * windows, weeks and runs of days are integer arithmetic. An instant becomes a local date through
 * common/time-zone.ts; Strava's `start_date_local` already is one.
 */
import { isValidTimeZone, wallClockAt } from "../../common/time-zone.ts";

const dayMs = 86_400_000;

/** "2026-11-21" (or the date part of "2026-11-21T07:10:00Z") as a day number; undefined when it is no date. */
export function dayOfDate(text: unknown): number | undefined {
  if (typeof text !== "string") return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!match) return undefined;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isFinite(ms) ? Math.round(ms / dayMs) : undefined;
}

export function dateOfDay(day: number): string {
  return new Date(day * dayMs).toISOString().slice(0, 10);
}

/** The local date in `timeZone` at the instant. */
export function localDayAt(instantMs: number, timeZone: string): number {
  const wall = wallClockAt(instantMs, timeZone);
  return Math.round(Date.UTC(wall.year, wall.month - 1, wall.day) / dayMs);
}

/** The Monday of the week (Monday to Sunday) holding `day`. */
export function mondayOf(day: number): number {
  // Day 0 (1970-01-01) was a Thursday: three days after a Monday.
  return day - ((((day + 3) % 7) + 7) % 7);
}

/**
 * The IANA zone in Strava's `timezone` label ("(GMT-07:00) America/Denver"), or undefined when the label
 * holds none this runtime knows.
 */
export function zoneOfStravaLabel(label: unknown): string | undefined {
  if (typeof label !== "string") return undefined;
  const zone = /(?:^|\)\s*)([A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*)\s*$/.exec(label)?.[1];
  return zone !== undefined && isValidTimeZone(zone) ? zone : undefined;
}
