/**
 * Wall-clock arithmetic in IANA time zones, built on Intl (Node ships full ICU and no Temporal yet): check a
 * zone name, read the wall clock of an instant in a zone, and turn a wall-clock time back into an instant
 * correctly across DST. The voice API's date resolver and the sandbox's athlete calendar both use it, so a
 * date means the same thing in both.
 */

/** A wall-clock reading: calendar date and time of day, no zone attached. `month` is 1-12. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

// Building a DateTimeFormat costs far more than using one, and a process sees few zones.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** True when `name` is an IANA zone name this runtime knows (e.g. "Europe/Berlin", "UTC"). */
export function isValidTimeZone(name: string): boolean {
  if (name.trim() === "") return false;
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock shown in `timeZone` at `instantMs`. */
export function wallClockAt(instantMs: number, timeZone: string): WallClock {
  const parts = formatterFor(timeZone).formatToParts(new Date(instantMs));
  const read = (type: Intl.DateTimeFormatPartTypes): number => {
    const part = parts.find((p) => p.type === type);
    if (!part) throw new Error(`Intl gave no ${type} for time zone ${timeZone}`);
    return Number(part.value);
  };
  return {
    year: read("year"),
    month: read("month"),
    day: read("day"),
    hour: read("hour"),
    minute: read("minute"),
    second: read("second"),
  };
}

/** Milliseconds since the epoch if `wall` were a UTC reading; the basis of offset arithmetic. */
export function wallClockAsUtcMs(wall: WallClock): number {
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
}

/** The zone's offset from UTC at `instantMs`, in minutes (east positive: Berlin winter = 60, LA winter = -480). */
export function offsetMinutesAt(instantMs: number, timeZone: string): number {
  const wholeSecond = Math.floor(instantMs / 1000) * 1000;
  return Math.round((wallClockAsUtcMs(wallClockAt(wholeSecond, timeZone)) - wholeSecond) / MINUTE_MS);
}

function sameWallClock(a: WallClock, b: WallClock): boolean {
  return wallClockAsUtcMs(a) === wallClockAsUtcMs(b);
}

/**
 * The instant at which `timeZone` shows `wall`. DST is handled the way calendars (and Temporal's
 * "compatible" disambiguation) do: a time that occurs twice when clocks go back resolves to the first
 * occurrence; a time skipped when clocks go forward moves forward by the size of the gap (02:30 on a
 * spring-forward night becomes 03:30).
 */
export function instantFromWallClock(wall: WallClock, timeZone: string): number {
  const asUtc = wallClockAsUtcMs(wall);
  // Offsets in force a day either side bracket any transition near this wall time (no zone changes twice a day).
  const offsetBefore = offsetMinutesAt(asUtc - DAY_MS, timeZone);
  const offsetAfter = offsetMinutesAt(asUtc + DAY_MS, timeZone);
  const candidates = [...new Set([offsetBefore, offsetAfter])]
    .map((offset) => asUtc - offset * MINUTE_MS)
    .filter((instant) => sameWallClock(wallClockAt(instant, timeZone), wall))
    .sort((a, b) => a - b);
  const earliest = candidates[0];
  if (earliest !== undefined) return earliest;
  // In a spring-forward gap: read the wall time with the offset from before the change, which lands the
  // same distance past the gap.
  return asUtc - offsetBefore * MINUTE_MS;
}

/** `wall` moved by whole calendar days (month and year roll over as needed); the time of day is kept. */
export function addCalendarDays(wall: WallClock, days: number): WallClock {
  const moved = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + days));
  return { ...wall, year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

/** The reading of a fixed-offset clock (`offsetMinutes` east of UTC) at `instantMs`. */
export function wallClockAtOffset(instantMs: number, offsetMinutes: number): WallClock {
  const shifted = new Date(instantMs + offsetMinutes * MINUTE_MS);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
  };
}

/** An instant as ISO 8601 in UTC with a `Z`, whole seconds ("2026-11-21T18:30:05Z"), as Strava and the voice API write them. */
export function toIsoUtc(instantMs: number): string {
  return new Date(instantMs).toISOString().replace(/\.\d{3}Z$/, "Z");
}
