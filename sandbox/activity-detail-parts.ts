/**
 * The parts of an activity's detail that come from its streams: laps, kilometre and mile splits,
 * segment efforts and (for runs) best efforts. Computed from the generated series, so their indexes,
 * times and distances agree with what the streams endpoint returns.
 */
import type { Activity } from "./activity-model.ts";
import type { JsonValue } from "./bigint-json.ts";
import type { Series } from "./streams.ts";
import { round } from "./route-geometry.ts";
import { toIsoUtc } from "../common/time-zone.ts";
import { isoLocalWithZ } from "./strava-dates.ts";
import { segmentEffortId, segments, type Segment } from "./segments.ts";

type Json = { [key: string]: JsonValue | undefined };

interface Span {
  startIndex: number;
  endIndex: number;
}

/** Moving seconds and covered distance between two stream indexes. */
function measure(series: Series, span: Span): { elapsed: number; moving: number; distance: number; maxSpeed: number } {
  let moving = 0;
  let maxSpeed = 0;
  for (let t = span.startIndex + 1; t <= span.endIndex; t++) {
    if (series.moving.length === 0 || series.moving[t]) moving++;
    const v = series.velocity_smooth[t] ?? 0;
    if (v > maxSpeed) maxSpeed = v;
  }
  const distance = (series.distance[span.endIndex] ?? 0) - (series.distance[span.startIndex] ?? 0);
  return { elapsed: span.endIndex - span.startIndex, moving, distance: round(distance, 1), maxSpeed };
}

function mean(values: number[], span: Span, skipZeros: boolean): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  let count = 0;
  for (let t = span.startIndex; t <= span.endIndex; t++) {
    const v = values[t] ?? 0;
    if (skipZeros && v === 0) continue;
    sum += v;
    count++;
  }
  return count > 0 ? round(sum / count, 1) : null;
}

function max(values: number[], span: Span): number | null {
  if (values.length === 0) return null;
  let best = -Infinity;
  for (let t = span.startIndex; t <= span.endIndex; t++) best = Math.max(best, values[t] ?? 0);
  return best;
}

function climb(series: Series, span: Span): number {
  let gain = 0;
  for (let t = span.startIndex + 1; t <= span.endIndex; t++) {
    const diff = (series.altitude[t] ?? 0) - (series.altitude[t - 1] ?? 0);
    if (diff > 0) gain += diff;
  }
  return round(gain, 1);
}

