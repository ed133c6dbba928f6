/**
 * How each of the athlete's activities reached intervals.icu, its `source`. Maya's Garmin watch and bike
 * computer sync to intervals.icu directly (GARMIN_CONNECT); her Zwift rides reach it through her Strava account,
 * and so do the sessions she types into Strava by hand or uploads there (STRAVA). What she enters on the
 * intervals.icu face is MANUAL or UPLOAD. intervals.icu's API answers a STRAVA activity only as a stub (Strava's
 * rules): activity-json.ts.
 */
import type { Activity } from "../activity-model.ts";

export type IntervalsSource = "GARMIN_CONNECT" | "STRAVA" | "MANUAL" | "UPLOAD";

export function intervalsSource(activity: Activity): IntervalsSource {
  if (activity.enteredVia === "intervals.icu") return activity.manual ? "MANUAL" : "UPLOAD";
  if (activity.enteredVia === "strava" || activity.manual || activity.deviceName === "Zwift") return "STRAVA";
  return "GARMIN_CONNECT";
}
