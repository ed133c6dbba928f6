/**
 * `get_activities` on intervals.icu: the activity list between two of the athlete's local dates, or with
 * `summary: true` the training load in the answer shape Strava's has (load-summary-plan.ts, load-summary.ts).
 */
import { Type } from "@sinclair/typebox";
import { defineTool, readOnly } from "../definition/tool-definition.ts";
import { checkFields, FieldsParameter } from "../answers/field-projection.ts";
import { activityListText } from "./activity-answers.ts";
import { intervalsActivityModel } from "./intervals-fields.ts";
import { LocalDate } from "./intervals-parameters.ts";
import { dateWindow } from "./local-dates.ts";
import { athletePath, timeZoneOf, todayOf } from "./request-needs.ts";
import { intervalsLoadPlan, refuseListParameters, summaryWindow } from "./load-summary-plan.ts";

export const getActivities = defineTool({
  name: "get_activities",
  title: "List activities",
  description:
    "List the athlete's activities from their intervals.icu training log, or with summary: true their training load (weekly " +
    'totals, fitness, fatigue, form, HRV and sleep against their usual) for weekly reviews, load trends and "am I overtraining?". ' +
    "The list comes newest first, between oldest and newest (the athlete's " +
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
      summary: Type.Optional(
        Type.Boolean({
          description:
            "true: summarise every activity from oldest (default: 12 weeks back, whole weeks) to newest (default and at most today) " +
            "instead of listing them: per Monday-Sunday week, totals per type, rest days and change from the week before; the " +
            "daily load; intervals.icu's own fitness (CTL), fatigue (ATL) and ramp rate for the last date, form (TSB, also as % " +
            "of fitness), a daily trend of the last 28 days, acute:chronic ratio, monotony, strain, longest run without rest; " +
            "and readiness_trend: HRV, resting heart rate and sleep, the last 7 days' mean against the 28 days before. At most " +
            "366 days; not with limit or fields.",
        }),
      ),
    },
    { additionalProperties: false },
  ),
  upstream: "GET /athlete/{id}/activities",
  annotations: readOnly,
  view: "load",
  async plan(args, context) {
    if (args.summary !== true) return undefined;
    refuseListParameters(context.given);
    const { firstDay, lastDay } = summaryWindow(args, await todayOf(context)());
    return intervalsLoadPlan({ athletePath: await athletePath(context), firstDay, lastDay, timeZone: await timeZoneOf(context) });
  },
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
