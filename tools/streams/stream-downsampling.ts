/**
 * Which samples of an activity's streams to keep at a resolution: one set of indices for every
 * stream, so time, heart rate and power stay aligned at the kept instants.
 *
 * The algorithm is min/max decimation per bucket, the extremes half of M4 (Jugel et al., "M4: A
 * Visualization-Oriented Time Series Data Aggregation", VLDB 2014; the MinMax aggregator of
 * plotly-resampler): the samples between the first and the last are cut into equal buckets, and each
 * stream's lowest and highest sample in every bucket is kept, for all streams at once. Why this one and
 * not LTTB: LTTB keeps one point per bucket for one series and may drop a stream's peak (a 1,000-watt
 * sprint is exactly what a coach asks about), while min/max per bucket keeps every stream's extremes
 * by construction, and stays meaningful when several streams must share one index set. The number of
 * buckets is the largest that keeps the union within the limit; evenly spaced samples then fill what
 * is left of it, so the answer is close to the limit and the time axis is covered between the extremes.
 *
 * What counts as a peak: numeric streams (heart rate, watts, altitude, speed, cadence, grade,
 * temperature) choose samples. Streams that never decrease (time, distance) have their extremes at
 * the first and last sample, which are always kept, so they choose nothing more. `latlng` (pairs) and
 * `moving` (booleans) have no order of their own: they are carried along at the chosen instants.
 */

/** Indices (ascending) into series of length `length` to keep at most `limit` of them. */
export function keptIndices(series: ReadonlyArray<readonly unknown[]>, length: number, limit: number): number[] {
  if (length <= limit) return Array.from({ length }, (_, index) => index);
  const choosers = series.filter((values) => isNumeric(values) && !neverDecreases(values));
  // Largest bucket count whose extremes fit; the count of kept samples grows (nearly) with it.
  let best = extremes(choosers, length, 1);
  let low = 2;
  let high = Math.max(1, Math.floor(limit / 2));
  while (low <= high) {
    const buckets = Math.floor((low + high) / 2);
    const kept = extremes(choosers, length, buckets);
    if (kept.size <= limit) {
      best = kept;
      low = buckets + 1;
    } else high = buckets - 1;
  }
  if (best.size > limit) best = extremes(choosers, length, 0);
  fillEvenly(best, length, limit);
  return [...best].sort((a, b) => a - b);
}

/** First, last, and every chooser's lowest and highest sample overall and in each of `buckets` buckets. */
function extremes(choosers: ReadonlyArray<readonly unknown[]>, length: number, buckets: number): Set<number> {
  const kept = new Set<number>([0, length - 1]);
  for (const values of choosers) {
    addExtremes(kept, values, 0, length);
    const inner = length - 2;
    for (let bucket = 0; bucket < buckets; bucket++) {
      const from = 1 + Math.floor((bucket * inner) / buckets);
      const to = 1 + Math.floor(((bucket + 1) * inner) / buckets);
      addExtremes(kept, values, from, to);
    }
  }
  return kept;
}

function addExtremes(kept: Set<number>, values: readonly unknown[], from: number, to: number): void {
  let lowest = -1;
  let highest = -1;
  const end = Math.min(to, values.length);
  for (let index = from; index < end; index++) {
    const value = values[index];
    if (typeof value !== "number") continue;
    if (lowest < 0 || value < (values[lowest] as number)) lowest = index;
    if (highest < 0 || value > (values[highest] as number)) highest = index;
  }
  if (lowest >= 0) kept.add(lowest);
  if (highest >= 0) kept.add(highest);
}

/** Adds evenly spaced indices not yet kept until `limit` are kept. */
function fillEvenly(kept: Set<number>, length: number, limit: number): void {
  const missing = limit - kept.size;
  if (missing <= 0) return;
  const free = length - kept.size;
  // Walk the free indices once, taking the middle one of each of `missing` equal runs: the j-th pick is
  // the free index at position floor((j + 1/2) * free / missing). Rounded down, the last position is at
  // most free - 1 even when more than half of the free indices (or all of them) must be taken; each is
  // computed afresh from integers rather than by adding up a fractional step.
  let picked = 0;
  let target = Math.floor(free / (2 * missing));
  let seen = 0;
  for (let index = 0; index < length && picked < missing; index++) {
    if (kept.has(index)) continue;
    if (seen === target) {
      kept.add(index);
      picked++;
      target = Math.floor(((2 * picked + 1) * free) / (2 * missing));
    }
    seen++;
  }
}

/** Numbers (and gaps as null) only: not `latlng` pairs, not `moving` booleans. */
function isNumeric(values: readonly unknown[]): boolean {
  return values.some((value) => typeof value === "number") && values.every((value) => typeof value === "number" || value === null);
}

function neverDecreases(values: readonly unknown[]): boolean {
  let previous = -Infinity;
  for (const value of values) {
    if (typeof value !== "number") continue;
    if (value < previous) return false;
    previous = value;
  }
  return true;
}
