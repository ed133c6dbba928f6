/**
 * `create_activity` on intervals.icu: create a manual activity (`POST /athlete/{id}/activities/manual`). The tool
 * as data: its schema, description, the request it sends and how its answer is shaped; tools/runner/ runs it the
 * same way from every front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool } from "../definition/tool-definition.ts";
import { manualActivityRequest } from "../../intervals/activity-writes.ts";
import { summarizeCreateIn } from "../writes/write-change-summary.ts";
import { IntervalsActivityType } from "./intervals-parameters.ts";
import { localDateTime } from "./local-dates.ts";
import { createdActivityOf } from "../answers/created-activity.ts";

export const createActivity = defineTool({
  name: "create_activity",
  title: "Create a manual activity",
  description:
    "Create a manual activity (no recorded file) in the athlete's intervals.icu log, e.g. a gym session or a run without a watch. " +
    "Returns intervals.icu's new activity, with its id. Confirm the details with the athlete first: this adds an entry to their " +
    "log. For a recorded file (FIT/TCX/GPX) use create_upload instead.",
  parameters: Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 255, description: 'Title of the activity, e.g. "Iron Temple | Squat + Metcon".' }),
      type: IntervalsActivityType("intervals.icu's activity type, e.g. Run, Ride, Swim, Workout, WeightTraining."),
      start_date_local: Type.String({
        pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2})?$",
        description: "Start in the athlete's local wall-clock time, no zone, e.g. 2026-11-21T18:30:00.",
      }),
      elapsed_time: Type.Integer({ minimum: 1, maximum: 2_592_000, description: "Duration in seconds, e.g. 3600 for one hour." }),
      description: Type.Optional(Type.String({ maxLength: 65_535, description: "Description text (workout details)." })),
      distance: Type.Optional(Type.Number({ minimum: 0, maximum: 100_000_000, description: "Distance in meters, e.g. 5000 for 5 km." })),
      trainer: Type.Optional(Type.Boolean({ description: "True for an indoor trainer or treadmill session." })),
      commute: Type.Optional(Type.Boolean({ description: "True if this was a commute." })),
    },
    { additionalProperties: false },
  ),
  upstream: "POST /athlete/{id}/activities/manual",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async request(args, context) {
    return manualActivityRequest(String(await context.athleteId(context.signal)), {
      name: args.name,
      type: args.type,
      startDateLocal: localDateTime(args.start_date_local, "start_date_local"),
      elapsedTime: args.elapsed_time,
      ...(args.distance !== undefined ? { distance: args.distance } : {}),
      ...(args.description !== undefined ? { description: args.description } : {}),
      ...(args.trainer !== undefined ? { trainer: args.trainer } : {}),
      ...(args.commute !== undefined ? { commute: args.commute } : {}),
    });
  },
  createdActivity: createdActivityOf,
  writeApproval: { summary: (args) => summarizeCreateIn(args, { log: "intervals.icu", sportField: "type" }) },
});
