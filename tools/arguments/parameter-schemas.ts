/**
 * Parameter schemas shared by several tools, with descriptions written for a model. Strings limited to a
 * list are `StringEnum`s (common/schema-check.ts).
 */
import { Type } from "@sinclair/typebox";
import { StringEnum } from "../../common/schema-check.ts";

/** Strava's `sport_type` values (Strava's list). */
export const sportTypes = [
  "Run",
  "TrailRun",
  "VirtualRun",
  "Ride",
  "MountainBikeRide",
  "GravelRide",
  "EBikeRide",
  "VirtualRide",
  "Velomobile",
  "Swim",
  "Kayaking",
  "Canoeing",
  "Rowing",
  "StandUpPaddling",
  "Surfing",
  "Kitesurf",
  "Windsurf",
  "AlpineSki",
  "BackcountrySki",
  "NordicSki",
  "Snowboard",
  "Snowshoe",
  "IceSkate",
  "Walk",
  "Hike",
  "RockClimbing",
  "Crossfit",
  "Workout",
  "WeightTraining",
  "Yoga",
  "Pilates",
  "Golf",
  "Tennis",
  "Soccer",
  "Basketball",
  "Wheelchair",
  "Handcycle",
] as const;

/** The 11 stream types Strava records. */
export const streamKeys = [
  "time",
  "distance",
  "latlng",
  "altitude",
  "velocity_smooth",
  "heartrate",
  "cadence",
  "watts",
  "temp",
  "moving",
  "grade_smooth",
] as const;

/** Upload formats Strava accepts (gzipped variants included). */
export const uploadDataTypes = ["fit", "fit.gz", "tcx", "tcx.gz", "gpx", "gpx.gz"] as const;

export const SportType = (description: string) => StringEnum(sportTypes, { description });

export const ActivityId = (description = "Strava activity id, as returned by get_activities (the `id` field).") =>
  Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description });

/** What a tool taking an ActivityId adds to Strava's 404: where a right id comes from. */
export function activityIdHint(status: number): string | undefined {
  return status === 404
    ? "No activity of the athlete's has this id: take the `id` of an item from get_activities (not its upload_id or external_id)."
    : undefined;
}

export const Page = Type.Integer({
  minimum: 1,
  maximum: 100_000,
  default: 1,
  description: "Page number, starting at 1. Use with per_page to walk back through older results.",
});

export const PerPage = Type.Integer({
  minimum: 1,
  maximum: 200,
  default: 30,
  description: "Items per page, 1 to 200 (default 30). Prefer small pages: each page costs one request of the athlete's rate limit.",
});

/** Epoch seconds, bounded to years Strava can hold (1970 to 2100) so typos fail loudly. */
export const EpochSeconds = (description: string) => Type.Integer({ minimum: 0, maximum: 4_102_444_800, description });
