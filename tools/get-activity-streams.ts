/**
 * `get_activity_streams` on Strava: get activity streams (`GET /activities/{id}/streams`). The tool as data: its
 * schema, description, the request it sends and how its answer is shaped; tools/runner/ runs it the same way from
 * every front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool, readOnly } from "./definition/tool-definition.ts";
import { StringEnum } from "../common/schema-check.ts";
import { ActivityId, activityIdHint, streamKeys } from "./arguments/parameter-schemas.ts";
import { UpstreamBodyError } from "../common/upstream/upstream-errors.ts";
import { reduceStreams, resolutionLimits, type Resolution } from "./streams/stream-reduction.ts";
import { streamSummaryShort } from "./streams/stream-summary-fields.ts";

const resolutionLevels = Object.keys(resolutionLimits) as Resolution[];

export const getActivityStreams = defineTool({
  name: "get_activity_streams",
  title: "Get activity streams",
  description:
    // The first sentences carry the advice: OpenClaw's tool search shows a model only 180 characters.
    'Samples recorded during one activity (heart rate, power, pace...). Read with summary: true or resolution "low" ' +
    "first: a long ride's full data is hundreds of thousands of tokens. Returns an array of stream objects {type, data, " +
    "series_type, original_size, resolution}. Types: time (s from start), distance (m), latlng ([lat, lng]), altitude (m), " +
    "velocity_smooth (m/s), heartrate (bpm), cadence (steps/min running, rpm cycling), watts, temp (deg C), " +
    "moving (boolean), grade_smooth (percent); those not recorded are absent. Ask only for the keys you need. summary " +
    `gives ${streamSummaryShort} in a few KB; full data only when asked.`,
  parameters: Type.Object(
    {
      id: ActivityId(),
      keys: Type.Optional(
        Type.Array(StringEnum(streamKeys), {
          uniqueItems: true,
          maxItems: streamKeys.length,
          description: 'Stream types to return, e.g. ["time", "heartrate"]. Default (or empty): all of them.',
        }),
      ),
      resolution: Type.Optional(
        StringEnum(resolutionLevels, {
          description:
            "At most 100 (low), 1,000 (medium) or 10,000 (high) samples per stream, the same instants for every stream " +
            "(time is always included), keeping the first, the last and each stream's highs and lows. Default: every sample.",
        }),
      ),
      summary: Type.Optional(
        Type.Boolean({
          description:
            "true: each stream carries `summary` (computed from every sample) instead of `data`, or beside the data of a " +
            "resolution. Default false.",
        }),
      ),
    },
    { additionalProperties: false },
  ),
  upstream: "GET /activities/{id}/streams",
  annotations: readOnly,
  request(args) {
    // The official spec requires both `keys` and `key_by_type=true`; an empty list means "all" and is
    // never sent as `keys=`.
    let keys: readonly string[] = args.keys && args.keys.length > 0 ? args.keys : streamKeys;
    // A reduced answer needs the time stream: it places the kept samples and measures peak windows.
    if (reduces(args) && !keys.includes("time")) keys = ["time", ...keys];
    return {
      method: "GET",
      path: `/activities/${args.id}/streams`,
      query: { keys: keys.join(","), key_by_type: true },
    };
  },
  resultText(bodyText, args) {
    return reduces(args) ? reduceStreams(bodyText, { resolution: args.resolution, summary: args.summary }) : streamsAsArray(bodyText);
  },
  errorHint: activityIdHint,
  view: "ride",
});

function reduces(args: { resolution?: string | undefined; summary?: boolean | undefined }): boolean {
  return args.resolution !== undefined || args.summary === true;
}

/**
 * With `key_by_type=true` Strava answers `{"time": {data, series_type, ...}, ...}`; the tool returns the
 * spec's array of stream objects `[{"type": "time", data, ...}]`, which is also exactly what Strava sends
 * without `key_by_type`. Parsed and written back with JSON.parse and JSON.stringify: streams hold no ids, so
 * every value comes back the same (the exact-digit parse of tools/answers/exact-json.ts costs about ten times as much
 * on a long ride's streams and would change nothing here).
 */
export function streamsAsArray(bodyText: string): string {
  const parsed: unknown = JSON.parse(bodyText);
  if (Array.isArray(parsed)) return bodyText;
  if (typeof parsed !== "object" || parsed === null) {
    throw new UpstreamBodyError("Strava answered the streams request with something other than a stream list.");
  }
  const streams = Object.entries(parsed as Record<string, unknown>).map(([type, stream]) => ({
    type,
    ...(typeof stream === "object" && stream !== null && !Array.isArray(stream) ? stream : { data: stream }),
  }));
  return JSON.stringify(streams);
}
