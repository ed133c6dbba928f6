/**
 * `get_activities` on Strava: list activities (`GET /athlete/activities`). The tool as data: its schema,
 * description, the request it sends and how its answer is shaped; tools/runner/ runs it the same way from every
 * front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool, readOnly } from "./definition/tool-definition.ts";
import { EpochSeconds, Page, PerPage } from "./arguments/parameter-schemas.ts";
import { ToolInputError } from "./arguments/validate-arguments.ts";
import { summaryActivityModel } from "./answers/activity-fields.ts";
import { checkFields, FieldsParameter, projectFields } from "./answers/field-projection.ts";
import { checkSummaryArguments, trainingLoadPlan } from "./training-load/training-load-plan.ts";

export const getActivities = defineTool({
  name: "get_activities",
  title: "List activities",
  description:
    "List the athlete's activities, or with summary: true their training load (weekly totals, fitness, fatigue, form) for weekly " +
    'reviews, load trends and "am I overtraining?". The list comes newest first (oldest first when after is given: Strava\'s ' +
    "order) as an array of activity summaries (id, name, sport_type, start_date, start_date_local, distance in meters, moving_time and elapsed_time in seconds, " +
    "total_elevation_gain in meters, average_heartrate, ...). Use it to find an activity's id, e.g. the most recent " +
    "workout: call with per_page 10 and no dates. Filter by time with before/after (epoch seconds). " +
    "To pick an activity, pass fields (e.g. id, name, sport_type, start_date, start_date_local, distance, " +
    "elapsed_time): a full summary is about 1.5 KB each. " +
    "Note: start_date_local ends in Z but is the athlete's local wall-clock time, not UTC.",
  parameters: Type.Object(
    {
      before: Type.Optional(EpochSeconds("Only activities that started before this time, in epoch seconds (UTC).")),
      after: Type.Optional(EpochSeconds("Only activities that started after this time, in epoch seconds (UTC).")),
      page: Type.Optional(Page),
      per_page: Type.Optional(PerPage),
      fields: Type.Optional(FieldsParameter(["id", "name", "sport_type", "start_date_local", "distance"])),
      summary: Type.Optional(
        Type.Boolean({
          description:
            "true: summarise every activity from after (default: 12 weeks back, whole weeks) to before (default: today) instead of " +
            "listing them: per Monday-Sunday week, totals per sport_type, rest days and change from the week before; the daily " +
            "load (Strava's Relative Effort, else an estimate, labelled); fitness (CTL) and fatigue (ATL) from the history before " +
            "the window, form (TSB, also as % of fitness), ramp rate, a daily trend of the last 28 days, acute:chronic ratio, " +
            "monotony, strain, longest run without rest. Local dates: after's date is the first, the date of the second before " +
            "before the last, both read whole. At most 366 days; not with page, per_page or fields.",
        }),
      ),
    },
    { additionalProperties: false },
  ),
  upstream: "GET /athlete/activities",
  annotations: readOnly,
  view: "load",
  plan(args, context) {
    if (args.summary !== true) return undefined;
    checkSummaryArguments(args, context);
    return trainingLoadPlan(args, context.nowMs);
  },
  request(args) {
    checkFields(summaryActivityModel, args.fields);
    if (args.before !== undefined && args.after !== undefined && args.after >= args.before) {
      throw new ToolInputError(
        `after (${args.after}) must be earlier than before (${args.before}); both are epoch seconds and select activities started between them.`,
      );
    }
    return {
      method: "GET",
      path: "/athlete/activities",
      query: { before: args.before, after: args.after, page: args.page, per_page: args.per_page },
    };
  },
  resultText(bodyText, args) {
    return args.fields ? projectFields(bodyText, args.fields) : undefined;
  },
});
