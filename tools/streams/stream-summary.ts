/**
 * A stream reduced to the numbers a coach reasons with, computed from every recorded sample, so a
 * 6-hour ride's streams fit in a few kilobytes instead of 1.5 MB.
 *
 * Every stream gets `min`, `max`, `mean`, `first_half_mean` and `second_half_mean` (halves of the
 * samples, so drift shows). Per type:
 * - time: `duration` (s). distance: `total` (m). altitude: `ascent` and `descent` (m, the sum of rises
 *   and falls between samples, unsmoothed: Strava's `total_elevation_gain` is smoothed and lower).
 * - heartrate: `peak_means` (best mean over 1, 5, 20 and 60 minutes) and, when watts (else
 *   velocity_smooth) is in the same answer, aerobic decoupling (Friel's Pw:Hr / Pa:Hr: how much the
 *   output per heartbeat fell from the first half to the second, in percent).
 * - watts: `peak_means` (5 s to 60 min), `weighted_mean` (Strava's weighted average watts: the 30 s
 *   rolling mean raised to the 4th power, averaged, 4th root), `work_kj`, `nonzero_mean` and
 *   `zero_share` (coasting). cadence: `nonzero_mean` and `zero_share`.
 * - moving (booleans): `mean` and the half means are shares of samples moving (0 to 1), `min`/`max` are
 *   false/true as recorded, and `moving_time` is the seconds spent moving.
 * - latlng (pairs): `min` and `max` are the corners of the bounding box ([lat, lng]), the means are
 *   centroids, plus `start` and `end`.
 * Samples that are not values (null gaps) are left out and counted in `missing`. Time above heart-rate
 * or power thresholds is not given: the thresholds are the athlete's zones, which get_activity_zones
 * reports from Strava itself.
 */

export type StreamSummary = Record<string, unknown>;

/** Durations (s) of the best-mean windows, as coaches quote them. */
const heartratePeakWindows = [60, 300, 1200, 3600] as const;
const wattsPeakWindows = [5, 60, 300, 1200, 3600] as const;

/**
 * `type`'s data summarised; `time` is the time stream (seconds per sample) when the answer has one,
 * `others` the other streams' data by type (for decoupling).
 */
export function summarizeStream(
  type: string,
  data: readonly unknown[],
  time: readonly unknown[] | undefined,
  others: ReadonlyMap<string, readonly unknown[]>,
): StreamSummary {
  if (type === "latlng") return latlngSummary(data);
  if (type === "moving") return movingSummary(data, time);
  const summary = numericSummary(data);
  const values = data;
  switch (type) {
    case "time":
      summary["duration"] = spread(values);
      break;
    case "distance":
      summary["total"] = spread(values);
      break;
    case "altitude":
      Object.assign(summary, climbing(values));
      break;
    case "heartrate": {
      summary["peak_means"] = peakMeans(values, time, heartratePeakWindows);
      const against = others.has("watts") ? "watts" : others.has("velocity_smooth") ? "velocity_smooth" : undefined;
      if (against) {
        const percent = decoupling(others.get(against)!, values);
        if (percent !== undefined) Object.assign(summary, { decoupling_percent: percent, decoupling_against: against });
      }
      break;
    }
    case "watts":
      summary["peak_means"] = peakMeans(values, time, wattsPeakWindows);
      summary["weighted_mean"] = weightedMean(values, time);
      summary["work_kj"] = round(work(values, time) / 1000, 1);
      Object.assign(summary, zeroShare(values));
      break;
    case "cadence":
      Object.assign(summary, zeroShare(values));
      break;
  }
  return summary;
}

/** min, max, mean and the two half means of the numbers in `data`. */
function numericSummary(data: readonly unknown[]): StreamSummary {
  const half = Math.floor(data.length / 2);
  let min = Infinity;
  let max = -Infinity;
  const sums = [0, 0];
  const counts = [0, 0];
  for (let index = 0; index < data.length; index++) {
    const value = data[index];
    if (typeof value !== "number") continue;
    if (value < min) min = value;
    if (value > max) max = value;
    const part = index < half ? 0 : 1;
    sums[part]! += value;
    counts[part]!++;
  }
  const count = counts[0]! + counts[1]!;
  const summary: StreamSummary = {
    min: count > 0 ? min : null,
    max: count > 0 ? max : null,
    mean: meanOf(sums[0]! + sums[1]!, count),
    first_half_mean: meanOf(sums[0]!, counts[0]!),
    second_half_mean: meanOf(sums[1]!, counts[1]!),
  };
  if (count < data.length) summary["missing"] = data.length - count;
  return summary;
}

