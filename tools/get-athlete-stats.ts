/**
 * `get_athlete_stats` on Strava: get athlete statistics (`GET /athletes/{id}/stats`). The tool as data: its
 * schema, description, the request it sends and how its answer is shaped; tools/runner/ runs it the same way from
 * every front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool, readOnly } from "./definition/tool-definition.ts";

export const getAthleteStats = defineTool({
  name: "get_athlete_stats",
  title: "Get athlete statistics",
  description:
    "Totals for rides, runs and swims over three periods: recent (last 4 weeks), ytd (this year) and all (all time); " +
    "each with count, distance (meters), moving_time and elapsed_time (seconds), elevation_gain (meters) and " +
    "achievement_count; plus biggest_ride_distance and biggest_climb_elevation_gain. Strava only answers for the " +
    "authenticated athlete: leave id out.",
  parameters: Type.Object(
    {
      id: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: Number.MAX_SAFE_INTEGER,
          description: "Athlete id; defaults to the authenticated athlete (the only one Strava allows).",
        }),
      ),
    },
    { additionalProperties: false },
  ),
  upstream: "GET /athletes/{id}/stats",
  annotations: readOnly,
  async request(args, context) {
    const id = args.id ?? (await context.athleteId(context.signal));
    return { method: "GET", path: `/athletes/${id}/stats` };
  },
  errorHint(status) {
    return status === 403 || status === 404
      ? "Strava only returns statistics for the authenticated athlete; call again without id."
      : undefined;
  },
});
