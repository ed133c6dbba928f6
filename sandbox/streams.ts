/**
 * Activity streams: second-by-second series generated from an activity's recording plan, consistent with
 * its summary (the distance stream ends at the activity's distance, `moving` counts its moving time, the
 * heart-rate stream's mean and peak are its average and max...). Generated on first use and cached, so
 * start-up stays fast even with a 6-hour ride (21,600 points per stream).
 */
import type { Activity, RecordingPlan } from "./activity-model.ts";
import { round, routeEvaluator } from "./route-geometry.ts";
import { rawSpeedProfile } from "./speed-model.ts";
import { createPrng } from "./prng.ts";

export interface Series {
  length: number;
  time: number[];
  distance: number[];
  latlng: Array<[number, number]>;
  altitude: number[];
  velocity_smooth: number[];
  heartrate: number[];
  cadence: number[];
  watts: number[];
  temp: number[];
  moving: boolean[];
  grade_smooth: number[];
}

/** Every series of the activity (the ones it did not record are empty arrays). */
export function generateSeries(activity: Activity): Series | null {
  const plan = activity.recording;
  if (!plan) return null;
  const n = activity.elapsedTime;
  const has = new Set(plan.streams);
  const prng = createPrng(plan.seed ^ 0xbeef);
  const { time, moving } = timeAndMoving(plan, n);
  const { exactDistance, velocity } = speedAndDistance(activity, plan, n);
  const total = activity.distance;
  const series: Series = {
    length: n,
    time,
    distance: has.has("distance") ? mapToArray(exactDistance, (d) => round(d, 1)) : [],
    latlng: [],
    altitude: [],
    velocity_smooth: has.has("velocity_smooth") ? velocity : [],
    heartrate: [],
    cadence: [],
    watts: [],
    temp: [],
    moving: has.has("moving") ? moving : [],
    grade_smooth: [],
  };
  const grade = plan.route ? addRouteSeries(series, plan.route, total, exactDistance, has) : new Float64Array(n);
  const meanSpeed = n > 0 ? total / Math.max(1, n) : 0;
  const relativeSpeed = (t: number): number => (meanSpeed > 0 ? (velocity[t] ?? 0) / meanSpeed - 1 : 0);

  if (plan.heartrate && has.has("heartrate")) series.heartrate = heartrateSeries(plan, n, moving, grade, relativeSpeed, prng.next);
  if (plan.cadence && has.has("cadence")) series.cadence = cadenceSeries(plan, activity, n, moving, grade, prng.next);
  if (plan.watts && has.has("watts")) series.watts = wattsSeries(plan, n, moving, grade, series.cadence, relativeSpeed, prng.next);
  if (plan.temperature && has.has("temp")) {
    const { start, change } = plan.temperature;
    for (let t = 0; t < n; t++) series.temp.push(Math.round(start + (change * t) / Math.max(1, n - 1)));
  }
  return series;
}

/** Each second, and whether the athlete was moving then (not within one of the plan's stops). */
function timeAndMoving(plan: RecordingPlan, n: number): { time: number[]; moving: boolean[] } {
  const time: number[] = [];
  const moving: boolean[] = [];
  let stopIndex = 0;
  for (let t = 0; t < n; t++) {
    time.push(t);
    const stop = plan.stops[stopIndex];
    let isMoving = true;
    if (stop && t >= stop.start) {
      if (t < stop.start + stop.length) isMoving = false;
      else stopIndex++;
    }
    moving.push(isMoving);
  }
  return { time, moving };
}

/** Speed and distance: the shared profile, scaled so the last distance point is the activity's distance. */
function speedAndDistance(activity: Activity, plan: RecordingPlan, n: number): { exactDistance: Float64Array; velocity: number[] } {
  const profile = rawSpeedProfile(plan, n);
  let rawTotal = 0;
  for (let t = 0; t < n; t++) rawTotal += profile[t] ?? 0;
  const scale = rawTotal > 0 ? activity.distance / rawTotal : 0;
  const exactDistance = new Float64Array(n);
  const velocity: number[] = [];
  let covered = 0;
  let peakAt = 0;
  for (let t = 0; t < n; t++) {
    const v = (profile[t] ?? 0) * scale;
    covered += v;
    exactDistance[t] = covered;
    // velocity_smooth is smoothed, not the distance's derivative: it tops out at the summary's max_speed.
    velocity.push(Math.min(round(v, 2), activity.maxSpeed));
    if (v > (profile[peakAt] ?? 0) * scale) peakAt = t;
  }
  if (n > 0 && activity.maxSpeed > 0) velocity[peakAt] = activity.maxSpeed;
  return { exactDistance, velocity };
}

/** The series read off the route at each second's distance (position, altitude, grade); returns the exact grade. */
function addRouteSeries(
  series: Series,
  route: NonNullable<RecordingPlan["route"]>,
  total: number,
  exactDistance: Float64Array,
  has: ReadonlySet<string>,
): Float64Array {
  const grade = new Float64Array(exactDistance.length);
  const where = routeEvaluator(route, total);
  for (let t = 0; t < exactDistance.length; t++) grade[t] = where.gradeAt(exactDistance[t] ?? 0);
  if (has.has("latlng")) series.latlng = mapToArray(exactDistance, (d) => where.positionAt(d));
  if (has.has("altitude")) series.altitude = mapToArray(exactDistance, (d) => round(where.altitudeAt(d), 1));
  if (has.has("grade_smooth")) series.grade_smooth = mapToArray(grade, (g) => round(clamp(g, -35, 35), 1));
  return grade;
}

