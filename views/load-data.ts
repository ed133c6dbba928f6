/**
 * `get_activities`'s text result read for the load view: with `summary: true` the training-load answer
 * (tools/training-load/training-load-answer.ts, the one description of its shape, on Strava and on intervals.icu),
 * otherwise the listed activities (Strava's summaries or intervals.icu's activities, maybe cut to a `fields` list).
 * The daily fitness, fatigue and form are recomputed from the answer's daily loads with the log's own time constants
 * and recurrence (fitness-series.ts), starting from the answer's fitness and fatigue the day before the window, so
 * the chart's last day is the answer's numbers. Pure functions: no DOM.
 */
import type { ActivityTotals, SportTotals, TrainingLoadAnswer } from "../tools/training-load/training-load-answer.ts";
import { fatigueDays, fitnessDays, recurrenceStep } from "../tools/training-load/fitness-series.ts";

export interface ListedActivity {
  id?: number | string;
  name?: string;
  sport_type?: string;
  /** intervals.icu's name for the sport. */
  type?: string;
  /** intervals.icu's: "STRAVA" on a stub of an activity synced from Strava, which has no name, sport or times. */
  source?: string;
  start_date_local?: string;
  distance?: number;
  moving_time?: number;
  elapsed_time?: number;
}

export type ActivitiesAnswer = { kind: "summary"; answer: TrainingLoadAnswer } | { kind: "list"; activities: ListedActivity[] };

export function parseActivities(text: string): ActivitiesAnswer {
  const parsed: unknown = JSON.parse(text);
  if (Array.isArray(parsed))
    return { kind: "list", activities: parsed.filter((item): item is ListedActivity => typeof item === "object" && item !== null) };
  const answer = parsed as Partial<TrainingLoadAnswer> | null;
  if (answer && Array.isArray(answer.weeks) && Array.isArray(answer.days?.loads) && answer.load && answer.window && answer.trend?.start)
    return { kind: "summary", answer: answer as TrainingLoadAnswer };
  throw new Error("The answer is neither a list of activities nor a training-load summary.");
}

export interface Day {
  /** "YYYY-MM-DD" */
  date: string;
  load: number;
  /** CTL and ATL at the end of the day. */
  fitness: number;
  fatigue: number;
  /** TSB: fitness minus fatigue of the day before (what the athlete brings into the day). */
  form: number;
}

/**
 * Every date of the window with its load, fitness, fatigue and form: the answer's recurrence day by day, from the
 * fitness and fatigue the answer gives for the day before the window (its history), so the lines start where the
 * athlete was rather than climbing from zero.
 */
export function dailySeries(answer: TrainingLoadAnswer): Day[] {
  const log = logOf(answer);
  const fitnessStep = recurrenceStep(log, fitnessDays);
  const fatigueStep = recurrenceStep(log, fatigueDays);
  let fitness = answer.trend.start.fitness;
  let fatigue = answer.trend.start.fatigue;
  return answer.days.loads.map((load, index) => {
    const form = fitness - fatigue;
    fitness += (load - fitness) * fitnessStep;
    fatigue += (load - fatigue) * fatigueStep;
    return { date: addDays(answer.days.first, index), load, fitness, fatigue, form };
  });
}

/** Whose numbers: intervals.icu's own (its `load_source` says so), else computed from Strava's. */
export function logOf(answer: TrainingLoadAnswer): "strava" | "intervals.icu" {
  return "log" in answer.load_source && answer.load_source.log === "intervals.icu" ? "intervals.icu" : "strava";
}

/** What the loads are counted in: Strava's Relative Effort (and estimates on its scale), or intervals.icu's training load. */
export function loadUnit(answer: TrainingLoadAnswer): string {
  return logOf(answer) === "intervals.icu" ? "training load" : "Relative Effort";
}

/** A sport's totals in a week, from the array the answer gives (in `sport_columns`' order). */
export function sportTotals(answer: TrainingLoadAnswer, columns: SportTotals): ActivityTotals {
  const totals: ActivityTotals = { count: 0, distance: 0, moving_time: 0, elevation_gain: 0, load: 0 };
  answer.sport_columns.forEach((key, index) => (totals[key] = columns[index] ?? 0));
  return totals;
}

/** "2026-11-21" plus `days`. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split("-").map(Number);
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, (day ?? 1) + days)).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` ("YYYY-MM-DD" both). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** "21 Nov" (or "Sat 21 Nov" with the weekday). */
export function shortDate(date: string, withWeekday = false): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString("en-GB", {
    timeZone: "UTC",
    day: "numeric",
    month: "short",
    ...(withWeekday ? { weekday: "short" } : {}),
  });
}

/** The sports of the weeks in a stable order: most training time first. */
export function sportsByTime(answer: TrainingLoadAnswer): string[] {
  const time = new Map<string, number>();
  for (const week of answer.weeks)
    for (const [sport, columns] of Object.entries(week.sports))
      time.set(sport, (time.get(sport) ?? 0) + sportTotals(answer, columns).moving_time);
  return [...time].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([sport]) => sport);
}

/** The sports of listed activities, most training time first (most activities when the list has no times). */
export function listedSportsByTime(activities: readonly ListedActivity[]): string[] {
  const amount = new Map<string, number>();
  for (const activity of activities) {
    const sport = sportOf(activity);
    if (sport === undefined) continue;
    amount.set(sport, (amount.get(sport) ?? 0) + (timeOf(activity) ?? 1));
  }
  return [...amount].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([sport]) => sport);
}

/** The listed activities grouped by local date, newest date first, in list order within a date. */
export function activitiesByDay(activities: readonly ListedActivity[]): Array<{ date: string; activities: ListedActivity[] }> {
  const days = new Map<string, ListedActivity[]>();
  for (const activity of activities) {
    const date = activity.start_date_local?.slice(0, 10);
    if (date === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(date)) continue;
    days.set(date, [...(days.get(date) ?? []), activity]);
  }
  return [...days].sort((a, b) => b[0].localeCompare(a[0])).map(([date, list]) => ({ date, activities: list }));
}

/** An activity's sport: Strava's `sport_type`, intervals.icu's `type`; undefined when the list left it out (or a stub has none). */
export function sportOf(activity: ListedActivity): string | undefined {
  return activity.sport_type ?? activity.type;
}

/** An activity's training time: moving time, else elapsed time; undefined when the list left both out. */
export function timeOf(activity: ListedActivity): number | undefined {
  return activity.moving_time ?? activity.elapsed_time;
}
