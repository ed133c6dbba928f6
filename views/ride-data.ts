/**
 * `get_activity_streams`'s text result read for the ride view: Strava's (or intervals.icu's) array of stream objects, each with
 * `data` (at a resolution, or every sample), `summary` (computed by the server from every sample), or both.
 * What the view draws and the numbers it shows come from here. Pure functions: no DOM.
 *
 * Numbers from a reduced answer are only those it keeps exactly: the first and last samples (duration,
 * distance) and each stream's highs and lows (the reduction keeps every stream's extremes). Means and totals
 * come from the summary, or from the data when it holds every sample.
 */
import {
  decimal,
  distanceUnit,
  elevation,
  elevationUnit,
  formatDistance,
  formatDuration,
  formatElevation,
  formatPace,
  pace,
  paceUnit,
  roadDistance,
  speed,
  speedUnit,
  grouped,
  type UnitSystem,
} from "./units.ts";

export interface StreamObject {
  type: string;
  data?: unknown[];
  summary?: Record<string, unknown>;
  original_size?: number;
  resolution?: string;
  series_type?: string;
}

export interface Streams {
  byType: Map<string, StreamObject>;
  /** Samples per stream in the answer (0 when it carries summaries only). */
  samples: number;
  /** Strava's count of recorded samples. */
  originalSize: number | undefined;
  /** The resolution the answer was reduced to; undefined when it holds every sample. */
  resolution: string | undefined;
  hasSummary: boolean;
}

export function parseStreams(text: string): Streams {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed)) throw new Error("The answer is not a list of streams.");
  const byType = new Map<string, StreamObject>();
  for (const item of parsed) {
    if (typeof item === "object" && item !== null && typeof (item as StreamObject).type === "string")
      byType.set((item as StreamObject).type, item as StreamObject);
  }
  const all = [...byType.values()];
  const samples = Math.max(0, ...all.map((stream) => stream.data?.length ?? 0));
  const originalSize = all.find((stream) => typeof stream.original_size === "number")?.original_size;
  // Fewer samples than Strava recorded: reduced, to the level each stream names (Strava's own answer says "high").
  // intervals.icu's streams carry no count and no level of their own: a level there is the server's reduction.
  const reduced =
    samples > 0 && (originalSize !== undefined ? samples < originalSize : all.some((stream) => typeof stream.resolution === "string"));
  return {
    byType,
    samples,
    originalSize,
    resolution: reduced ? (all.find((stream) => stream.data !== undefined)?.resolution ?? "reduced") : undefined,
    hasSummary: all.some((stream) => stream.summary !== undefined),
  };
}

function numbers(stream: StreamObject | undefined): Array<number | null> | undefined {
  return stream?.data?.map((value) => (typeof value === "number" && Number.isFinite(value) ? value : null));
}

function summaryNumber(stream: StreamObject | undefined, key: string): number | undefined {
  const value = stream?.summary?.[key];
  return typeof value === "number" ? value : undefined;
}

function extreme(values: ReadonlyArray<number | null> | undefined, pick: "max" | "min"): { index: number; value: number } | undefined {
  let best: { index: number; value: number } | undefined;
  values?.forEach((value, index) => {
    if (value === null) return;
    if (best === undefined || (pick === "max" ? value > best.value : value < best.value)) best = { index, value };
  });
  return best;
}

function mean(values: ReadonlyArray<number | null>): number | undefined {
  const present = values.filter((value): value is number => value !== null);
  return present.length > 0 ? present.reduce((sum, value) => sum + value, 0) / present.length : undefined;
}

/** Whether the athlete was on foot: a running pace reads better than a speed. */
export function onFoot(streams: Streams): boolean {
  const velocity = streams.byType.get("velocity_smooth");
  const moving = numbers(velocity)?.filter((value): value is number => value !== null && value > 0.5);
  const typical = summaryNumber(velocity, "mean") ?? (moving && moving.length > 0 ? mean(moving) : undefined);
  // Below 5 m/s (18 km/h) on average and without a power meter: a run, a hike or a walk, not a ride.
  return typical !== undefined && typical < 5 && !streams.byType.has("watts");
}

