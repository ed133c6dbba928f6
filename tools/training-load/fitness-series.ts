/**
 * Fitness (CTL) and fatigue (ATL) day by day, the normalised input of the load numbers (load-metrics.ts). On
 * Strava they are modelled here from the daily loads with the impulse-response model's exponentially weighted
 * averages, as TrainingPeaks' Performance Management Chart computes them: time constants 42 and 7 days, 0 the
 * day before the first date read, X_d = X_(d-1) + (L_d - X_(d-1)) / k. A log that keeps its own (intervals.icu's
 * wellness records) hands its series in the same shape instead.
 */

export const fitnessDays = 42;
export const fatigueDays = 7;

/**
 * How far a day's load moves fitness or fatigue, for time constant `days`, as each log computes it: the textbook
 * 1/k on Strava (computed here), and intervals.icu's own 1 - e^(-1/k) (its recurrence, reproduced exactly against
 * real accounts). The load view draws each log's series with its own, so its lines end on the answer's numbers.
 */
export function recurrenceStep(log: "strava" | "intervals.icu", days: number): number {
  return log === "intervals.icu" ? 1 - Math.exp(-1 / days) : 1 / days;
}

/** Values at the end of each date from `firstDay` on; before `firstDay`, 0 (no training known). */
export interface FitnessSeries {
  firstDay: number;
  fitness: readonly number[];
  fatigue: readonly number[];
  /** The log's own ramp rate per date, when it keeps one; otherwise it is computed from `fitness`. */
  rampRate?: ReadonlyArray<number | null>;
}

/** The recurrence over `loads` (`loads[i]` the load of date `firstDay + i`), from 0 the day before `firstDay`. */
export function modelledFitness(loads: readonly number[], firstDay: number): FitnessSeries {
  let fitness = 0;
  let fatigue = 0;
  const fitnessSeries: number[] = [];
  const fatigueSeries: number[] = [];
  for (const load of loads) {
    fitness += (load - fitness) / fitnessDays;
    fatigue += (load - fatigue) / fatigueDays;
    fitnessSeries.push(fitness);
    fatigueSeries.push(fatigue);
  }
  return { firstDay, fitness: fitnessSeries, fatigue: fatigueSeries };
}

/** The value of `values` (from `firstDay`) on `day`: 0 before the series, its last value after it. */
export function valueOn(values: readonly number[], firstDay: number, day: number): number {
  if (day < firstDay || values.length === 0) return 0;
  return values[Math.min(day - firstDay, values.length - 1)]!;
}
