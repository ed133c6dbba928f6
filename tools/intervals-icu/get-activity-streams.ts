/**
 * `get_activity_streams` on intervals.icu: get activity streams (`GET /activity/{id}/streams.json`). The tool as
 * data: its schema, description, the request it sends and how its answer is shaped; tools/runner/ runs it the same
 * way from every front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool, readOnly } from "../definition/tool-definition.ts";
import { StringEnum } from "../../common/schema-check.ts";
import { resolutionLimits, type Resolution } from "../streams/stream-reduction.ts";
import { streamSummaryShort } from "../streams/stream-summary-fields.ts";
import { IntervalsActivityId, intervalsActivityIdHint } from "./intervals-parameters.ts";
import { reduceIntervalsStreams } from "./streams-answer.ts";

const resolutionLevels = Object.keys(resolutionLimits) as Resolution[];

export const getActivityStreams = defineTool({
  name: "get_activity_streams",
  title: "Get activity streams",
  description:
    // The first sentences carry the advice: OpenClaw's tool search shows a model only 180 characters.
    'Samples recorded during one activity on intervals.icu (heart rate, power, pace...). Read with summary: true or resolution "low" ' +
    "first: a long ride's full data is hundreds of thousands of tokens. Returns intervals.icu's array of stream objects {type, data, " +
    "...}. Types: time (s from start), distance (m), latlng (latitudes in data, longitudes in data2), altitude (m), velocity_smooth " +
    "(m/s), heartrate (bpm), cadence, watts, temp (deg C), and whatever else the device recorded; those not recorded are absent. " +
    `Ask only for the types you need. summary gives ${streamSummaryShort} in a few KB; full data only when asked. An activity ` +
    "synced from Strava (an id of digits only) has no streams on intervals.icu.",
  parameters: Type.Object(
    {
      id: IntervalsActivityId(),
      types: Type.Optional(
        Type.Array(Type.String({ pattern: "^[A-Za-z0-9_]{1,40}$" }), {
          uniqueItems: true,
          maxItems: 40,
          description:
            'Stream types to return (intervals.icu\'s names), e.g. ["time", "heartrate", "watts"]. Default (or empty): every recorded one.',
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
  upstream: "GET /activity/{id}/streams.json",
  annotations: readOnly,
  view: "ride",
  request(args) {
    let types = args.types ?? [];
    // A reduced answer needs the time stream: it places the kept samples and measures peak windows.
    if (types.length > 0 && reduces(args) && !types.includes("time")) types = ["time", ...types];
    return {
      method: "GET",
      path: `/activity/${encodeURIComponent(args.id)}/streams.json`,
      query: { types: types.length > 0 ? types.join(",") : undefined },
    };
  },
  resultText(bodyText, args) {
    return reduces(args) ? reduceIntervalsStreams(bodyText, { resolution: args.resolution, summary: args.summary }) : undefined;
  },
  errorHint: intervalsActivityIdHint,
});

function reduces(args: { resolution?: string | undefined; summary?: boolean | undefined }): boolean {
  return args.resolution !== undefined || args.summary === true;
}
