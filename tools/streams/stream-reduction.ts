/**
 * Streams sized for a model: Strava's answer reduced to a resolution (one index set for every stream)
 * and/or to per-stream summaries. The default answer (every sample) never comes through here.
 *
 * The answer is parsed with JSON.parse: streams hold no ids, and every number written back is the
 * same value (JavaScript may spell it differently, `1.50` as `1.5`).
 */
import { keptIndices } from "./stream-downsampling.ts";
import { summarizeStream } from "./stream-summary.ts";
import { UpstreamBodyError } from "../../common/upstream/upstream-errors.ts";

/** The most samples per stream each resolution keeps (the levels of Strava's retired `resolution`). */
export const resolutionLimits = { low: 100, medium: 1_000, high: 10_000 } as const;
export type Resolution = keyof typeof resolutionLimits;

export interface StreamReduction {
  resolution?: Resolution | undefined;
  summary?: boolean | undefined;
}

interface Stream {
  type: string;
  data: unknown[];
  /** Strava's other fields (series_type, original_size, resolution), in its order. */
  rest: Record<string, unknown>;
}

/** Strava's array of stream objects, with `data` reduced or replaced by `summary` as asked. */
export function reduceStreams(bodyText: string, reduction: StreamReduction): string {
  const streams = parseStreams(bodyText);
  const byType = new Map(streams.map((stream) => [stream.type, stream.data]));
  const time = byType.get("time");
  const length = Math.max(0, ...streams.map((stream) => stream.data.length));
  const indices = reduction.resolution
    ? keptIndices(
        streams.map((stream) => stream.data),
        length,
        resolutionLimits[reduction.resolution],
      )
    : undefined;
  return JSON.stringify(
    streams.map(({ type, data, rest }) => {
      const out: Record<string, unknown> = { type };
      if (indices) out["data"] = indices.filter((index) => index < data.length).map((index) => data[index]);
      if (reduction.summary) {
        const others = new Map([...byType].filter(([other]) => other !== type));
        out["summary"] = summarizeStream(type, data, time, others);
      }
      Object.assign(out, rest);
      // original_size stays Strava's count of recorded samples; resolution says what was applied.
      if (indices) out["resolution"] = reduction.resolution;
      return out;
    }),
  );
}

/** Strava's answer, keyed by type (`key_by_type=true`) or already an array, as a list of streams. */
function parseStreams(bodyText: string): Stream[] {
  const parsed: unknown = JSON.parse(bodyText);
  let entries: Array<[string, unknown]>;
  if (Array.isArray(parsed)) entries = parsed.map((item: unknown) => [String((item as { type?: unknown } | null)?.type ?? ""), item]);
  else if (typeof parsed === "object" && parsed !== null) entries = Object.entries(parsed);
  else throw new UpstreamBodyError("Strava answered the streams request with something other than a stream list.");
  return entries.map(([type, value]) => {
    if (typeof value !== "object" || value === null || !Array.isArray((value as { data?: unknown }).data)) {
      throw new UpstreamBodyError(
        `Strava's ${type || "unnamed"} stream has no data list, so it cannot be reduced; ask without resolution and summary for the answer as sent.`,
      );
    }
    const { type: _type, data, ...rest } = value as { type?: unknown; data: unknown[] };
    return { type, data, rest };
  });
}