export type XAxis = "time" | "distance";

/** The x values of every sample: seconds from the start, or meters; a sample a second when there is no time. */
export function xValues(streams: Streams, axis: XAxis): number[] {
  const source = numbers(streams.byType.get(axis === "distance" ? "distance" : "time"));
  if (source === undefined) return Array.from({ length: streams.samples }, (_, index) => index);
  let last = 0;
  return source.map((value) => (last = value ?? last));
}

export interface Series {
  key: "heartrate" | "watts" | "speed" | "pace" | "altitude";
  label: string;
  unit: string;
  values: Array<number | null>;
  /** The peak marked on the chart: the highest (the fastest pace), with its label. */
  peak: { index: number; value: number; text: string } | undefined;
  /** Faster pace is a lower number: drawn upside down so up is always better. */
  inverted: boolean;
  format: (value: number) => string;
  /** Area under the line (altitude) or a line. */
  area: boolean;
}

/** The charted series present in the answer, in the order drawn. */
export function chartSeries(streams: Streams, system: UnitSystem, showPace: boolean): Series[] {
  const out: Series[] = [];
  const heartrate = numbers(streams.byType.get("heartrate"));
  if (heartrate) out.push(series("heartrate", "Heart rate", "bpm", heartrate, "max", (value) => `${Math.round(value)}`));
  const watts = numbers(streams.byType.get("watts"));
  if (watts) out.push(series("watts", "Power", "W", watts, "max", (value) => `${Math.round(value)}`));
  const velocity = numbers(streams.byType.get("velocity_smooth"));
  if (velocity && showPace) {
    const paces = velocity.map((value) => (value === null ? null : (pace(value, system) ?? null)));
    const made = series("pace", "Pace", paceUnit(system), paces, "min", formatPace);
    out.push({ ...made, inverted: true });
  } else if (velocity) {
    out.push(
      series(
        "speed",
        "Speed",
        speedUnit(system),
        velocity.map((value) => (value === null ? null : speed(value, system))),
        "max",
        (value) => decimal(value, 1),
      ),
    );
  }
  const altitude = numbers(streams.byType.get("altitude"));
  if (altitude) {
    const made = series(
      "altitude",
      "Elevation",
      elevationUnit(system),
      altitude.map((value) => (value === null ? null : elevation(value, system))),
      "max",
      (value) => grouped(value),
    );
    out.push({ ...made, area: true });
  }
  return out;
}

function series(
  key: Series["key"],
  label: string,
  unit: string,
  values: Array<number | null>,
  pick: "max" | "min",
  format: (value: number) => string,
): Series {
  const found = extreme(values, pick);
  const peak = found && {
    ...found,
    text: `${pick === "min" ? "Fastest" : key === "altitude" ? "Highest" : "Max"} ${format(found.value)} ${unit}`,
  };
  return { key, label, unit, values, peak, inverted: false, format, area: false };
}

export interface KeyNumber {
  label: string;
  value: string;
}

