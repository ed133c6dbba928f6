/**
 * intervals.icu's streams sized for a model, with the same `resolution` and `summary` as Strava's
 * (tools/streams/stream-reduction.ts does the work). intervals.icu answers an array of `{type, data, ...}` as
 * Strava does, except for a position: `latlng` carries latitudes in `data` and longitudes in `data2`. The
 * position is paired up for the reduction (one index set for every stream, the bounding box for its summary)
 * and split back into `data` and `data2` after, so a reduced answer keeps intervals.icu's shape.
 */
import { reduceStreams, type StreamReduction } from "../streams/stream-reduction.ts";
import { UpstreamBodyError } from "../../common/upstream/upstream-errors.ts";

type Stream = Record<string, unknown> & { type: string; data: unknown[] };

export function reduceIntervalsStreams(bodyText: string, reduction: StreamReduction): string {
  const parsed: unknown = JSON.parse(bodyText);
  if (!Array.isArray(parsed))
    throw new UpstreamBodyError("intervals.icu answered the streams request with something other than a stream list.");
  const paired = parsed.map((item: unknown) => {
    const stream = item as Partial<Stream> | null;
    if (typeof stream !== "object" || stream === null || typeof stream.type !== "string" || !Array.isArray(stream.data)) {
      throw new UpstreamBodyError(
        "One of intervals.icu's streams has no type or no data list, so the streams cannot be reduced; ask without resolution and summary for the answer as sent.",
      );
    }
    if (stream.type !== "latlng" || !Array.isArray(stream["data2"])) return stream;
    const { data2, ...rest } = stream as Stream & { data2: unknown[] };
    return { ...rest, data: stream.data.map((lat, index) => [lat, data2[index] ?? null]) };
  });
  const reduced = JSON.parse(reduceStreams(JSON.stringify(paired), reduction)) as Array<Record<string, unknown>>;
  return JSON.stringify(
    reduced.map((stream) => {
      if (stream["type"] !== "latlng" || !Array.isArray(stream["data"])) return stream;
      const pairs = stream["data"] as unknown[][];
      const { data: _pairs, ...rest } = stream;
      const out: Record<string, unknown> = {};
      // In the stream's own order: data where it was, data2 right after it.
      for (const [key, value] of Object.entries({ type: rest["type"], ...rest })) {
        out[key] = value;
        if (key === "type") {
          out["data"] = pairs.map((pair) => pair[0] ?? null);
          out["data2"] = pairs.map((pair) => pair[1] ?? null);
        }
      }
      return out;
    }),
  );
}
