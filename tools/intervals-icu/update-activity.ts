/**
 * `update_activity` on intervals.icu: update an activity (`PUT /activity/{id}`). The tool as data: its schema,
 * description, the request it sends and how its answer is shaped; tools/runner/ runs it the same way from every
 * front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool } from "../definition/tool-definition.ts";
import { activityUpdateRequest } from "../../intervals/activity-writes.ts";
import { ToolInputError } from "../arguments/validate-arguments.ts";
import { summarizeUpdate, type CurrentActivity } from "../writes/write-change-summary.ts";
import { getActivityById } from "./get-activity-by-id.ts";
import { IntervalsActivityId, intervalsActivityIdHint, IntervalsActivityType, refuseChangeToStub } from "./intervals-parameters.ts";

const updatableFields = ["name", "type", "description", "trainer", "commute"] as const;

export const updateActivity = defineTool({
  name: "update_activity",
  title: "Update an activity",
  description:
    "Change an existing activity's name, description, type, trainer or commute in the athlete's intervals.icu log. Only the fields " +
    "you give are sent; everything else stays as it is. The description you send replaces the old one entirely: read the activity " +
    "first (get_activity_by_id) and keep its text if it should stay. Show the athlete the change and get their approval before " +
    "calling. Returns intervals.icu's updated activity. An activity synced from Strava (an id of digits only) cannot be changed on " +
    "intervals.icu: such a call is refused before anything is sent.",
  parameters: Type.Object(
    {
      id: IntervalsActivityId('Id of the activity to change, such as "i1234567".'),
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "New title." })),
      type: Type.Optional(IntervalsActivityType("New activity type (intervals.icu's).")),
      description: Type.Optional(Type.String({ maxLength: 65_535, description: "New description; replaces the existing one." })),
      trainer: Type.Optional(Type.Boolean({ description: "Mark as an indoor trainer session." })),
      commute: Type.Optional(Type.Boolean({ description: "Mark as a commute." })),
    },
    { additionalProperties: false },
  ),
  upstream: "PUT /activity/{id}",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  request(args) {
    refuseChangeToStub(args.id);
    const changes: Record<string, unknown> = {};
    for (const field of updatableFields) {
      if (args[field] !== undefined) changes[field] = args[field];
    }
    if (Object.keys(changes).length === 0) {
      throw new ToolInputError(`Nothing to update: give at least one of ${updatableFields.join(", ")} besides id.`);
    }
    return activityUpdateRequest(args.id, changes);
  },
  errorHint: intervalsActivityIdHint,
  writeApproval: {
    // The approval shows current and proposed values: the activity as intervals.icu has it now.
    current: { tool: getActivityById, arguments: (args) => ({ id: args.id }) },
    summary: (args, current) =>
      summarizeUpdate(args, (current ?? { unreadable: "it was not read" }) as CurrentActivity | { unreadable: string }, {
        log: "intervals.icu",
        sportField: "type",
      }),
  },
});
