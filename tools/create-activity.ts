/**
 * `create_activity` on Strava: create a manual activity (`POST /activities`). The tool as data: its schema,
 * description, the request it sends and how its answer is shaped; tools/runner/ runs it the same way from every
 * front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool } from "./definition/tool-definition.ts";
import { SportType } from "./arguments/parameter-schemas.ts";
import { ToolInputError } from "./arguments/validate-arguments.ts";
import { summarizeCreate } from "./writes/write-change-summary.ts";
import { createdActivityOf } from "./answers/created-activity.ts";

/** "2026-11-21T18:30:00", optionally with seconds fraction and a Z or offset (Strava reads it as local time). */
const localDateTimePattern = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?$";

/**
 * Strava's description types start_date_local as an RFC 3339 date-time, so a zone designator is
 * required on the wire; Strava reads the wall-clock part as local time and, by its own convention,
 * marks it with a (misleading) "Z". "2026-11-21T18:30" becomes "2026-11-21T18:30:00Z"; a value that
 * already has a zone is sent as given.
 */
export function asStravaLocalTime(value: string): string {
  assertCalendarDateTime(value);
  const withSeconds =
    /T\d{2}:\d{2}$/.test(value) || /T\d{2}:\d{2}(Z|[+-]\d{2}:?\d{2})$/.test(value) ? value.replace(/(T\d{2}:\d{2})/, "$1:00") : value;
  return /(Z|[+-]\d{2}:?\d{2})$/.test(withSeconds) ? withSeconds : `${withSeconds}Z`;
}

/** The pattern checks the shape; this, that the date and time exist (no 30 February, no 25:61), before Strava is asked. */
function assertCalendarDateTime(value: string): void {
  const [year, month, day, hour, minute, second] = (value.match(/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/) ?? [])
    .slice(1)
    .map((part) => Number(part ?? 0));
  const date = new Date(0);
  date.setUTCFullYear(year!, month! - 1, day!); // Date.UTC would read years 0 to 99 as 1900 to 1999
  const exists = date.getUTCFullYear() === year && date.getUTCMonth() === month! - 1 && date.getUTCDate() === day;
  if (!exists || hour! > 23 || minute! > 59 || second! > 59) {
    throw new ToolInputError(`start_date_local must be a real date and time; "${value}" has no such ${exists ? "time of day" : "day"}.`);
  }
}

export const createActivity = defineTool({
  name: "create_activity",
  title: "Create a manual activity",
  description:
    "Create a manual activity (no GPS file) on the athlete's Strava, e.g. a gym session or a run without a watch. " +
    "Returns the created activity in detail, including its new id. Confirm the details with the athlete first: " +
    "this adds a visible entry to their log. For a recorded file (FIT/TCX/GPX) use create_upload instead.",
  parameters: Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 255, description: 'Title of the activity, e.g. "Iron Temple | Squat + Metcon".' }),
      sport_type: SportType("Sport type, e.g. Run, Ride, Swim, Workout, WeightTraining."),
      start_date_local: Type.String({
        pattern: localDateTimePattern,
        description: "Start in the athlete's local wall-clock time, ISO 8601, e.g. 2026-11-21T18:30:00.",
      }),
      elapsed_time: Type.Integer({ minimum: 1, maximum: 2_592_000, description: "Duration in seconds, e.g. 3600 for one hour." }),
      description: Type.Optional(Type.String({ maxLength: 65_535, description: "Description text (workout details)." })),
      distance: Type.Optional(Type.Number({ minimum: 0, maximum: 100_000_000, description: "Distance in meters, e.g. 5000 for 5 km." })),
      trainer: Type.Optional(Type.Boolean({ description: "True for an indoor trainer or treadmill session." })),
      commute: Type.Optional(Type.Boolean({ description: "True if this was a commute." })),
    },
    { additionalProperties: false },
  ),
  upstream: "POST /activities",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  request(args) {
    // Strava's POST /activities is form-encoded, with booleans as 1/0.
    const fields: Record<string, string> = {
      name: args.name,
      sport_type: args.sport_type,
      start_date_local: asStravaLocalTime(args.start_date_local),
      elapsed_time: String(args.elapsed_time),
    };
    if (args.description !== undefined) fields["description"] = args.description;
    if (args.distance !== undefined) fields["distance"] = String(args.distance);
    if (args.trainer !== undefined) fields["trainer"] = args.trainer ? "1" : "0";
    if (args.commute !== undefined) fields["commute"] = args.commute ? "1" : "0";
    return { method: "POST", path: "/activities", body: { kind: "form", fields } };
  },
  createdActivity: createdActivityOf,
  writeApproval: { summary: summarizeCreate },
});