/** The numbers a coach quotes first, from the summary when there is one, else what the data holds exactly. */
export function keyNumbers(streams: Streams, system: UnitSystem): KeyNumber[] {
  const stream = (type: string): StreamObject | undefined => streams.byType.get(type);
  const everySample = streams.samples > 0 && streams.resolution === undefined;
  const out: KeyNumber[] = [];
  const push = (label: string, value: number | undefined, show: (value: number) => string): void => {
    if (value !== undefined) out.push({ label, value: show(value) });
  };
  const last = (type: string): number | undefined => {
    const values = numbers(stream(type))?.filter((value): value is number => value !== null);
    return values && values.length > 0 ? values[values.length - 1] : undefined;
  };
  const maxOf = (type: string): number | undefined => summaryNumber(stream(type), "max") ?? extreme(numbers(stream(type)), "max")?.value;
  const meanOf = (type: string): number | undefined =>
    summaryNumber(stream(type), "mean") ?? (everySample ? mean(numbers(stream(type)) ?? []) : undefined);

  push("Duration", summaryNumber(stream("time"), "duration") ?? last("time"), formatDuration);
  const movingTime = stream("moving")?.summary?.["moving_time"];
  push("Moving time", typeof movingTime === "number" ? movingTime : undefined, formatDuration);
  push("Distance", summaryNumber(stream("distance"), "total") ?? last("distance"), (meters) => formatDistance(meters, system));
  push("Climbing", summaryNumber(stream("altitude"), "ascent"), (meters) => formatElevation(meters, system));
  push("Avg heart rate", meanOf("heartrate"), (value) => `${Math.round(value)} bpm`);
  push("Max heart rate", maxOf("heartrate"), (value) => `${Math.round(value)} bpm`);
  const heartPeaks = stream("heartrate")?.summary?.["peak_means"] as Record<string, number | null> | undefined;
  push("Best 20 min heart rate", heartPeaks?.["1200s"] ?? undefined, (value) => `${Math.round(value)} bpm`);
  push("Avg power", meanOf("watts"), (value) => `${Math.round(value)} W`);
  push("Weighted avg power", summaryNumber(stream("watts"), "weighted_mean"), (value) => `${Math.round(value)} W`);
  push("Max power", maxOf("watts"), (value) => `${Math.round(value)} W`);
  const powerPeaks = stream("watts")?.summary?.["peak_means"] as Record<string, number | null> | undefined;
  push("Best 20 min power", powerPeaks?.["1200s"] ?? undefined, (value) => `${Math.round(value)} W`);
  push("Work", summaryNumber(stream("watts"), "work_kj"), (value) => `${grouped(value)} kJ`);
  if (onFoot(streams)) {
    const average = meanOf("velocity_smooth");
    push("Avg pace", average === undefined ? undefined : pace(average, system), (value) => `${formatPace(value)} ${paceUnit(system)}`);
  } else {
    push("Avg speed", meanOf("velocity_smooth"), (value) => `${decimal(speed(value, system), 1)} ${speedUnit(system)}`);
    push("Max speed", maxOf("velocity_smooth"), (value) => `${decimal(speed(value, system), 1)} ${speedUnit(system)}`);
  }
  push("Highest point", maxOf("altitude"), (meters) => formatElevation(meters, system));
  const decoupling = summaryNumber(stream("heartrate"), "decoupling_percent");
  const against = stream("heartrate")?.summary?.["decoupling_against"];
  push(`Heart rate drift vs ${against === "watts" ? "power" : "speed"}`, decoupling, (value) => `${decimal(value, 1)} %`);
  return out;
}

/** A distance tick's label in the road unit. */
export function distanceLabel(meters: number, system: UnitSystem): string {
  return `${decimal(roadDistance(meters, system), 1)} ${distanceUnit(system)}`;
}

/**
 * The samples to draw in `columns` pixels: every one when they are few, else per column the first and each
 * series' lowest and highest (the peaks survive any width), in order.
 */
export function drawnIndices(samples: number, series: ReadonlyArray<ReadonlyArray<number | null>>, columns: number): number[] {
  if (samples <= columns * 4) return Array.from({ length: samples }, (_, index) => index);
  const kept = new Set<number>([0, samples - 1]);
  const perColumn = samples / columns;
  for (let column = 0; column < columns; column++) {
    const start = Math.floor(column * perColumn);
    const end = Math.min(samples, Math.floor((column + 1) * perColumn));
    kept.add(start);
    for (const values of series) {
      let low = -1;
      let high = -1;
      for (let index = start; index < end; index++) {
        const value = values[index];
        if (value === null || value === undefined) continue;
        if (low === -1 || value < (values[low] as number)) low = index;
        if (high === -1 || value > (values[high] as number)) high = index;
      }
      if (low !== -1) kept.add(low);
      if (high !== -1) kept.add(high);
    }
  }
  return [...kept].sort((a, b) => a - b);
}
