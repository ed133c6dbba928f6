import { Type } from "@sinclair/typebox";
import { defineTool, readOnly } from "./tool-definition.ts";
import { ActivityId } from "./parameters.ts";

export const getActivityById = defineTool({
  name: "get_activity_by_id",
  title: "Get activity detail",
  description:
    "Get one activity in full: name, description, sport_type, start_date_local (local wall time despite its Z), " +
    "distance (meters), moving_time/elapsed_time (seconds), elevation, heart rate, calories, gear, laps, splits and " +
    "segment efforts. Read it before updating an activity, to see the existing description.",
  parameters: Type.Object({ id: ActivityId() }, { additionalProperties: false }),
  upstream: "GET /activities/{id}",
  annotations: readOnly,
  request(args) {
    return { method: "GET", path: `/activities/${args.id}` };
  },
});
