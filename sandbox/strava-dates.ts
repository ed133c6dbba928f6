/**
 * The date fields Strava writes for the athlete's zone: the UTC offset in seconds at an instant (it changes
 * across daylight-saving transitions), `start_date_local` (local wall time with a misleading "Z") and the zone
 * label, plus the local midnight the seed calendar is built on. The zone arithmetic is common/time-zone.ts,
 * the same the voice API resolves dates with.
 */
import { addCalendarDays, instantFromWallClock, offsetMinutesAt, toIsoUtc, wallClockAt } from "../common/time-zone.ts";

/** Strava's `utc_offset`: seconds east of UTC at the instant (-25200 for UTC-7). */
export function utcOffsetSeconds(epochMs: number, zone: string): number {
  return offsetMinutesAt(epochMs, zone) * 60;
}

/** Start of the local calendar day that contains the instant, `daysBack` days earlier. */
export function localMidnight(epochMs: number, zone: string, daysBack = 0): number {
  const day = addCalendarDays(wallClockAt(epochMs, zone), -daysBack);
  return instantFromWallClock({ ...day, hour: 0, minute: 0, second: 0 }, zone);
}

/** Strava's start_date_local: local wall time, written with a "Z" that does not mean UTC. */
export function isoLocalWithZ(epochMs: number, offsetSeconds: number): string {
  return toIsoUtc(epochMs + offsetSeconds * 1000);
}

/** "(GMT-07:00) America/Denver": Strava labels zones with their standard (winter) offset. */
export function stravaTimezoneLabel(zone: string, referenceMs: number): string {
  const year = new Date(referenceMs).getUTCFullYear();
  const standard = Math.min(offsetMinutesAt(Date.UTC(year, 0, 15), zone), offsetMinutesAt(Date.UTC(year, 6, 15), zone));
  const sign = standard < 0 ? "-" : "+";
  const hh = String(Math.floor(Math.abs(standard) / 60)).padStart(2, "0");
  const mm = String(Math.abs(standard) % 60).padStart(2, "0");
  return `(GMT${sign}${hh}:${mm}) ${zone}`;
}
