/**
 * The training-load formulas written out again, plainly, from docs/reference/training-load.md, for tests that
 * recompute a summary's numbers from what it returns (its `days`) or from the activities Strava lists. Kept
 * apart from tools/training-load/ on purpose: a test that called the product's own functions would check
 * nothing.
 */

export interface ReferenceLoad {
  fitness: number;
  fatigue: number;
  form: number;
  acute_chronic_ratio: number | null;
  monotony: number | null;
  strain: number | null;
  longest_run_without_rest: { days: number; ends: string | null };
}

/** Every number of `load` from the daily loads (oldest first) and which days had an activity. */
export function referenceLoad(loads: readonly number[], active: readonly boolean[], first: string): ReferenceLoad {
  // CTL and ATL are 0 on the day before the window; ctl[i + 1] is the value on day i.
  const ctl = [0];
  const atl = [0];
  loads.forEach((load, i) => {
    ctl.push(ctl[i]! + (load - ctl[i]!) / 42);
    atl.push(atl[i]! + (load - atl[i]!) / 7);
  });
  const n = loads.length;
  const total = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
  const week = loads.slice(n - 7);
  const month = loads.slice(n - 28);
  const mean = total(week) / 7;
  const sd = Math.sqrt(total(week.map((x) => (x - mean) ** 2)) / 7);
  const monotony = n >= 7 && sd > 0 ? mean / sd : null;
  let best = 0;
  let ends: string | null = null;
  let run = 0;
  active.forEach((on, i) => {
    run = on ? run + 1 : 0;
    if (run > 0 && run >= best) {
      best = run;
      ends = addDays(first, i);
    }
  });
  return {
    fitness: ctl[n]!,
    fatigue: atl[n]!,
    form: ctl[n - 1]! - atl[n - 1]!,
    acute_chronic_ratio: n >= 28 && total(month) > 0 ? total(week) / 7 / (total(month) / 28) : null,
    monotony,
    strain: monotony === null ? null : total(week) * monotony,
    longest_run_without_rest: { days: best, ends },
  };
}

/** Relative Effort points per hour of heart-rate zones 1 to 5 (Aime, 2017). */
const zoneRates = [25, 60, 115, 250, 300];

export interface ListedActivity {
  moving_time: number;
  suffer_score?: number | null;
  average_heartrate?: number;
}

/**
 * Each activity's load as the reference page defines it: the suffer_score; else, with heart rate and zones,
 * moving hours x the rate of the average heart rate's zone x the scale fitted on the activities that have both;
 * else moving hours x the Relative Effort per hour of the scored activities (60 when none).
 */
export function referenceActivityLoads(
  activities: readonly ListedActivity[],
  zones: ReadonlyArray<{ min: number; max: number }> | undefined,
): number[] {
  const hours = (a: ListedActivity) => a.moving_time / 3600;
  const rate = (heartrate: number) => {
    let zone = zones!.findIndex((z) => z.max === -1 || heartrate < z.max);
    if (zone === -1) zone = zones!.length - 1;
    return zoneRates[Math.min(zone, 4)]!;
  };
  const scored = activities.filter((a) => typeof a.suffer_score === "number");
  const paired = zones ? scored.filter((a) => (a.average_heartrate ?? 0) > 0 && hours(a) > 0) : [];
  const scale =
    paired.length > 0
      ? round(sum(paired.map((a) => a.suffer_score!)) / sum(paired.map((a) => hours(a) * rate(a.average_heartrate!))), 3)
      : 1;
  const scoredHours = sum(scored.map(hours));
  const perHour = scoredHours > 0 ? round(sum(scored.map((a) => a.suffer_score!)) / scoredHours, 1) : 60;
  return activities.map((a) => {
    if (typeof a.suffer_score === "number") return Math.round(a.suffer_score);
    if (zones && (a.average_heartrate ?? 0) > 0) return Math.round(hours(a) * rate(a.average_heartrate!) * scale);
    return Math.round(hours(a) * perHour);
  });
}

/** "2026-11-21" plus `days`. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` ("YYYY-MM-DD"). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The Monday of the week holding `date`. */
export function mondayOf(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function round(value: number, digits: number): number {
  return Math.round(value * 10 ** digits) / 10 ** digits;
}