function movingSummary(data: readonly unknown[], time: readonly unknown[] | undefined): StreamSummary {
  const half = Math.floor(data.length / 2);
  const moving = [0, 0];
  const counts = [0, 0];
  let any = false;
  let all = true;
  let seconds = 0;
  for (let index = 0; index < data.length; index++) {
    const value = data[index];
    if (typeof value !== "boolean") continue;
    const part = index < half ? 0 : 1;
    counts[part]!++;
    if (value) {
      moving[part]!++;
      any = true;
      seconds += sampleSeconds(time, index);
    } else all = false;
  }
  const count = counts[0]! + counts[1]!;
  const summary: StreamSummary = {
    min: count > 0 ? all : null,
    max: count > 0 ? any : null,
    mean: share(moving[0]! + moving[1]!, count),
    first_half_mean: share(moving[0]!, counts[0]!),
    second_half_mean: share(moving[1]!, counts[1]!),
    moving_time: Math.round(seconds),
  };
  if (count < data.length) summary["missing"] = data.length - count;
  return summary;
}

function latlngSummary(data: readonly unknown[]): StreamSummary {
  const points = data.filter(isLatLng);
  const half = Math.floor(data.length / 2);
  const box = { minLat: Infinity, minLng: Infinity, maxLat: -Infinity, maxLng: -Infinity };
  const sums = [
    [0, 0, 0],
    [0, 0, 0],
  ];
  data.forEach((point, index) => {
    if (!isLatLng(point)) return;
    const [lat, lng] = point;
    box.minLat = Math.min(box.minLat, lat);
    box.minLng = Math.min(box.minLng, lng);
    box.maxLat = Math.max(box.maxLat, lat);
    box.maxLng = Math.max(box.maxLng, lng);
    const part = sums[index < half ? 0 : 1]!;
    part[0]! += lat;
    part[1]! += lng;
    part[2]!++;
  });
  const centroid = (lat: number, lng: number, count: number): [number, number] | null =>
    count > 0 ? [round(lat / count, 6), round(lng / count, 6)] : null;
  const [first, second] = sums as [[number, number, number], [number, number, number]];
  const summary: StreamSummary = {
    min: points.length > 0 ? [box.minLat, box.minLng] : null,
    max: points.length > 0 ? [box.maxLat, box.maxLng] : null,
    mean: centroid(first[0] + second[0], first[1] + second[1], first[2] + second[2]),
    first_half_mean: centroid(first[0], first[1], first[2]),
    second_half_mean: centroid(second[0], second[1], second[2]),
    start: points[0] ?? null,
    end: points[points.length - 1] ?? null,
  };
  if (points.length < data.length) summary["missing"] = data.length - points.length;
  return summary;
}

/**
 * The best mean over each window length (seconds), with samples placed by the time stream: a window
 * starting at a sample covers the samples recorded in the next `window` seconds, and counts only if
 * the recording lasts that long after it. Without a time stream, one sample is one second.
 */
function peakMeans(
  data: readonly unknown[],
  time: readonly unknown[] | undefined,
  windows: readonly number[],
): Record<string, number | null> {
  const at = (index: number): number => secondsAt(time, index);
  const prefix = prefixSums(data);
  const out: Record<string, number | null> = {};
  const lastTime = at(data.length - 1);
  for (const window of windows) {
    let best: number | null = null;
    let end = 0;
    for (let start = 0; start < data.length && lastTime - at(start) >= window - 1; start++) {
      if (end < start) end = start;
      while (end < data.length && at(end) < at(start) + window) end++;
      const count = prefix.counts[end]! - prefix.counts[start]!;
      if (count === 0) continue;
      const mean = (prefix.sums[end]! - prefix.sums[start]!) / count;
      if (best === null || mean > best) best = mean;
    }
    out[`${window}s`] = best === null ? null : round(best, 1);
  }
  return out;
}