/** Index of the first point at or beyond distance d. */
function indexAtDistance(series: Series, d: number, from = 0): number {
  const distances = series.distance;
  let lo = from;
  let hi = distances.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((distances[mid] ?? 0) < d) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function dates(activity: Activity, index: number): { start_date: string; start_date_local: string } {
  const at = activity.startMs + index * 1000;
  return { start_date: toIsoUtc(at), start_date_local: isoLocalWithZ(at, activity.utcOffset) };
}

/** Lap spans: Garmin auto-laps every kilometre for runs, every 20 km on rides, one lap per set for swims. */
function lapSpans(activity: Activity, series: Series): Span[] {
  const last = series.length - 1;
  if (last <= 0) return [];
  const lapDistance = activity.type === "Run" ? 1000 : activity.type === "Ride" ? 20_000 : 0;
  const spans: Span[] = [];
  if (activity.type === "Swim" && activity.recording) {
    let start = 0;
    for (const stop of activity.recording.stops) {
      spans.push({ startIndex: start, endIndex: stop.start + stop.length - 1 });
      start = stop.start + stop.length - 1;
    }
    spans.push({ startIndex: start, endIndex: last });
    return spans;
  }
  if (lapDistance === 0 || series.distance.length === 0) return [{ startIndex: 0, endIndex: last }];
  let start = 0;
  for (let mark = lapDistance; mark < activity.distance; mark += lapDistance) {
    const end = indexAtDistance(series, mark, start);
    if (end >= last) break;
    spans.push({ startIndex: start, endIndex: end });
    start = end;
  }
  spans.push({ startIndex: start, endIndex: last });
  return spans;
}

// Laps, segment efforts and best efforts describe a stretch of the activity the same way; these are the
// fields they share, in Strava's order (the fields after them differ).
function effortStretch(activity: Activity, span: Span, m: ReturnType<typeof measure>, id: number | bigint, name: string): Json {
  return {
    id,
    resource_state: 2,
    name,
    activity: { id: activity.id, resource_state: 1 },
    athlete: { id: activity.athleteId, resource_state: 1 },
    elapsed_time: m.elapsed,
    moving_time: m.moving,
    ...dates(activity, span.startIndex),
    distance: m.distance,
    start_index: span.startIndex,
    end_index: span.endIndex,
  };
}

function effortSensors(series: Series, span: Span): Json {
  return {
    average_cadence: mean(series.cadence, span, true) ?? undefined,
    device_watts: series.watts.length > 0 ? true : undefined,
    average_watts: mean(series.watts, span, false) ?? undefined,
    average_heartrate: mean(series.heartrate, span, false) ?? undefined,
    max_heartrate: max(series.heartrate, span) ?? undefined,
  };
}

export function buildLaps(activity: Activity, series: Series | null): JsonValue[] {
  if (!series) return [];
  const isRun = activity.type === "Run";
  return lapSpans(activity, series).map((span, i) => {
    const m = measure(series, span);
    const lap: Json = {
      ...effortStretch(activity, span, m, 40_000_000_000 + (activity.id - 15_000_000_000) * 4 + i, `Lap ${i + 1}`),
      total_elevation_gain: series.altitude.length > 0 ? climb(series, span) : 0,
      average_speed: m.moving > 0 ? round(m.distance / m.moving, 2) : 0,
      max_speed: m.maxSpeed,
      ...effortSensors(series, span),
      lap_index: i + 1,
      split: i + 1,
      pace_zone: isRun ? paceZone(m.moving > 0 ? m.distance / m.moving : 0) : undefined,
    };
    return lap;
  });
}

/** Splits every `length` metres (1000 for splits_metric, 1609.34 for splits_standard). */
export function buildSplits(activity: Activity, series: Series | null, length: number): JsonValue[] {
  if (!series || series.distance.length === 0 || activity.distance <= 0) return [];
  const splits: JsonValue[] = [];
  let start = 0;
  const last = series.length - 1;
  for (let i = 1; start < last; i++) {
    const end = Math.min(last, indexAtDistance(series, length * i, start));
    const span = { startIndex: start, endIndex: end };
    const m = measure(series, span);
    const speed = m.moving > 0 ? m.distance / m.moving : 0;
    splits.push({
      distance: m.distance,
      elapsed_time: m.elapsed,
      elevation_difference: series.altitude.length > 0 ? round((series.altitude[end] ?? 0) - (series.altitude[start] ?? 0), 1) : 0,
      moving_time: m.moving,
      split: i,
      average_speed: round(speed, 2),
      average_grade_adjusted_speed: round(speed * 1.01, 2),
      average_heartrate: mean(series.heartrate, span, false) ?? undefined,
      pace_zone: activity.type === "Run" ? paceZone(speed) : 0,
    });
    start = end;
  }
  return splits;
}

/** Strava's pace zones for runs (1 = easy ... 6 = anaerobic), from this athlete's threshold pace. */
function paceZone(speed: number): number {
  if (speed <= 0) return 0;
  const threshold = 3.45;
  const ratio = speed / threshold;
  return ratio < 0.78 ? 1 : ratio < 0.88 ? 2 : ratio < 0.94 ? 3 : ratio < 1.01 ? 4 : ratio < 1.1 ? 5 : 6;
}

/**
 * Segment efforts, in the order they started. With `includeAll` (Strava's `include_all_efforts=true`)
 * each effort on a segment with a near-duplicate twin is followed by the effort on the twin, marked
 * `hidden: true`; Strava's default answer leaves those out.
 */
export function buildSegmentEfforts(activity: Activity, series: Series | null, includeAll = false): JsonValue[] {
  if (!series || activity.segmentWindows.length === 0) return [];
  const last = series.length - 1;
  return activity.segmentWindows.flatMap((window, i) => {
    const segment = segments[window.segmentIndex]!;
    const span = { startIndex: Math.round(last * window.from), endIndex: Math.round(last * window.to) };
    const shown = segmentEffort(activity, series, span, segment, segmentEffortId(activity.id, i), false);
    if (!includeAll) return [shown];
    // The twin covers the middle nine tenths of the same stretch.
    const trim = Math.round((span.endIndex - span.startIndex) / 20);
    const twinSpan = { startIndex: span.startIndex + trim, endIndex: span.endIndex - trim };
    const twin: Segment = { ...segment, id: segment.twin.id, name: segment.twin.name, distance: round(segment.distance * 0.9, 1) };
    return [shown, segmentEffort(activity, series, twinSpan, twin, segmentEffortId(activity.id, 8 + i), true)];
  });
}

function segmentEffort(activity: Activity, series: Series, span: Span, segment: Segment, id: bigint, hidden: boolean): Json {
  return {
    ...effortStretch(activity, span, measure(series, span), id, segment.name),
    ...effortSensors(series, span),
    segment: {
      id: segment.id,
      resource_state: 2,
      name: segment.name,
      activity_type: segment.activityType,
      distance: segment.distance,
      average_grade: segment.averageGrade,
      maximum_grade: segment.maximumGrade,
      elevation_high: segment.elevationHigh,
      elevation_low: segment.elevationLow,
      start_latlng: segment.start,
      end_latlng: segment.end,
      climb_category: segment.climbCategory,
      city: "Boulder",
      state: "CO",
      country: "United States",
      private: false,
      hazardous: false,
      starred: false,
    },
    pr_rank: null,
    kom_rank: null,
    achievements: [],
    hidden,
  };
}

const bestEffortDistances: ReadonlyArray<[string, number]> = [
  ["400m", 400],
  ["1/2 mile", 804.672],
  ["1K", 1000],
  ["1 mile", 1609.344],
  ["2 mile", 3218.688],
  ["5K", 5000],
  ["10K", 10000],
  ["15K", 15000],
  ["10 mile", 16093.44],
  ["20K", 20000],
  ["Half-Marathon", 21097.5],
];

/** Runs only: the fastest stretch of each standard distance (two pointers over the distance stream). */
export function buildBestEfforts(activity: Activity, series: Series | null): JsonValue[] | undefined {
  if (activity.type !== "Run") return undefined;
  if (!series || series.distance.length === 0) return [];
  const efforts: JsonValue[] = [];
  const d = series.distance;
  bestEffortDistances.forEach(([name, length], k) => {
    if (activity.distance < length) return;
    let best: Span | null = null;
    let start = 0;
    for (let end = 1; end < d.length; end++) {
      while (start < end && (d[end] ?? 0) - (d[start + 1] ?? 0) >= length) start++;
      if ((d[end] ?? 0) - (d[start] ?? 0) >= length && (!best || end - start < best.endIndex - best.startIndex)) {
        best = { startIndex: start, endIndex: end };
      }
    }
    if (!best) return;
    efforts.push({
      // A best effort's distance is the standard one, not the stretch's (which is at least as long).
      ...effortStretch(activity, best, { ...measure(series, best), distance: length }, segmentEffortId(activity.id, 16 + k), name),
      pr_rank: null,
      achievements: [],
    });
  });
  return efforts;
}
