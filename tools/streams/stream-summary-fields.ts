/**
 * What `summary: true` of get_activity_streams gives, described in this one place: the tool's description
 * takes the short form, the tool reference in the docs the full one (npm run docs:tools), and the skill
 * points at the tool. stream-summary.ts computes exactly these.
 */

/** For the tool's description (a model reads it on every tools/list). */
export const streamSummaryShort = "per stream min, max, mean, half means (drift), peak means and decoupling";

/** For the tool reference: every field, and what it is. */
export const streamSummaryFields: ReadonlyArray<readonly [string, string]> = [
  [
    "every stream",
    "`min`, `max`, `mean`, `first_half_mean`, `second_half_mean` (halves of the samples, so drift shows); gaps (nulls) counted in `missing`",
  ],
  ["time", "`duration` (s)"],
  ["distance", "`total` (m)"],
  ["altitude", "`ascent`, `descent` (m, between samples, unsmoothed: Strava's `total_elevation_gain` is smoothed and lower)"],
  [
    "heartrate",
    "`peak_means` (best mean over 1, 5, 20 and 60 minutes); `decoupling_percent` against watts, else speed (Friel's aerobic decoupling between the halves)",
  ],
  [
    "watts",
    "`peak_means` (5 s to 60 minutes), `weighted_mean` (Strava's weighted average watts), `work_kj`, `nonzero_mean`, `zero_share` (coasting)",
  ],
  ["cadence", "`nonzero_mean`, `zero_share`"],
  ["moving", "the means are shares of samples moving (0 to 1); `moving_time` (s)"],
  ["latlng", "`min` and `max` are the bounding box's corners, the means its centroid; `start`, `end`"],
];