/** 30-second rolling mean (by time), its 4th-power mean, 4th root: Strava's weighted average watts. */
function weightedMean(data: readonly unknown[], time: readonly unknown[] | undefined): number | null {
  const prefix = prefixSums(data);
  let start = 0;
  let sum = 0;
  let count = 0;
  for (let end = 0; end < data.length; end++) {
    while (secondsAt(time, end) - secondsAt(time, start) >= 30) start++;
    if (secondsAt(time, end) - secondsAt(time, 0) < 29) continue;
    const samples = prefix.counts[end + 1]! - prefix.counts[start]!;
    if (samples === 0) continue;
    const rolling = (prefix.sums[end + 1]! - prefix.sums[start]!) / samples;
    sum += rolling ** 4;
    count++;
  }
  return count > 0 ? round((sum / count) ** 0.25, 1) : null;
}

/** Joules: each sample's watts over the seconds until the next sample (one second for the last). */
function work(data: readonly unknown[], time: readonly unknown[] | undefined): number {
  let joules = 0;
  for (let index = 0; index < data.length; index++) {
    const value = data[index];
    if (typeof value === "number") joules += value * sampleSeconds(time, index);
  }
  return joules;
}

function zeroShare(data: readonly unknown[]): StreamSummary {
  let zeros = 0;
  let sum = 0;
  let count = 0;
  for (const value of data) {
    if (typeof value !== "number") continue;
    count++;
    if (value === 0) zeros++;
    else sum += value;
  }
  return { nonzero_mean: meanOf(sum, count - zeros), zero_share: share(zeros, count) };
}

function climbing(data: readonly unknown[]): StreamSummary {
  let ascent = 0;
  let descent = 0;
  let previous: number | undefined;
  for (const value of data) {
    if (typeof value !== "number") continue;
    if (previous !== undefined) {
      if (value > previous) ascent += value - previous;
      else descent += previous - value;
    }
    previous = value;
  }
  return { ascent: round(ascent, 1), descent: round(descent, 1) };
}

/**
 * Friel's aerobic decoupling: the efficiency factor (output / heart rate) of the first half of the
 * samples against the second's, in percent; positive when the heart worked harder for the same output.
 */
function decoupling(output: readonly unknown[], heartrate: readonly unknown[]): number | undefined {
  if (output.length !== heartrate.length) return undefined;
  const half = Math.floor(heartrate.length / 2);
  const efficiency = (from: number, to: number): number | undefined => {
    let out = 0;
    let beats = 0;
    for (let index = from; index < to; index++) {
      const o = output[index];
      const h = heartrate[index];
      if (typeof o !== "number" || typeof h !== "number") continue;
      out += o;
      beats += h;
    }
    return beats > 0 ? out / beats : undefined;
  };
  const first = efficiency(0, half);
  const second = efficiency(half, heartrate.length);
  if (first === undefined || second === undefined || first === 0) return undefined;
  return round(((first - second) / first) * 100, 1);
}

function prefixSums(data: readonly unknown[]): { sums: Float64Array; counts: Uint32Array } {
  const sums = new Float64Array(data.length + 1);
  const counts = new Uint32Array(data.length + 1);
  for (let index = 0; index < data.length; index++) {
    const value = data[index];
    const number = typeof value === "number";
    sums[index + 1] = sums[index]! + (number ? value : 0);
    counts[index + 1] = counts[index]! + (number ? 1 : 0);
  }
  return { sums, counts };
}

/** The sample's time in seconds (its index when there is no time stream). */
function secondsAt(time: readonly unknown[] | undefined, index: number): number {
  const value = time?.[index];
  return typeof value === "number" ? value : index;
}

/** Seconds until the next sample (one for the last). */
function sampleSeconds(time: readonly unknown[] | undefined, index: number): number {
  if (time === undefined || index + 1 >= time.length) return 1;
  return Math.max(0, secondsAt(time, index + 1) - secondsAt(time, index));
}

function spread(data: readonly unknown[]): number | null {
  const numbers = data.filter((value): value is number => typeof value === "number");
  return numbers.length > 0 ? round(numbers[numbers.length - 1]! - numbers[0]!, 2) : null;
}

function isLatLng(value: unknown): value is [number, number] {
  return Array.isArray(value) && value.length === 2 && typeof value[0] === "number" && typeof value[1] === "number";
}

function meanOf(sum: number, count: number): number | null {
  return count > 0 ? round(sum / count, 2) : null;
}

function share(part: number, whole: number): number | null {
  return whole > 0 ? round(part / whole, 4) : null;
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
