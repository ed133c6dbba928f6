/**
 * `get_activity_by_id` on intervals.icu: get activity detail (`GET /activity/{id}`). The tool as data: its schema,
 * description, the request it sends and how its answer is shaped; tools/runner/ runs it the same way from every
 * front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool, readOnly } from "../definition/tool-definition.ts";
import { checkFields, FieldsParameter } from "../answers/field-projection.ts";
import { activityText } from "./activity-answers.ts";
import { intervalsActivityModel } from "./intervals-fields.ts";
import { IntervalsActivityId, intervalsActivityIdHint } from "./intervals-parameters.ts";

export const getActivityById = defineTool({
  name: "get_activity_by_id",
  title: "Get activity detail",
  description:
    "Get one activity in full from the athlete's intervals.icu log: name, description, type, start_date_local (local wall-clock " +
    "time), distance (m), moving_time/elapsed_time (s), heart rate and power, intervals.icu's load (icu_training_load), intensity, " +
    "FTP and zones used, time in zones, fitness and fatigue that day (icu_ctl, icu_atl), RPE and feel, gear. Read it before " +
    "updating an activity, to see the existing description. Pass fields for what you need (e.g. name, description, type, distance, " +
    "moving_time, start_date_local). An activity that reached intervals.icu from Strava (an id of digits only) is only a stub " +
    "there: the answer says so in a note instead of showing an empty record.",
  parameters: Type.Object(
    {
      id: IntervalsActivityId(),
      fields: Type.Optional(
        FieldsParameter(["name", "description", "type", "start_date_local", "distance", "moving_time"], {
          upstream: "intervals.icu",
          item: "activity",
        }),
      ),
    },
    { additionalProperties: false },
  ),
  upstream: "GET /activity/{id}",
  annotations: readOnly,
  request(args) {
    checkFields(intervalsActivityModel, args.fields);
    return { method: "GET", path: `/activity/${encodeURIComponent(args.id)}` };
  },
  resultText(bodyText, args) {
    return activityText(bodyText, args.fields);
  },
  errorHint: intervalsActivityIdHint,
});
