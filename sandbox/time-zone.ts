/**
 * Wall-clock arithmetic in the athlete's time zone. Strava gives every activity a UTC start, a local
 * start (written with a misleading "Z") and the zone's offset at that instant, which changes across
 * daylight-saving transitions; the sandbox computes them the same way.
 *
 * The zone rules are written out here rather than read from the platform's time-zone database: that
 * keeps the data byte-identical across Node versions and machines, and start-up fast (no ICU calls).
 */
interface ZoneRules {
  standardOffset: number; // seconds
  /** US rules: summer time from the second Sunday of March to the first Sunday of November, 02:00 local. */
  usDaylightSaving: boolean;
}

const zones: Record<string, ZoneRules> = {
  "America/Denver": { standardOffset: -7 * 3600, usDaylightSaving: true },
  "America/Los_Angeles": { standardOffset: -8 * 3600, usDaylightSaving: true },
  "America/Chicago": { standardOffset: -6 * 3600, usDaylightSaving: true },
  "America/New_York": { standardOffset: -5 * 3600, usDaylightSaving: true },
  UTC: { standardOffset: 0, usDaylightSaving: false },
};

function rulesFor(zone: string): ZoneRules {
  const rules = zones[zone];
  if (!rules) throw new Error(`The sandbox has no rules for time zone ${zone}; known: ${Object.keys(zones).join(", ")}.`);
  return rules;
}

/** Epoch ms of the n-th Sunday (1-based) of a month at 02:00 local standard/daylight time. */
function nthSunday(year: number, month: number, n: number, hourUtc: number): number {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  const day = 1 + ((7 - first) % 7) + (n - 1) * 7;
  return Date.UTC(year, month - 1, day, hourUtc);
}

export interface LocalParts {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Offset of local time from UTC, in seconds, at the given instant (e.g. -25200 for UTC-7). */
export function utcOffsetSeconds(zone: string, epochMs: number): number {
  const rules = rulesFor(zone);
  if (!rules.usDaylightSaving) return rules.standardOffset;
  const year = new Date(epochMs + rules.standardOffset * 1000).getUTCFullYear();
  // 02:00 local standard time in March, 02:00 local daylight time in November, as UTC instants.
  const start = nthSunday(year, 3, 2, 2) - rules.standardOffset * 1000;
  const end = nthSunday(year, 11, 1, 2) - (rules.standardOffset + 3600) * 1000;
  return epochMs >= start && epochMs < end ? rules.standardOffset + 3600 : rules.standardOffset;
}

export function localParts(zone: string, epochMs: number): LocalParts {
  const local = new Date(Math.floor(epochMs / 1000) * 1000 + utcOffsetSeconds(zone, epochMs) * 1000);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

/** The instant at which the given local wall-clock time occurs (the later offset wins in a gap). */
export function instantOfLocalTime(zone: string, local: LocalParts): number {
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  let guess = asUtc - utcOffsetSeconds(zone, asUtc) * 1000;
  guess = asUtc - utcOffsetSeconds(zone, guess) * 1000;
  return guess;
}

/** Start of the local calendar day that contains the instant, `daysBack` days earlier. */
export function localMidnight(zone: string, epochMs: number, daysBack = 0): number {
  const p = localParts(zone, epochMs);
  const day = new Date(Date.UTC(p.year, p.month - 1, p.day - daysBack));
  return instantOfLocalTime(zone, {
    year: day.getUTCFullYear(),
    month: day.getUTCMonth() + 1,
    day: day.getUTCDate(),
    hour: 0,
    minute: 0,
    second: 0,
  });
}

/** "2026-11-21T18:30:05Z" for an instant. */
export function isoUtc(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

/** Strava's start_date_local: local wall time, written with a "Z" that does not mean UTC. */
export function isoLocalWithZ(epochMs: number, offsetSeconds: number): string {
  return isoUtc(epochMs + offsetSeconds * 1000);
}

/** "(GMT-07:00) America/Denver": Strava labels zones with their standard (winter) offset. */
export function stravaTimezoneLabel(zone: string, referenceMs: number): string {
  const year = new Date(referenceMs).getUTCFullYear();
  const january = utcOffsetSeconds(zone, Date.UTC(year, 0, 15));
  const july = utcOffsetSeconds(zone, Date.UTC(year, 6, 15));
  const standard = Math.min(january, july);
  const sign = standard < 0 ? "-" : "+";
  const abs = Math.abs(standard);
  const hh = String(Math.floor(abs / 3600)).padStart(2, "0");
  const mm = String(Math.floor((abs % 3600) / 60)).padStart(2, "0");
  return `(GMT${sign}${hh}:${mm}) ${zone}`;
}
