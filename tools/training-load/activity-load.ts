/**
 * Each activity's load, on one scale: Strava's Relative Effort (`suffer_score`). An activity without one gets an
 * estimate from the best signal it carries, put on the athlete's scale by the calibration (load-calibration.ts):
 * device power with the athlete's FTP, else average heart rate with the athlete's zones, else moving time at its
 * sport family's rate. Estimates are rounded to whole points, as Strava's scores are, so that daily loads are
 * sums of integers. The same activity and calibration always give the same load.
 */
import type { FamilyRate, LoadSources } from "./training-load-answer.ts";
import type { ActivityEffort } from "./listed-activities.ts";
import { heartRatePoints, powerPoints } from "./effort-points.ts";
import { powerUsable, type Calibration } from "./load-calibration.ts";
import { sportFamily } from "./sport-families.ts";
import { dateOfDay } from "./calendar-days.ts";

export type LoadKind = "suffer_score" | "power" | "heart_rate" | "moving_time";

/** Which signal an activity's load comes from. */
export function loadKind(activity: ActivityEffort, calibration: Calibration): LoadKind {
  if (activity.sufferScore !== undefined) return "suffer_score";
  if (activity.devicePower !== undefined && powerUsable(calibration)) return "power";
  if (activity.averageHeartrate !== undefined && calibration.zones !== undefined) return "heart_rate";
  return "moving_time";
}

export function activityLoad(activity: ActivityEffort, calibration: Calibration): number {
  switch (loadKind(activity, calibration)) {
    case "suffer_score":
      return Math.round(activity.sufferScore!);
    case "power":
      return Math.round(powerPoints(activity.movingTime, activity.devicePower!, calibration.ftp!) * calibration.power.scale);
    case "heart_rate":
      return Math.round(heartRatePoints(activity.movingTime, activity.averageHeartrate!, calibration.zones!) * calibration.heartRate.scale);
    case "moving_time":
      return Math.round((Math.max(0, activity.movingTime) / 3600) * calibration.rate(sportFamily(activity.sportType)).perHour);
  }
}

/** `load_source`: how the loads of `activities` (the window's) were taken. */
export function loadSources(activities: readonly ActivityEffort[], calibration: Calibration): LoadSources {
  const count = (kind: LoadKind): number => activities.filter((activity) => loadKind(activity, calibration) === kind).length;
  const families: Record<string, FamilyRate> = {};
  for (const activity of activities) {
    if (loadKind(activity, calibration) !== "moving_time") continue;
    const family = sportFamily(activity.sportType);
    const rate = calibration.rate(family);
    const entry = (families[family] ??= { count: 0, per_hour: rate.perHour, rate_of: rate.rateOf, calibrated_on: rate.scored });
    entry.count++;
  }
  return {
    calibration: { first: dateOfDay(calibration.firstDay), last: dateOfDay(calibration.lastDay) },
    suffer_score: count("suffer_score"),
    power_estimate: {
      count: count("power"),
      scale: calibration.power.scale,
      calibrated_on: calibration.power.pairs,
      ftp: calibration.ftp ?? null,
    },
    heart_rate_estimate: { count: count("heart_rate"), scale: calibration.heartRate.scale, calibrated_on: calibration.heartRate.pairs },
    moving_time_estimate: { count: count("moving_time"), families: sortedKeys(families) },
  };
}

function sortedKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
