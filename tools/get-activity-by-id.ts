/**
 * `get_activity_by_id` on Strava: get activity detail (`GET /activities/{id}`). The tool as data: its schema,
 * description, the request it sends and how its answer is shaped; tools/runner/ runs it the same way from every
 * front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool, readOnly } from "./definition/tool-definition.ts";
import { ActivityId, activityIdHint } from "./arguments/parameter-schemas.ts";
import { detailedActivityModel } from "./answers/activity-fields.ts";
import { checkFields, FieldsParameter, projectFields } from "./answers/field-projection.ts";

export const getActivityById = defineTool({
  name: "get_activity_by_id",
  title: "Get activity detail",
  description:
    "Get one activity in full: name, description, sport_type, start_date_local (local wall time despite its Z), " +
    "distance (meters), moving_time/elapsed_time (seconds), elevation, heart rate, calories, gear, laps, splits and " +
    "segment efforts. Read it before updating an activity, to see the existing description. A long ride is tens of " +
    "KB, mostly segment_efforts, splits and map: pass fields for what you need (e.g. name, description, sport_type, " +
    "distance, elapsed_time, start_date_local, laps).",
  parameters: Type.Object(
    {
      id: ActivityId(),
      include_all_efforts: Type.Optional(
        Type.Boolean({
          description:
            "Strava's own option: true also returns the segment efforts Strava hides as unimportant (each marked hidden: true). " +
            "Default: Strava's default, without them.",
        }),
      ),
      fields: Type.Optional(FieldsParameter(["name", "description", "sport_type", "start_date_local", "distance", "elapsed_time"])),
    },
    { additionalProperties: false },
  ),
  upstream: "GET /activities/{id}",
  annotations: readOnly,
  request(args) {
    checkFields(detailedActivityModel, args.fields);
    // Sent exactly as given (false too): it is Strava's parameter, and Strava decides what it means.
    return { method: "GET", path: `/activities/${args.id}`, query: { include_all_efforts: args.include_all_efforts } };
  },
  resultText(bodyText, args) {
    return args.fields ? projectFields(bodyText, args.fields) : undefined;
  },
  errorHint: activityIdHint,
});
