/**
 * `get_club_activities` on Strava: list club activities (`GET /clubs/{id}/activities`). The tool as data: its
 * schema, description, the request it sends and how its answer is shaped; tools/runner/ runs it the same way from
 * every front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool, readOnly } from "./definition/tool-definition.ts";
import { Page, PerPage } from "./arguments/parameter-schemas.ts";
import { clubActivityModel } from "./answers/activity-fields.ts";
import { checkFields, FieldsParameter, projectFields } from "./answers/field-projection.ts";

export const getClubActivities = defineTool({
  name: "get_club_activities",
  title: "List club activities",
  description:
    "Recent activities of members of a club the athlete belongs to: an array of {athlete: {firstname, lastname}, name, " +
    "distance (m), moving_time and elapsed_time (s), total_elevation_gain (m), sport_type, workout_type}, without ids " +
    "or dates. Note: Strava retired this endpoint on 2026-09-01 and now answers 404 for every club.",
  parameters: Type.Object(
    {
      id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "Strava club id." }),
      page: Type.Optional(Page),
      per_page: Type.Optional(PerPage),
      fields: Type.Optional(FieldsParameter(["athlete", "name", "sport_type", "distance", "moving_time"])),
    },
    { additionalProperties: false },
  ),
  upstream: "GET /clubs/{id}/activities",
  retiredByStrava: "2026-09-01",
  annotations: readOnly,
  request(args) {
    checkFields(clubActivityModel, args.fields);
    return { method: "GET", path: `/clubs/${args.id}/activities`, query: { page: args.page, per_page: args.per_page } };
  },
  resultText(bodyText, args) {
    return args.fields ? projectFields(bodyText, args.fields) : undefined;
  },
  errorHint(status) {
    return status === 404
      ? "Strava retired GET /clubs/{id}/activities on 2026-09-01 and now answers 404 for every club, so club feeds " +
          "cannot be read from Strava any more. (Against an upstream that still serves it, such as the sandbox, a 404 means the club id is wrong.)"
      : undefined;
  },
});
