import { Type } from "@sinclair/typebox";
import { defineTool, readOnly } from "../definition/tool-definition.ts";
import { checkFields, FieldsParameter } from "../answers/field-projection.ts";
import { activityListText } from "./activity-answers.ts";
import { intervalsActivityModel } from "./intervals-fields.ts";
import { LocalDate } from "./intervals-parameters.ts";
import { dateWindow } from "./local-dates.ts";
import { athletePath, todayOf } from "./request-needs.ts";

export const getActivities = defineTool({
  name: "get_activities",
  title: "List activities",
  description:
    "List the athlete's activities from their intervals.icu training log, newest first, between oldest and newest (the athlete's " +
    "local dates, both included; default: the 28 days ending today). Each is intervals.icu's activity: id (a string such as " +
    '"i1234567"), name, type, start_date_local (local wall-clock time, no zone), distance (m), moving_time and elapsed_time (s), ' +
    "average_heartrate, icu_training_load (intervals.icu's load), icu_intensity, ... Use it to find an activity's id, e.g. the most " +
    "recent workout: limit 5 and no dates. Pass fields (e.g. id, name, type, start_date_local, distance, moving_time) to pick an " +
    "activity: a full one is about 2 KB. An activity that reached intervals.icu from Strava is only a stub there (its API does not " +
    "pass such activities on): it is listed with its id, start and a note saying so, nothing else.",
  parameters: Type.Object(
    {
      oldest: Type.Optional(LocalDate("First day to list, the athlete's local date YYYY-MM-DD (default: 27 days before newest).")),
      newest: Type.Optional(LocalDate("Last day to list, included, YYYY-MM-DD (default: the athlete's today).")),
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 1000,
          description: "At most this many activities, the newest first (default: all in the dates).",
        }),
      ),
      fields: Type.Optional(
        FieldsParameter(["id", "name", "type", "start_date_local", "distance", "moving_time"], {
          upstream: "intervals.icu",
          item: "activity",
        }),
      ),
    },
    { additionalProperties: false },
  ),
  upstream: "GET /athlete/{id}/activities",
  annotations: readOnly,
  async request(args, context) {
    checkFields(intervalsActivityModel, args.fields);
    const { oldest, newest } = await dateWindow(args, todayOf(context), { defaultDays: 28 });
    return {
      method: "GET",
      path: `${await athletePath(context)}/activities`,
      // intervals.icu reads a bare date as the start of its day: newest goes as the last second of it, so the day is included.
      query: { oldest, newest: `${newest}T23:59:59`, limit: args.limit },
    };
  },
  resultText(bodyText, args) {
    return activityListText(bodyText, args.fields);
  },
});
