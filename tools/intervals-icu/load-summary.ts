/**
 * The training-load answer on intervals.icu, in the one shape of tools/training-load/training-load-answer.ts, from
 * two of intervals.icu's answers: the window's activities and the wellness records of the window and the 28 dates
 * before it. intervals.icu computes load, fitness and fatigue itself, so nothing is estimated or modelled here: each
 * activity's load is its `icu_training_load`, each date's load, fitness, fatigue and ramp rate are that date's
 * wellness record (`ctlLoad`, `ctl`, `atl`, `rampRate`: the numbers of intervals.icu's fitness page), and the ratio,
 * monotony, strain, form and the trend are the same formulas as on Strava over them (load-metrics.ts). The morning
 * signals of the same records give `readiness_trend`.
 *
 * A date without a record (intervals.icu had nothing for it) carries fitness and fatigue on by intervals.icu's own
 * recurrence with the load of the activities listed that day, and `window.complete` says the series had a gap.
 * Activities that reached intervals.icu from Strava are listed only as stubs: they count as activities and as
 * training days, and intervals.icu's day load holds their load, but they have no sport, time or load of their own
 * for the weeks. Pure: the window and its time zone come in decided.
 */
import { sportColumns, type IntervalsLoadAnswer, type IntervalsLoadSources } from "../training-load/training-load-answer.ts";
import { dateOfDay, dayOfDate } from "../training-load/calendar-days.ts";
import { fatigueDays, fitnessDays, recurrenceStep, type FitnessSeries } from "../training-load/fitness-series.ts";
import { nonNegative } from "../training-load/listed-activities.ts";
import { chronicDays, loadNumbers } from "../training-load/load-metrics.ts";
import { readinessNotes, readinessTrend, readinessBaselineDays, readinessRecentDays } from "../training-load/readiness-trend.ts";
import { trainingWeeks, type DatedActivity } from "../training-load/training-weeks.ts";

/**
 * The first date of wellness read: 28 dates before the window (the load ratio's month, and the fitness and fatigue
 * the window starts from), and at least the readiness baseline's first date (35 dates to the last), for a short window.
 */
export function wellnessFrom(firstDay: number, lastDay: number): number {
  return Math.min(firstDay - chronicDays, lastDay - readinessRecentDays - readinessBaselineDays + 1);
}

export interface IntervalsLoadInput {
  firstDay: number;
  lastDay: number;
  timeZone: string;
  /** The list answer for the window (intervals.icu's activities, possibly cut to a few fields). */
  activities: readonly unknown[];
  /** The wellness records from `wellnessFrom(firstDay, lastDay)` to `lastDay` (keyed by `id`, the local date). */
  wellness: readonly unknown[];
  upstreamRequests: number;
}

/** One date's wellness record as intervals.icu answers it. */
export type WellnessRecord = Record<string, unknown>;

export function intervalsLoadAnswer(input: IntervalsLoadInput): IntervalsLoadAnswer {
  const { firstDay, lastDay } = input;
  const historyFrom = wellnessFrom(firstDay, lastDay);
  const listed = listedActivities(input.activities, firstDay, lastDay);
  const records = recordsByDay(input.wellness);
  const listedLoad = loadsByDay(listed.activities);
  const { loads, series, missing } = wellnessSeries(records, listedLoad, historyFrom, lastDay);

  const active = Array.from({ length: lastDay - firstDay + 1 }, (_, index) => {
    const day = firstDay + index;
    return listedLoad.has(day) || listed.stubDays.has(day);
  });
  const numbers = loadNumbers({ firstDay, lastDay, loadsFrom: historyFrom, loads, active, series });
  const readiness = readinessTrend((field, day) => finite(records.get(day)?.[field]), lastDay);

  const withLoad = listed.activities.filter((activity) => activity.hasLoad).length;
  const sources: IntervalsLoadSources = {
    log: "intervals.icu",
    icu_training_load: withLoad,
    without_load: listed.activities.length - withLoad,
    strava_stubs: listed.stubs,
    wellness_days: { with_record: lastDay - historyFrom + 1 - missing, of: lastDay - historyFrom + 1 },
  };
  const notes = [...numbers.notes, ...intervalsNotes(sources, historyFrom, lastDay), ...readinessNotes(readiness)];

  return {
    window: {
      first: dateOfDay(firstDay),
      last: dateOfDay(lastDay),
      time_zone: input.timeZone,
      activities: listed.activities.length + listed.stubs,
      history_from: dateOfDay(historyFrom),
      upstream_requests: input.upstreamRequests,
      complete: missing === 0,
    },
    sport_columns: sportColumns,
    weeks: trainingWeeks(listed.activities, firstDay, lastDay, listed.stubDays),
    days: { first: dateOfDay(firstDay), loads: loads.slice(firstDay - historyFrom) },
    load: numbers.load,
    trend: numbers.trend,
    load_source: sources,
    readiness_trend: readiness,
    notes,
  };
}