function heartrateSeries(
  plan: RecordingPlan,
  n: number,
  moving: boolean[],
  grade: Float64Array,
  relativeSpeed: (t: number) => number,
  random: () => number,
): number[] {
  const hr = plan.heartrate!;
  const raw = new Float64Array(n);
  let noise = 0;
  let current = hr.resting + 35;
  const indoor = plan.route === null && plan.seriesType === "time";
  for (let t = 0; t < n; t++) {
    noise = 0.985 * noise + 0.015 * (random() - 0.5) * 8;
    const warm = 1 - Math.exp(-t / 240);
    let effort: number;
    if (indoor) {
      // Sets and rests: a wave of about 2.5 minutes.
      effort = 1 + 0.3 * Math.sin((2 * Math.PI * t) / 150) + noise * 0.25;
    } else {
      // Harder when faster and uphill: climbs show in the heart rate.
      effort = 1 + 0.8 * relativeSpeed(t) + 0.05 * (grade[t] ?? 0) + noise * 0.25;
    }
    const target = moving[t] ? hr.resting + (hr.average - hr.resting) * warm * effort : hr.resting + 25;
    current += (target - current) * (moving[t] ? 0.08 : 0.02);
    raw[t] = current;
  }
  return fitMeanAndMax(raw, null, hr.average, hr.max, 45);
}

function cadenceSeries(
  plan: RecordingPlan,
  activity: Activity,
  n: number,
  moving: boolean[],
  grade: Float64Array,
  random: () => number,
): number[] {
  const cadence = plan.cadence!;
  const coasts = activity.type === "Ride" || activity.type === "VirtualRide";
  const raw = new Float64Array(n);
  let noise = 0;
  for (let t = 0; t < n; t++) {
    noise = 0.9 * noise + 0.1 * (random() - 0.5) * 2;
    if (!moving[t] || (coasts && (grade[t] ?? 0) < -3.5)) {
      raw[t] = 0;
      continue;
    }
    raw[t] = cadence.average + cadence.spread * (noise * 2 + 0.15 * Math.sin(t / 97));
  }
  // Strava averages cadence over the pedalling/running seconds: shift those to hit the average.
  let sum = 0;
  let count = 0;
  for (let t = 0; t < n; t++) {
    if ((raw[t] ?? 0) > 0) {
      sum += raw[t] ?? 0;
      count++;
    }
  }
  const shift = count > 0 ? cadence.average - sum / count : 0;
  return mapToArray(raw, (c) => (c > 0 ? Math.max(1, Math.round(c + shift)) : 0));
}

function wattsSeries(
  plan: RecordingPlan,
  n: number,
  moving: boolean[],
  grade: Float64Array,
  cadence: number[],
  relativeSpeed: (t: number) => number,
  random: () => number,
): number[] {
  const watts = plan.watts!;
  const raw = new Float64Array(n);
  let noise = 0;
  for (let t = 0; t < n; t++) {
    noise = 0.85 * noise + 0.15 * (random() - 0.5) * 2;
    const pedalling = moving[t] && (cadence.length === 0 || (cadence[t] ?? 0) > 0);
    raw[t] = pedalling ? Math.max(5, watts.average * (1 + 0.09 * (grade[t] ?? 0) + 0.25 * relativeSpeed(t) + 0.35 * noise)) : 0;
  }
  // Strava's average_watts counts coasting as zero over the moving time.
  return fitMeanAndMax(raw, moving, watts.average, watts.max, 1);
}

/**
 * Shifts the positive samples so that their mean (over all samples, or the moving ones, zeros included)
 * is the summary's average, capped at the summary's max, with the highest sample exactly at that max:
 * the stream's mean and peak then match the activity (to rounding). Zeros (coasting, stopped) stay zero.
 */
function fitMeanAndMax(raw: Float64Array, over: boolean[] | null, mean: number, max: number, floor: number): number[] {
  let count = 0;
  let peakAt = -1;
  for (let t = 0; t < raw.length; t++) {
    if (over && !over[t]) continue;
    count++;
    const v = raw[t]!;
    if (v > 0 && (peakAt < 0 || v > raw[peakAt]!)) peakAt = t;
  }
  const out: number[] = [];
  if (peakAt < 0) {
    for (let t = 0; t < raw.length; t++) out.push(0);
    return out;
  }
  // total(shift) is piecewise linear and increasing: step along it (Newton on the unclamped samples).
  const target = mean * count;
  let shift = 0;
  for (let iteration = 0; iteration < 12; iteration++) {
    let sum = 0;
    let free = 0;
    for (let t = 0; t < raw.length; t++) {
      if (over && !over[t]) continue;
      const v = raw[t]!;
      if (v <= 0) continue;
      const w = v + shift;
      if (w >= max) sum += max;
      else if (w <= floor) sum += floor;
      else {
        sum += w;
        free++;
      }
    }
    const gap = target - sum;
    if (Math.abs(gap) < 0.01 * count || free === 0) break;
    shift += gap / free;
  }
  for (let t = 0; t < raw.length; t++) {
    const v = raw[t]!;
    out.push(v > 0 ? Math.round(clamp(v + shift, floor, max)) : 0);
  }
  out[peakAt] = Math.round(max);
  return out;
}

/** A packed array from a typed one (faster to build and serialise than Array.from's holey result). */
function mapToArray<T>(values: Float64Array, f: (v: number) => T): T[] {
  const out: T[] = [];
  for (let i = 0; i < values.length; i++) out.push(f(values[i]!));
  return out;
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}
