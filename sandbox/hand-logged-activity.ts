/**
 * An activity the athlete entered by hand (Strava's `manual: true`): no device, no heart rate, no streams,
 * and so no Relative Effort; the shape POST /activities creates.
 */
import type { Activity } from "./activity-model.ts";
import { activityTypeFor } from "./activity-model.ts";
import { round } from "./route-geometry.ts";
import { seedAthlete } from "./seed-athlete.ts";
import { utcOffsetSeconds } from "./strava-dates.ts";

export interface HandLoggedInput {
  id: number;
  name: string;
  /** Null when none was given (POST /activities without one). */
  description: string | null;
  sportType: string;
  startMs: number;
  /** Seconds; a hand-logged activity's moving time is its elapsed time. */
  elapsed: number;
  /** Metres. */
  distance: number;
  zone: string;
  timezoneLabel: string;
}

export function handLoggedActivity(input: HandLoggedInput): Activity {
  return {
    id: input.id,
    athleteId: seedAthlete.id,
    name: input.name,
    description: input.description,
    sportType: input.sportType,
    type: activityTypeFor(input.sportType),
    startMs: input.startMs,
    timezone: input.timezoneLabel,
    utcOffset: utcOffsetSeconds(input.startMs, input.zone),
    elapsedTime: input.elapsed,
    movingTime: input.elapsed,
    distance: round(input.distance, 1),
    totalElevationGain: 0,
    elevHigh: null,
    elevLow: null,
    trainer: false,
    commute: false,
    manual: true,
    private: false,
    hideFromHome: false,
    gearId: null,
    workoutType: null,
    externalId: null,
    uploadId: null,
    deviceName: null,
    averageSpeed: round(input.distance / input.elapsed, 3),
    maxSpeed: 0,
    averageHeartrate: null,
    maxHeartrate: null,
    averageCadence: null,
    averageWatts: null,
    weightedAverageWatts: null,
    maxWatts: null,
    kilojoules: null,
    deviceWatts: false,
    averageTemp: null,
    calories: 0,
    sufferScore: null,
    achievementCount: 0,
    kudosCount: 0,
    commentCount: 0,
    athleteCount: 1,
    prCount: 0,
    startLatlng: null,
    endLatlng: null,
    locationCountry: seedAthlete.country,
    summaryPolyline: "",
    recording: null,
    segmentWindows: [],
    version: 1,
  };
}
