/**
 * The training-load numbers of a daily load series, each the textbook formula (sources in
 * docs/reference/training-load.md):
 * - fitness (CTL) and fatigue (ATL): the impulse-response model's exponentially weighted averages as
 *   TrainingPeaks' Performance Management Chart computes them, time constants 42 and 7 days, both 0 the
 *   day before the window: X_d = X_(d-1) + (L_d - X_(d-1)) / k;
 * - form (TSB): fitness minus fatigue of the day before the last date (the chart's convention: today's
 *   form is what you bring into today);
 * - acute:chronic ratio (Gabbett): mean daily load of the last 7 dates over that of the last 28;
 * - monotony and strain (Foster, 1998): the last 7 daily loads' mean over their population standard
 *   deviation, and their sum times monotony;
 * - the longest run of consecutive dates with an activity.
 * Rounded only at the end: fitness, fatigue, form to 0.1, the ratio and monotony to 0.01, strain to 1.
 */
import type { LoadNumbers } from "./training-load-answer.ts";
import { dateOfDay } from "./calendar-days.ts";

export const fitnessDays = 42;
export const fatigueDays = 7;
export const acuteDays = 7;
export const chronicDays = 28;

/**
 * `loads[i]` and `active[i]` belong to day `firstDay + i`. Returns the numbers and the notes on what the
 * window is too short for.
 */
export function loadNumbers(
  loads: readonly number[],
  active: readonly boolean[],
  firstDay: number,
): { load: LoadNumbers; notes: string[] } {
  const n = loads.length;
  let fitness = 0;
  let fatigue = 0;
  let fitnessBefore = 0;
  let fatigueBefore = 0;
  for (const load of loads) {
    fitnessBefore = fitness;
    fatigueBefore = fatigue;
    fitness += (load - fitness) / fitnessDays;
    fatigue += (load - fatigue) / fatigueDays;
  }
  const acute = sum(loads.slice(-acuteDays));
  const chronic = sum(loads.slice(-chronicDays));
  const lastWeek = loads.slice(-acuteDays);
  const monotony = n >= acuteDays ? monotonyOf(lastWeek) : null;
  const notes: string[] = [];
  if (n < fitnessDays) {
    notes.push(
      `The window has ${n} days: fitness (CTL) builds over about six weeks, so fitness and form read low; ask for a longer window before judging them.`,
    );
  }
  if (n < chronicDays) notes.push(`The acute:chronic ratio needs ${chronicDays} days of load; this window has ${n}.`);
  if (n < acuteDays) notes.push(`Monotony and strain need ${acuteDays} days of load; this window has ${n}.`);
  return {
    load: {
      fitness: round(fitness, 1),
      fatigue: round(fatigue, 1),
      form: round(fitnessBefore - fatigueBefore, 1),
      acute_chronic_ratio: n >= chronicDays && chronic > 0 ? round(acute / acuteDays / (chronic / chronicDays), 2) : null,
      monotony: monotony === null ? null : round(monotony, 2),
      strain: monotony === null ? null : Math.round(acute * monotony),
      longest_run_without_rest: longestRun(active, firstDay),
    },
    notes,
  };
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
