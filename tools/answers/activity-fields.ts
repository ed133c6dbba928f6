/**
 * The top-level field names a `fields` projection may keep, per Strava model. They are the properties
 * of the models in Strava's published API description (SummaryActivity, DetailedActivity,
 * ClubActivity), plus the fields Strava's answers carry that its description leaves out (heart rate,
 * suffer score, location...): a coach needs `average_heartrate` although the description omits it.
 *
 * The lists live in code, not in the parameter schema, so that tools/list stays small; a test checks
 * them against the description (test/tools/activity-fields.test.ts) and against every field the
 * sandbox serves.
 */

/** SummaryActivity in Strava's API description (MetaActivity's `id` included), in its order. */
const summaryActivityDescribed = [
  "id",
  "external_id",
  "upload_id",
  "athlete",
  "name",
  "distance",
  "moving_time",
  "elapsed_time",
  "total_elevation_gain",
  "elev_high",
  "elev_low",
  "type",
  "sport_type",
  "start_date",
  "start_date_local",
  "timezone",
  "start_latlng",
  "end_latlng",
  "achievement_count",
  "kudos_count",
  "comment_count",
  "athlete_count",
  "photo_count",
  "total_photo_count",
  "map",
  "device_name",
  "trainer",
  "commute",
  "manual",
  "private",
  "flagged",
  "workout_type",
  "upload_id_str",
  "average_speed",
  "max_speed",
  "has_kudoed",
  "hide_from_home",
  "gear_id",
  "kilojoules",
  "average_watts",
  "device_watts",
  "max_watts",
  "weighted_average_watts",
] as const;

/** What DetailedActivity adds to SummaryActivity in the description. */
const detailedActivityDescribed = [
  "description",
  "photos",
  "gear",
  "calories",
  "segment_efforts",
  "embed_token",
  "splits_metric",
  "splits_standard",
  "laps",
  "best_efforts",
] as const;

/** ClubActivity in the description. */
const clubActivityDescribed = [
  "athlete",
  "name",
  "distance",
  "moving_time",
  "elapsed_time",
  "total_elevation_gain",
  "type",
  "sport_type",
  "workout_type",
] as const;

/** Fields Strava sends in every activity (list item or detail) that its description does not declare. */
export const activityFieldsBeyondDescription = [
  "resource_state",
  "utc_offset",
  "location_city",
  "location_state",
  "location_country",
  "visibility",
  "has_heartrate",
  "average_heartrate",
  "max_heartrate",
  "heartrate_opt_out",
  "display_hide_heartrate_option",
  "average_cadence",
  "average_temp",
  "suffer_score",
  "pr_count",
  "from_accepted_tag",
] as const;

/** Fields Strava sends only in activity detail that its description does not declare. */
export const detailFieldsBeyondDescription = [
  "partner_brand_tag",
  "highlighted_kudosers",
  "segment_leaderboard_opt_out",
  "leaderboard_opt_out",
  "perceived_exertion",
  "prefer_perceived_exertion",
  "available_zones",
  "stats_visibility",
] as const;

/** Fields Strava sends in club feed items that its description does not declare. */
export const clubFieldsBeyondDescription = ["resource_state"] as const;

export interface FieldModel {
  /** The model's name in its training log's API description, for messages. */
  readonly name: string;
  /** That training log, for messages; Strava when absent. */
  readonly upstream?: string;
  /** Every name `fields` accepts for it. */
  readonly fields: ReadonlySet<string>;
  /** The names the description itself declares (the test compares them with it). */
  readonly described: readonly string[];
}

export const summaryActivityModel: FieldModel = {
  name: "SummaryActivity",
  fields: new Set([...summaryActivityDescribed, ...activityFieldsBeyondDescription]),
  described: summaryActivityDescribed,
};

export const detailedActivityModel: FieldModel = {
  name: "DetailedActivity",
  fields: new Set([
    ...summaryActivityDescribed,
    ...detailedActivityDescribed,
    ...activityFieldsBeyondDescription,
    ...detailFieldsBeyondDescription,
  ]),
  described: [...summaryActivityDescribed, ...detailedActivityDescribed],
};

export const clubActivityModel: FieldModel = {
  name: "ClubActivity",
  fields: new Set([...clubActivityDescribed, ...clubFieldsBeyondDescription]),
  described: clubActivityDescribed,
};
