/**
 * The `oldest` and `newest` parameters: "Local ISO-8601 date or date and time e.g. 2019-07-22T16:18:49 or
 * 2019-07-22" (intervals.icu's API description). A bare date reads as the start of that day, for `newest` too, so
 * `newest=2026-11-21` leaves out that day's activities after midnight: that is what intervals.icu's API did when
 * its users asked (its forum's API thread, September 2021), and why a client sends `newest` as the end of its day
 * (T23:59:59). Values are compared as local wall-clock text, which orders as time does.
 */
export type LocalDateTime = string;

/** "2026-11-21T00:00:00" from "2026-11-21", the value itself for a date and time, undefined when it is neither. */
export function localDateTimeParam(value: string): LocalDateTime | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?$/.exec(value);
  if (!match) return undefined;
  const [, year, month, day, hour = "00", minute = "00", second = "00"] = match;
  const check = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (check.getUTCDate() !== Number(day) || check.getUTCMonth() !== Number(month) - 1) return undefined;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  return `${year}-${month}-${day}T${hour}:${minute}:${second}`;
}

/** The date part of a local date or date and time ("2026-11-21"), undefined when it is neither. */
export function localDateParam(value: string): string | undefined {
  return localDateTimeParam(value)?.slice(0, 10);
}
