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
  form_percent: number | null;
  ramp_rate: number;
  acute_chronic_ratio: number | null;
  monotony: number | null;
  strain: number | null;
  longest_run_without_rest: { days: number; ends: string | null };
  /** Unrounded, per date of the last 28: fitness and fatigue at the end of the date, form brought into it. */
  trend: { first: string; fitness: number[]; fatigue: number[]; form: number[] };
  /** Fitness and fatigue at the end of the day before the window. */
  start: { fitness: number; fatigue: number };
}

/**
 * Every number of `load` and the trend, from the daily loads read (`loads[0]` is the load of `from`, the history's
 * first date; fitness and fatigue are 0 the day before it), the window's first date, and which of the window's
 * dates had an activity. The window ends on the last date of `loads`.
 */
export function referenceLoad(loads: readonly number[], from: string, first: string, active: readonly boolean[]): ReferenceLoad {
  // ctl[i + 1] is the value at the end of date from + i; ctl[0] the day before `from`.
  const ctl = [0];
  const atl = [0];
  loads.forEach((load, i) => {
    ctl.push(ctl[i]! + (load - ctl[i]!) / 42);
    atl.push(atl[i]! + (load - atl[i]!) / 7);
  });
  const n = loads.length;
  /** Value at the end of the date `back` days before the last (0 before `from`). */
  const at = (series: number[], back: number) => series[Math.max(0, n - back)]!;
  const total = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
  const week = loads.slice(Math.max(0, n - 7));
  const month = loads.slice(Math.max(0, n - 28));
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
  const form = at(ctl, 1) - at(atl, 1);
  const trend = { first: addDays(from, n - 28), fitness: [] as number[], fatigue: [] as number[], form: [] as number[] };
  for (let back = 27; back >= 0; back--) {
    trend.fitness.push(at(ctl, back));
    trend.fatigue.push(at(atl, back));
    trend.form.push(at(ctl, back + 1) - at(atl, back + 1));
  }
  const beforeWindow = daysBetween(from, first);
  return {
    fitness: at(ctl, 0),
    fatigue: at(atl, 0),
    form,
    form_percent: Math.round(at(ctl, 1) * 10) === 0 ? null : Math.round((form / at(ctl, 1)) * 100),
    ramp_rate: at(ctl, 0) - at(ctl, 7),
    acute_chronic_ratio: n >= 28 && total(month) > 0 ? total(week) / 7 / (total(month) / 28) : null,
    monotony,
    strain: monotony === null ? null : total(week) * monotony,
    longest_run_without_rest: { days: best, ends },
    trend,
    start: { fitness: ctl[beforeWindow]!, fatigue: atl[beforeWindow]! },
  };
}

/** Relative Effort points per hour of heart-rate zones 1 to 5 (Aime, 2017). */
const zoneRates = [25, 60, 115, 250, 300];

export interface ListedActivity {
  start_date_local: string;
  sport_type: string;
  moving_time: number;
  suffer_score?: number | null;
  average_heartrate?: number;
  device_watts?: boolean;
  weighted_average_watts?: number;
}

export interface AthleteSettings {
  /** The athlete's local date today ("YYYY-MM-DD"): the estimates are fitted on the 126 dates to it. */
  today: string;
  /** FTP in watts, when it was read. */
  ftp?: number;
  /** Heart-rate zones, when they were read. */
  zones?: ReadonlyArray<{ min: number; max: number }>;
}

/** The sport family of a sport type, as the reference page lists them. */
export function familyOf(sportType: string): string {
  const families: Record<string, string[]> = {
    rides: ["Ride", "GravelRide", "MountainBikeRide", "VirtualRide", "EBikeRide", "EMountainBikeRide", "Velomobile", "Handcycle"],
    runs: ["Run", "TrailRun", "VirtualRun"],
    swims: ["Swim"],
    strength: ["WeightTraining", "Workout", "Crossfit", "HighIntensityIntervalTraining"],
    mobility: ["Yoga", "Pilates"],
    walks_hikes: ["Walk", "Hike"],
  };
  return Object.keys(families).find((family) => families[family]!.includes(sportType)) ?? "other";
}

/** Relative Effort per hour at `heartrate`: linear between the middles of neighbouring zones, as placed between the zone bounds. */
export function heartRateRate(heartrate: number, zones: ReadonlyArray<{ min: number; max: number }>): number {
  let place = 0;
  for (let i = 0; i < zones.length; i++) {
    const zone = zones[i]!;
    const width = zone.max === -1 ? zones[i - 1]!.max - zones[i - 1]!.min : zone.max - zone.min;
    if (zone.max === -1 || heartrate < zone.max || i === zones.length - 1) {
      place = i + Math.min(1, Math.max(0, (heartrate - zone.min) / width));
      break;
    }
  }
  const last = Math.min(zones.length, 5) - 1;
  if (place <= 0.5) return zoneRates[0]!;
  if (place >= last + 0.5) return zoneRates[last]!;
  const below = Math.floor(place - 0.5);
  const share = place - 0.5 - below;
  return zoneRates[below]! * (1 - share) + zoneRates[below + 1]! * share;
}

/** Which signal each activity's load comes from, and the load: the rules of the reference page. */
export function referenceActivityLoads(
  activities: readonly ListedActivity[],
  settings: AthleteSettings,
): Array<{ load: number; source: "suffer_score" | "power" | "heart_rate" | "moving_time" }> {
  const hours = (a: ListedActivity) => a.moving_time / 3600;
  const date = (a: ListedActivity) => a.start_date_local.slice(0, 10);
  const spanFirst = addDays(settings.today, -125);
  const scored = activities.filter(
    (a) => typeof a.suffer_score === "number" && a.moving_time > 0 && date(a) >= spanFirst && date(a) <= settings.today,
  );
  const hasPower = (a: ListedActivity) => a.device_watts === true && (a.weighted_average_watts ?? 0) > 0;
  const tss = (a: ListedActivity) => hours(a) * (a.weighted_average_watts! / settings.ftp!) ** 2 * 100;
  const hrPoints = (a: ListedActivity) => hours(a) * heartRateRate(a.average_heartrate!, settings.zones!);

  const powerPairs = settings.ftp ? scored.filter(hasPower) : [];
  const powerScale = powerPairs.length >= 3 ? round(sum(powerPairs.map((a) => a.suffer_score!)) / sum(powerPairs.map(tss)), 3) : undefined;
  const hrPairs = settings.zones ? scored.filter((a) => (a.average_heartrate ?? 0) > 0) : [];
  const hrScale = hrPairs.length >= 3 ? round(sum(hrPairs.map((a) => a.suffer_score!)) / sum(hrPairs.map(hrPoints)), 3) : 1;
  const rateOf = (list: readonly ListedActivity[]) => round(sum(list.map((a) => a.suffer_score!)) / sum(list.map(hours)), 1);
  const familyRate = (family: string) => {
    const own = scored.filter((a) => familyOf(a.sport_type) === family);
    if (family !== "other" && own.length >= 3) return rateOf(own);
    return scored.length > 0 ? rateOf(scored) : 60;
  };

  return activities.map((a) => {
    if (typeof a.suffer_score === "number") return { load: Math.round(a.suffer_score), source: "suffer_score" };
    if (hasPower(a) && powerScale !== undefined) return { load: Math.round(tss(a) * powerScale), source: "power" };
    if (settings.zones && (a.average_heartrate ?? 0) > 0) return { load: Math.round(hrPoints(a) * hrScale), source: "heart_rate" };
    return { load: Math.round(hours(a) * familyRate(familyOf(a.sport_type))), source: "moving_time" };
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
