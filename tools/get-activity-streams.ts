import { Type } from "@sinclair/typebox";
import { defineTool, readOnly } from "./tool-definition.ts";
import { ActivityId, StringEnum, streamKeys } from "./parameters.ts";
import { compactJson } from "./compact-json.ts";
import { UpstreamBodyError } from "./upstream-errors.ts";

export const getActivityStreams = defineTool({
  name: "get_activity_streams",
  title: "Get activity streams",
  description:
    "Second-by-second data recorded during one activity, as an array of stream objects {type, data, series_type, " +
    "original_size, resolution}. Types: time (s from start), distance (m), latlng ([lat, lng]), altitude (m), " +
    "velocity_smooth (m/s), heartrate (bpm), cadence (steps/min running, rpm cycling), watts, temp (deg C), " +
    "moving (boolean), grade_smooth (percent). Ask only for the keys you need: a long ride returns tens of " +
    "thousands of points per stream. Types the activity did not record are absent.",
  parameters: Type.Object(
    {
      id: ActivityId(),
      keys: Type.Optional(
        Type.Array(StringEnum(streamKeys), {
          uniqueItems: true,
          maxItems: streamKeys.length,
          description: "Stream types to return, e.g. [\"time\", \"heartrate\"]. Default (or empty): all of them.",
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
    const keys = args.keys && args.keys.length > 0 ? args.keys : streamKeys;
    return {
      method: "GET",
      path: `/activities/${args.id}/streams`,
      query: { keys: keys.join(","), key_by_type: true },
    };
  },
  resultText: streamsAsArray,
});

/**
 * With `key_by_type=true` Strava answers `{"time": {data, series_type, ...}, ...}`; the tool returns the
 * spec's array of stream objects `[{"type": "time", data, ...}]`, which is also exactly what Strava sends
 * without `key_by_type`. Stream values are plain numbers, booleans and coordinate pairs (no ids), so
 * parsing and re-serialising them is exact.
 */
export function streamsAsArray(bodyText: string): string {
  const parsed: unknown = JSON.parse(bodyText);
  if (Array.isArray(parsed)) return compactJson(bodyText);
  if (typeof parsed !== "object" || parsed === null) {
    throw new UpstreamBodyError("Strava answered the streams request with something other than a stream list.");
  }
  const streams = Object.entries(parsed as Record<string, unknown>).map(([type, stream]) => ({
    type,
    ...(typeof stream === "object" && stream !== null ? stream : { data: stream }),
  }));
  return JSON.stringify(streams);
}
