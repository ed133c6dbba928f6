/**
 * The training-load numbers on the window's last date, and the trend before it, from normalised inputs: the daily
 * loads (history included) and the fitness and fatigue series (fitness-series.ts: modelled from the loads on
 * Strava, a log's own where it keeps them). Each number is the textbook formula (sources in
 * docs/reference/training-load.md):
 * - form (TSB): fitness minus fatigue of the day before the last date (the chart's convention: today's form is
 *   what you bring into today), and as a percentage of that day's fitness;
 * - ramp rate: the change of fitness over the last 7 days;
 * - acute:chronic ratio (Gabbett): mean daily load of the last 7 dates over that of the last 28;
 * - monotony and strain (Foster, 1998): the last 7 daily loads' mean over their population standard
 *   deviation, and their sum times monotony;
 * - the longest run of consecutive dates of the window with an activity.
 * Rounded only at the end: fitness, fatigue, form and ramp to 0.1, the ratio and monotony to 0.01, strain and
 * the form percentage to 1; the trend to whole numbers. Pure: no Strava, no clock.
 */
import type { LoadNumbers, LoadTrend } from "./training-load-answer.ts";
import { dateOfDay } from "./calendar-days.ts";
import { valueOn, type FitnessSeries } from "./fitness-series.ts";

export const acuteDays = 7;
export const chronicDays = 28;
/** Dates in the trend: four weeks, enough to see a week of low form and the ramp around it. */
export const trendDays = 28;
/** The ramp rate's span. */
export const rampDays = 7;

export interface LoadInputs {
  /** The window's first and last dates (day numbers). */
  firstDay: number;
  lastDay: number;
  /** `loads[i]` is the load of date `loadsFrom + i`, to `lastDay`; `loadsFrom` is at or before `firstDay` (history). */
  loadsFrom: number;
  loads: readonly number[];
  /** `active[i]`: date `firstDay + i` of the window had an activity. */
  active: readonly boolean[];
  /** Covering at least the day before `firstDay` and the 28 dates before `lastDay` to `lastDay`. */
  series: FitnessSeries;
}

export function loadNumbers(input: LoadInputs): { load: LoadNumbers; trend: LoadTrend; notes: string[] } {
  const { lastDay, series } = input;
  const fitnessOn = (day: number): number => valueOn(series.fitness, series.firstDay, day);
  const fatigueOn = (day: number): number => valueOn(series.fatigue, series.firstDay, day);
  const formOn = (day: number): number => fitnessOn(day - 1) - fatigueOn(day - 1);
  const notes: string[] = [];

  const read = lastDay - input.loadsFrom + 1;
  const lastLoads = (count: number): number[] => input.loads.slice(Math.max(0, input.loads.length - count));
  const week = lastLoads(acuteDays);
  const month = lastLoads(chronicDays);
  let ratio: number | null = null;
  if (read < chronicDays) notes.push(`The acute:chronic ratio needs ${chronicDays} days of load; ${read} were read.`);
  else if (sum(month) === 0) notes.push(`The acute:chronic ratio is null: the last ${chronicDays} days hold no load.`);
  else ratio = round(sum(week) / acuteDays / (sum(month) / chronicDays), 2);

  let monotony: number | null = null;
  if (read < acuteDays) notes.push(`Monotony and strain need ${acuteDays} days of load; ${read} were read.`);
  else {
    monotony = monotonyOf(week);
    if (monotony === null)
      notes.push(
        `Monotony and strain are null: the last ${acuteDays} daily loads are all ${week[0]}, and monotony divides their mean by their spread, which is 0.`,
      );
  }

  const fitnessBefore = fitnessOn(lastDay - 1);
  const form = formOn(lastDay);
  if (round(fitnessBefore, 1) === 0) notes.push("Form as a percentage of fitness is null: fitness on the day before the last date is 0.");
  const ramp = rampRate(series, lastDay, fitnessOn);
  if (ramp === null) notes.push("The training log gives no ramp rate for the last date.");

  const trendFirst = lastDay - trendDays + 1;
  const trendDates = Array.from({ length: trendDays }, (_, index) => trendFirst + index);
  return {
    load: {
      fitness: round(fitnessOn(lastDay), 1),
      fatigue: round(fatigueOn(lastDay), 1),
      form: round(form, 1),
      form_percent: round(fitnessBefore, 1) === 0 ? null : Math.round((form / fitnessBefore) * 100),
      ramp_rate: ramp === null ? null : round(ramp, 1),
      acute_chronic_ratio: ratio,
      monotony: monotony === null ? null : round(monotony, 2),
      strain: monotony === null ? null : Math.round(sum(week) * monotony),
      longest_run_without_rest: longestRun(input.active, input.firstDay),
    },
    trend: {
      start: { fitness: round(fitnessOn(input.firstDay - 1), 1), fatigue: round(fatigueOn(input.firstDay - 1), 1) },
      first: dateOfDay(trendFirst),
      fitness: trendDates.map((day) => Math.round(fitnessOn(day))),
      fatigue: trendDates.map((day) => Math.round(fatigueOn(day))),
      form: trendDates.map((day) => Math.round(formOn(day))),
    },
    notes,
  };
}

/** The log's own ramp rate on `day` when it keeps them, else fitness on `day` minus fitness 7 days before. */
function rampRate(series: FitnessSeries, day: number, fitnessOn: (day: number) => number): number | null {
  if (series.rampRate === undefined) return fitnessOn(day) - fitnessOn(day - rampDays);
  return series.rampRate[day - series.firstDay] ?? null;
}

/** Mean over population standard deviation; null when the loads do not vary. */
function monotonyOf(loads: readonly number[]): number | null {
  const mean = sum(loads) / loads.length;
  const deviation = Math.sqrt(sum(loads.map((load) => (load - mean) ** 2)) / loads.length);
  return deviation > 0 ? mean / deviation : null;
}

function longestRun(active: readonly boolean[], firstDay: number): LoadNumbers["longest_run_without_rest"] {
  let best = 0;
  let bestEnd: number | null = null;
  let current = 0;
  active.forEach((isActive, index) => {
    current = isActive ? current + 1 : 0;
    if (current > 0 && current >= best) {
      best = current;
      bestEnd = firstDay + index;
    }
  });
  return { days: best, ends: bestEnd === null ? null : dateOfDay(bestEnd) };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
