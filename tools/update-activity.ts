/**
 * `update_activity` on Strava: update an activity (`PUT /activities/{id}`). The tool as data: its schema,
 * description, the request it sends and how its answer is shaped; tools/runner/ runs it the same way from every
 * front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool } from "./definition/tool-definition.ts";
import { ActivityId, activityIdHint, SportType } from "./arguments/parameter-schemas.ts";
import { ToolInputError } from "./arguments/validate-arguments.ts";
import type { Fault } from "../strava/strava-errors.ts";
import { getActivityById } from "./get-activity-by-id.ts";
import { summarizeUpdate, type CurrentActivity } from "./writes/write-change-summary.ts";

const updatableFields = ["name", "sport_type", "description", "trainer", "commute", "gear_id"] as const;

export const updateActivity = defineTool({
  name: "update_activity",
  title: "Update an activity",
  description:
    "Change an existing activity's name, description, sport_type, trainer, commute or gear_id. Only the fields you " +
    "give are sent; everything else stays as it is. The description you send replaces the old one entirely: read " +
    "the activity first (get_activity_by_id) and keep its text if it should stay. Show the athlete the change and " +
    "get their approval before calling. Returns the updated activity in detail.",
  parameters: Type.Object(
    {
      id: ActivityId("Id of the activity to change."),
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "New title." })),
      sport_type: Type.Optional(SportType("New sport type.")),
      description: Type.Optional(Type.String({ maxLength: 65_535, description: "New description; replaces the existing one." })),
      trainer: Type.Optional(Type.Boolean({ description: "Mark as an indoor trainer session." })),
      commute: Type.Optional(Type.Boolean({ description: "Mark as a commute." })),
      gear_id: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 64,
          description: 'Gear id from the athlete\'s profile (e.g. "b1234567"), or "none" to clear the gear.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  upstream: "PUT /activities/{id}",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  request(args) {
    // PUT /activities/{id} takes JSON (UpdatableActivity) with only the fields to change.
    const changes: Record<string, unknown> = {};
    for (const field of updatableFields) {
      if (args[field] !== undefined) changes[field] = args[field];
    }
    if (Object.keys(changes).length === 0) {
      throw new ToolInputError(`Nothing to update: give at least one of ${updatableFields.join(", ")} besides id.`);
    }
    return { method: "PUT", path: `/activities/${args.id}`, body: { kind: "json", value: changes } };
  },
  errorHint(status, errorBody) {
    // Strava answers 400 with {resource: "Activity", field: "gear_id", code: "invalid"} for an id not among the athlete's gear.
    if (status === 400 && (errorBody as Fault | undefined)?.errors?.some((error) => error.field === "gear_id")) {
      return (
        "gear_id must be the id of one of the athlete's bikes or shoes: get_athlete lists them (its `bikes` and `shoes`, each with " +
        'an `id` such as "b1234567"); "none" clears the gear.'
      );
    }
    return activityIdHint(status);
  },
  writeApproval: {
    // The approval shows current and proposed values: the activity as Strava has it now.
    current: { tool: getActivityById, arguments: (args) => ({ id: args.id }) },
    // Only display fields of the answer are shown, each as text (the big segment-effort ids elsewhere in it do not matter here).
    summary: (args, current) =>
      summarizeUpdate(args, (current ?? { unreadable: "it was not read" }) as CurrentActivity | { unreadable: string }),
  },
});
