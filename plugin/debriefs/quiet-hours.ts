/**
 * Quiet hours: a daily span of wall-clock time in the athlete's zone ("22:00-07:00", which wraps past
 * midnight) during which the debriefs make no check, so nothing is noticed and no one is woken; the first
 * check after them finds what arrived meanwhile. Wall-clock arithmetic is common/time-zone.ts's (DST-safe).
 */
import { addCalendarDays, instantFromWallClock, wallClockAt } from "../../common/time-zone.ts";

export interface QuietHours {
  /** Minutes after local midnight: quiet from `start` (included) to `end` (excluded). */
  start: number;
  end: number;
  /** As configured ("22:00-07:00"), for messages. */
  text: string;
}

/** The setting read ("off" is none); the plugin's config check has already refused any other shape. */
export function parseQuietHours(setting: string): QuietHours | undefined {
  const match = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/.exec(setting);
  if (!match) return undefined;
  const [, h1, m1, h2, m2] = match.map(Number) as [number, number, number, number, number];
  return { start: h1 * 60 + m1, end: h2 * 60 + m2, text: setting };
}

function minuteOfDay(instantMs: number, timeZone: string): number {
  const wall = wallClockAt(instantMs, timeZone);
  return wall.hour * 60 + wall.minute;
}

export function isQuiet(quiet: QuietHours | undefined, instantMs: number, timeZone: string): boolean {
  if (!quiet) return false;
  const minute = minuteOfDay(instantMs, timeZone);
  return quiet.start < quiet.end ? minute >= quiet.start && minute < quiet.end : minute >= quiet.start || minute < quiet.end;
}

/** The first instant after `instantMs` (which is quiet) at which the quiet hours are over. */
export function quietEndsAt(quiet: QuietHours, instantMs: number, timeZone: string): number {
  const wall = wallClockAt(instantMs, timeZone);
  const endToday = { ...wall, hour: Math.floor(quiet.end / 60), minute: quiet.end % 60, second: 0 };
  const today = instantFromWallClock(endToday, timeZone);
  return today > instantMs ? today : instantFromWallClock(addCalendarDays(endToday, 1), timeZone);
}
