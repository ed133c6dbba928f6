/**
 * Each activity's load, on one scale: Strava's Relative Effort (`suffer_score`).
 *
 * - With a suffer_score, that score.
 * - Without one but with heart rate, an estimate: moving hours times the points per hour of the heart-rate
 *   zone (the athlete's own zones, GET /athlete/zones) that the average heart rate falls in. Strava's score
 *   is the time in each zone times a rate per zone; the rates below are Alessandro Aime's reverse
 *   engineering of it ("Reverse engineering the Strava Suffer Score algorithm", 2017). Strava has retuned
 *   the score since, and one average stands in for the whole session, so the rates are put on this
 *   athlete's scale by one factor: the window's suffer_scores over these estimates of the same activities
 *   (activities with both), or 1 when there are none.
 * - With neither, moving hours times this athlete's Relative Effort per hour over the window's scored
 *   activities, or the zone 2 rate (moderate effort) when none has a score.
 *
 * Estimates are rounded to whole points, as Strava's scores are, so that daily loads are sums of integers.
 */
import type { LoadSources } from "./training-load-answer.ts";

/** Relative Effort points per hour in heart-rate zones 1 to 5 (Aime, 2017). */
export const zonePointsPerHour: readonly number[] = [25, 60, 115, 250, 300];
/** The rate for an hour of unmeasured training when the athlete has no score to learn from: zone 2's. */
const moderatePointsPerHour = zonePointsPerHour[1]!;

/** What an activity summary says about its effort. */
export interface ActivityEffort {
  /** Seconds. */
  movingTime: number;
  sufferScore: number | undefined;
  /** Beats per minute. */
  averageHeartrate: number | undefined;
}

/** One of the athlete's heart-rate zones as Strava gives it (`max` -1: no upper bound). */
export interface HeartRateZone {
  min: number;
  max: number;
}

export interface ActivityLoads {
  /** Each activity's load, in the order given. */
  loads: number[];
  sources: LoadSources;
}

/** Whether the activities need the athlete's heart-rate zones: some lack a score but have heart rate. */
export function needsHeartRateZones(activities: readonly ActivityEffort[]): boolean {
  return activities.some((activity) => activity.sufferScore === undefined && activity.averageHeartrate !== undefined);
}

/** The loads of `activities`; `zones` undefined when they could not be read (heart-rate estimates then fall back to moving time). */
export function activityLoads(activities: readonly ActivityEffort[], zones: readonly HeartRateZone[] | undefined): ActivityLoads {
  const usableZones = zones !== undefined && zones.length > 0 ? zones : undefined;
  const hours = (activity: ActivityEffort): number => Math.max(0, activity.movingTime) / 3600;
  const zonePoints = (activity: ActivityEffort, heartrate: number, inZones: readonly HeartRateZone[]): number =>
    hours(activity) * zonePointsPerHour[Math.min(zoneIndex(heartrate, inZones), zonePointsPerHour.length - 1)]!;

  let scored = 0;
  let scoredHours = 0;
  let scoredPoints = 0;
  let pairedScore = 0;
  let pairedPoints = 0;
  let paired = 0;
  for (const activity of activities) {
    if (activity.sufferScore === undefined) continue;
    scored++;
    scoredHours += hours(activity);
    scoredPoints += activity.sufferScore;
    if (usableZones && activity.averageHeartrate !== undefined) {
      const points = zonePoints(activity, activity.averageHeartrate, usableZones);
      if (points > 0) {
        paired++;
        pairedScore += activity.sufferScore;
        pairedPoints += points;
      }
    }
  }
  const scale = paired > 0 ? round(pairedScore / pairedPoints, 3) : 1;
  const perHour = scoredHours > 0 ? round(scoredPoints / scoredHours, 1) : moderatePointsPerHour;

  const sources: LoadSources = {
    suffer_score: scored,
    heart_rate_estimate: { count: 0, scale, calibrated_on: paired },
    moving_time_estimate: { count: 0, per_hour: perHour, calibrated_on: scoredHours > 0 ? scored : 0 },
  };
  const loads = activities.map((activity) => {
    if (activity.sufferScore !== undefined) return Math.round(activity.sufferScore);
    if (usableZones && activity.averageHeartrate !== undefined) {
      sources.heart_rate_estimate.count++;
      return Math.round(zonePoints(activity, activity.averageHeartrate, usableZones) * scale);
    }
    sources.moving_time_estimate.count++;
    return Math.round(hours(activity) * perHour);
  });
  return { loads, sources };
}

/** The zone (0-based) holding `heartrate`: the first whose upper bound is above it, else the last. */
function zoneIndex(heartrate: number, zones: readonly HeartRateZone[]): number {
  const index = zones.findIndex((zone) => zone.max === -1 || heartrate < zone.max);
  return index === -1 ? zones.length - 1 : index;
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
