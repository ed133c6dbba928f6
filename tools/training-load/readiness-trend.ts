/**
 * `readiness_trend`: the athlete's morning signals (HRV, resting heart rate, sleep) over the last 7 dates against
 * their own 28 dates before, for a log that keeps them day by day (intervals.icu's wellness records). Numbers, not
 * a verdict: the flag rule and its sources are in docs/reference/training-load.md, and the coach applies it.
 *
 * HRV-guided training compares a short rolling mean with the athlete's own baseline: a 7-day mean, because single
 * mornings vary too much, and a 4-week baseline, as the trials that guide training by it set theirs. Dates without a
 * value (watch not worn, not synced) are skipped and counted, never read as 0. Pure: no log, no clock.
 */
import type { ReadinessMeasure, ReadinessTrend } from "./training-load-answer.ts";
import { dateOfDay } from "./calendar-days.ts";

/** The recent span and the baseline before it, in dates. */
export const readinessRecentDays = 7;
export const readinessBaselineDays = 28;

/** The measures, by intervals.icu's wellness field names, with the decimals each is given to. */
const measures = { hrv: 1, restingHR: 1, sleepSecs: 0 } as const;
export type ReadinessField = keyof typeof measures;
export const readinessFields = Object.keys(measures) as ReadinessField[];

/** `valueOn(field, day)`: the value the log holds for the date, undefined when it has none. */
export function readinessTrend(valueOn: (field: ReadinessField, day: number) => number | undefined, lastDay: number): ReadinessTrend {
  const recentFirst = lastDay - readinessRecentDays + 1;
  const baselineFirst = recentFirst - readinessBaselineDays;
  const span = (from: number, count: number): number[] => Array.from({ length: count }, (_, index) => from + index);
  const measure = (field: ReadinessField): ReadinessMeasure => {
    const values = (days: number[]): number[] =>
      days.map((day) => valueOn(field, day)).filter((value): value is number => value !== undefined && Number.isFinite(value));
    const recent = values(span(recentFirst, readinessRecentDays));
    const baseline = values(span(baselineFirst, readinessBaselineDays));
    const recentMean = mean(recent);
    const baselineMean = mean(baseline);
    const baselineSd = sampleDeviation(baseline);
    const digits = measures[field];
    return {
      mean_7d: recentMean === null ? null : round(recentMean, digits),
      skipped_7d: readinessRecentDays - recent.length,
      mean_28d: baselineMean === null ? null : round(baselineMean, digits),
      sd_28d: baselineSd === null ? null : round(baselineSd, digits),
      skipped_28d: readinessBaselineDays - baseline.length,
      difference_sd:
        recentMean === null || baselineMean === null || baselineSd === null || baselineSd === 0
          ? null
          : round((recentMean - baselineMean) / baselineSd, 2),
    };
  };
  return {
    last_7d: { first: dateOfDay(recentFirst), last: dateOfDay(lastDay) },
    baseline_28d: { first: dateOfDay(baselineFirst), last: dateOfDay(recentFirst - 1) },
    hrv: measure("hrv"),
    restingHR: measure("restingHR"),
    sleepSecs: measure("sleepSecs"),
  };
}

/** Sentences on each null of the trend: why it could not be computed. */
export function readinessNotes(trend: ReadinessTrend): string[] {
  const notes: string[] = [];
  for (const field of readinessFields) {
    const { mean_7d, mean_28d, sd_28d, difference_sd, skipped_28d } = trend[field];
    if (mean_7d === null) notes.push(`readiness_trend.${field}: no value in the last ${readinessRecentDays} dates.`);
    if (mean_28d === null || sd_28d === null)
      notes.push(
        `readiness_trend.${field}: ${readinessBaselineDays - skipped_28d} values in the ${readinessBaselineDays} dates before them; a baseline needs at least 2.`,
      );
    else if (difference_sd === null && mean_7d !== null && sd_28d === 0)
      notes.push(`readiness_trend.${field}: every baseline value is ${mean_28d}, so there is no spread to measure the difference by.`);
  }
  return notes;
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((total, value) => total + value, 0) / values.length;
}

/** The sample standard deviation (n - 1): the spread of the athlete's usual mornings, estimated from those read. */
function sampleDeviation(values: readonly number[]): number | null {
  const average = mean(values);
  if (average === null || values.length < 2) return null;
  return Math.sqrt(values.reduce((total, value) => total + (value - average) ** 2, 0) / (values.length - 1));
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale + 0;
}
