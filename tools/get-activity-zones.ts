/**
 * `get_activity_zones` on Strava: get activity zones (`GET /activities/{id}/zones`). The tool as data: its schema,
 * description, the request it sends and how its answer is shaped; tools/runner/ runs it the same way from every
 * front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool, readOnly } from "./definition/tool-definition.ts";
import { ActivityId, activityIdHint } from "./arguments/parameter-schemas.ts";

export const getActivityZones = defineTool({
  name: "get_activity_zones",
  title: "Get activity zones",
  description:
    'Time spent in each heart-rate and power zone during one activity: an array of {type: "heartrate" | "power", ' +
    "distribution_buckets: [{min, max, time (seconds)}], sensor_based, ...}. Empty when the activity has no heart-rate " +
    "or power data. Strava serves this to subscribers only.",
  parameters: Type.Object({ id: ActivityId() }, { additionalProperties: false }),
  upstream: "GET /activities/{id}/zones",
  annotations: readOnly,
  request(args) {
    return { method: "GET", path: `/activities/${args.id}/zones` };
  },
  errorHint: activityIdHint,
});