/** The listed activities' loads summed by date. */
function loadsByDay(activities: readonly DatedActivity[]): Map<number, number> {
  const listedLoad = new Map<number, number>();
  for (const activity of activities) listedLoad.set(activity.day, (listedLoad.get(activity.day) ?? 0) + activity.load);
  return listedLoad;
}

/**
 * Day loads, fitness, fatigue and ramp rate from `historyFrom` to `lastDay`: each date's wellness record (its
 * `ctlLoad`, else the listed activities' load of that date); a date whose record lacks fitness or fatigue carries
 * them on by intervals.icu's recurrence from the day before, and is counted in `missing`.
 */
export function wellnessSeries(
  records: ReadonlyMap<number, WellnessRecord>,
  listedLoad: ReadonlyMap<number, number>,
  historyFrom: number,
  lastDay: number,
): { loads: number[]; series: FitnessSeries; missing: number } {
  const loads: number[] = [];
  const fitness: number[] = [];
  const fatigue: number[] = [];
  const rampRate: Array<number | null> = [];
  let missing = 0;
  for (let day = historyFrom; day <= lastDay; day++) {
    const record = records.get(day);
    const load = finite(record?.["ctlLoad"]) ?? listedLoad.get(day) ?? 0;
    loads.push(load);
    const ctl = finite(record?.["ctl"]);
    const atl = finite(record?.["atl"]);
    if (ctl !== undefined && atl !== undefined) {
      fitness.push(ctl);
      fatigue.push(atl);
    } else {
      missing++;
      const before = fitness.length - 1;
      fitness.push(step(fitness[before] ?? 0, load, fitnessDays));
      fatigue.push(step(fatigue[before] ?? 0, load, fatigueDays));
    }
    rampRate.push(finite(record?.["rampRate"]) ?? null);
  }
  return { loads, series: { firstDay: historyFrom, fitness, fatigue, rampRate }, missing };
}

/** What the answer says of intervals.icu's own data: dates without a record, Strava stubs, activities without load. */
export function intervalsNotes(sources: IntervalsLoadSources, historyFrom: number, lastDay: number): string[] {
  const notes: string[] = [];
  const missing = sources.wellness_days.of - sources.wellness_days.with_record;
  if (missing > 0)
    notes.push(
      `${missing} of the ${lastDay - historyFrom + 1} dates from ${dateOfDay(historyFrom)} have no wellness record with fitness and fatigue; ` +
        "those dates carry them on by intervals.icu's recurrence from the day before, with the load of the activities listed that day.",
    );
  if (sources.strava_stubs > 0)
    notes.push(
      `${sources.strava_stubs} of the window's activities reached intervals.icu from Strava: its API lists them only as stubs, so they are ` +
        "not in weeks; intervals.icu counts their load in days, fitness and fatigue.",
    );
  if (sources.without_load > 0)
    notes.push(`${sources.without_load} activities have no load on intervals.icu (no power, heart rate or entered load): 0 in weeks.`);
  return notes;
}

interface ListedIntervals {
  activities: Array<DatedActivity & { hasLoad: boolean }>;
  stubs: number;
  stubDays: Set<number>;
}

/** The window's activities as the weeks count them, and its stubs by date. Anything malformed reads as absent. */
function listedActivities(items: readonly unknown[], firstDay: number, lastDay: number): ListedIntervals {
  const listed: ListedIntervals = { activities: [], stubs: 0, stubDays: new Set() };
  for (const item of items) {
    if (typeof item !== "object" || item === null) continue;
    const activity = item as Record<string, unknown>;
    // start_date_local is the athlete's wall clock: its date is the local date.
    const day = dayOfDate(activity["start_date_local"]);
    if (day === undefined || day < firstDay || day > lastDay) continue;
    // intervals.icu's API never lists a Strava-synced activity whole: its source says it is a stub.
    if (activity["source"] === "STRAVA") {
      listed.stubs++;
      listed.stubDays.add(day);
      continue;
    }
    const load = nonNegative(activity["icu_training_load"]);
    listed.activities.push({
      day,
      sportType: typeof activity["type"] === "string" ? activity["type"] : "Other",
      distance: nonNegative(activity["distance"]) ?? 0,
      movingTime: nonNegative(activity["moving_time"]) ?? 0,
      elevationGain: nonNegative(activity["total_elevation_gain"]) ?? 0,
      load: load === undefined ? 0 : Math.round(load),
      hasLoad: load !== undefined,
    });
  }
  return listed;
}

/** Wellness records by the day of their `id` (the local date). */
function recordsByDay(items: readonly unknown[]): Map<number, WellnessRecord> {
  const records = new Map<number, WellnessRecord>();
  for (const item of items) {
    if (typeof item !== "object" || item === null) continue;
    const day = dayOfDate((item as WellnessRecord)["id"]);
    if (day !== undefined) records.set(day, item as WellnessRecord);
  }
  return records;
}

/** intervals.icu's recurrence for one day. */
function step(value: number, load: number, days: number): number {
  return value + (load - value) * recurrenceStep("intervals.icu", days);
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
