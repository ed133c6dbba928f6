/**
 * `get_athlete` on Strava: get athlete profile (`GET /athlete`). The tool as data: its schema, description, the
 * request it sends and how its answer is shaped; tools/runner/ runs it the same way from every front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool, readOnly } from "./definition/tool-definition.ts";

export const getAthlete = defineTool({
  name: "get_athlete",
  title: "Get athlete profile",
  description:
    "The authenticated athlete's profile: id, username, firstname, lastname, city, state, country, sex, premium/summit " +
    "status, profile photo, weight (kg), measurement preference, and their bikes and shoes (gear ids for update_activity). " +
    "Takes no arguments.",
  parameters: Type.Object({}, { additionalProperties: false }),
  upstream: "GET /athlete",
  annotations: readOnly,
  request() {
    return { method: "GET", path: "/athlete" };
  },
});
