/**
 * An activity as intervals.icu's API writes it (its `Activity` model): intervals.icu's own fields beside the
 * recorded ones (training load, intensity, FTP and zones used, time in zones, fitness and fatigue that day),
 * local start without a zone suffix, ids as `i...`, and nulls where a value is missing, as intervals.icu sends
 * them. An activity that reached intervals.icu from Strava is answered as intervals.icu's API answers it: a
 * five-field stub with a `_note` (issue threads of public intervals.icu clients quote it, and the `Hidden` model
 * of its API description has exactly these fields).
 */
import type { JsonValue } from "../bigint-json.ts";
import type { Activity } from "../activity-model.ts";
import { gearById, seedAthlete } from "../seed-athlete.ts";
import { toIsoUtc } from "../../common/time-zone.ts";
import { isoLocalWithZ } from "../strava-dates.ts";
import type { ActivityLoad } from "./activity-load.ts";
import { round } from "./activity-load.ts";
import { intervalsSource } from "./activity-source.ts";
import { intervalsActivityId, intervalsAthleteId } from "./intervals-identity.ts";
import { ftp, hrZoneTops, lthrFor, maxHeartRate, powerZoneTops, restingHeartRate, sweetSpot, wPrime } from "./sport-settings.ts";

export type Json = { [key: string]: JsonValue | undefined };

/** What intervals.icu's API says of an activity Strava sent it. */
export const stravaNote = "STRAVA activities are not available via the API";

/** The streams intervals.icu would hold for what the device recorded (its names, not Strava's `moving`/`grade_smooth`). */
export const intervalsStreamTypes = [
  "time",
  "distance",
  "latlng",
  "altitude",
  "velocity_smooth",
  "heartrate",
  "cadence",
  "watts",
  "temp",
] as const;

/** The athlete-entered parts intervals.icu keeps beside a recording. */
export interface ActivityExtras {
  icuRpe?: number | null;
  feel?: number | null;
  /** A manual activity's load as entered. */
  enteredLoad?: number | null;
}

export interface ActivityJsonContext {
  load: ActivityLoad;
  extras: ActivityExtras | undefined;
  hrZoneTimes: number[] | null;
  powerZoneTimes: Array<{ id: string; secs: number }> | null;
  /** intervals.icu's fitness and fatigue at the end of the activity's day. */
  fitness: { ctl: number; atl: number } | undefined;
  gearDistance(gearId: string): number;
}

/** intervals.icu's type for a Strava sport type (the names agree for every sport both know). */
export function intervalsType(activity: Activity): string {
  return intervalsTypes.has(activity.sportType) ? activity.sportType : "Other";
}

export function stubObject(activity: Activity): Json {
  return {
    id: intervalsActivityId(activity),
    icu_athlete_id: intervalsAthleteId,
    start_date_local: localDateTime(activity),
    source: "STRAVA",
    _note: stravaNote,
  };
}

export function activityObject(activity: Activity, context: ActivityJsonContext): Json {
  if (intervalsSource(activity) === "STRAVA") return stubObject(activity);
  const type = intervalsType(activity);
  const hasPower = activity.deviceWatts && activity.weightedAverageWatts !== null;
  const hasHr = activity.averageHeartrate !== null;
  return {
    ...identityFields(activity, type),
    ...movementFields(activity),
    ...heartRateFields(activity, type, hasHr, context),
    ...powerFields(activity, hasPower, hasHr, context),
    ...loadFields(activity, context),
  };
}

/** Which activity this is, where it came from and when intervals.icu had it. */
function identityFields(activity: Activity, type: string): Json {
  const recorded = activity.recording !== null;
  const finishedMs = activity.startMs + activity.elapsedTime * 1000;
  return {
    id: intervalsActivityId(activity),
    icu_athlete_id: intervalsAthleteId,
    start_date_local: localDateTime(activity),
    start_date: toIsoUtc(activity.startMs),
    timezone: seedAthlete.timeZone,
    type,
    name: activity.name,
    description: activity.description === "" ? null : activity.description,
    source: intervalsSource(activity),
    external_id: activity.externalId,
    device_name: activity.deviceName,
    file_type: recorded ? "fit" : null,
    created: toIsoUtc(finishedMs + 4 * 60_000),
    analyzed: toIsoUtc(finishedMs + 5 * 60_000),
    icu_sync_date: toIsoUtc(finishedMs + 4 * 60_000),
  };
}

/** Distance, time, climbing, speed and the recording's averages. */
function movementFields(activity: Activity): Json {
  const recorded = activity.recording !== null;
  return {
    distance: activity.distance,
    icu_distance: activity.distance,
    moving_time: activity.movingTime,
    elapsed_time: activity.elapsedTime,
    icu_recording_time: recorded ? activity.elapsedTime : null,
    total_elevation_gain: recorded ? activity.totalElevationGain : null,
    total_elevation_loss: recorded ? activity.totalElevationGain : null,
    min_altitude: activity.elevLow,
    max_altitude: activity.elevHigh,
    average_altitude: activity.elevLow !== null && activity.elevHigh !== null ? round((activity.elevLow + activity.elevHigh) / 2, 1) : null,
    trainer: activity.trainer,
    commute: activity.commute,
    race: false,
    sub_type: activity.commute ? "COMMUTE" : "NONE",
    average_speed: activity.averageSpeed,
    max_speed: recorded ? activity.maxSpeed : null,
    average_cadence: activity.averageCadence,
    average_temp: activity.averageTemp,
  };
}

/** Heart rate, and the athlete's heart-rate settings the activity was analysed with. */
function heartRateFields(activity: Activity, type: string, hasHr: boolean, context: ActivityJsonContext): Json {
  return {
    has_heartrate: hasHr,
    average_heartrate: activity.averageHeartrate,
    max_heartrate: activity.maxHeartrate,
    athlete_max_hr: maxHeartRate,
    lthr: hasHr ? lthrFor(type) : null,
    icu_resting_hr: restingHeartRate,
    icu_weight: seedAthlete.weight,
    icu_hr_zones: hasHr ? [...hrZoneTops] : null,
    icu_hr_zone_times: context.hrZoneTimes,
  };
}

/** Power from a power meter, and the power settings it was analysed with (null without one). */
function powerFields(activity: Activity, hasPower: boolean, hasHr: boolean, context: ActivityJsonContext): Json {
  return {
    device_watts: hasPower,
    icu_ftp: hasPower ? ftp : null,
    icu_w_prime: hasPower ? wPrime : null,
    icu_power_zones: hasPower ? [...powerZoneTops] : null,
    icu_sweet_spot_min: hasPower ? sweetSpot.min : null,
    icu_sweet_spot_max: hasPower ? sweetSpot.max : null,
    icu_zone_times: context.powerZoneTimes,
    icu_average_watts: hasPower && activity.averageWatts !== null ? Math.round(activity.averageWatts) : null,
    icu_weighted_avg_watts: hasPower ? activity.weightedAverageWatts : null,
    icu_joules: hasPower && activity.kilojoules !== null ? Math.round(activity.kilojoules * 1000) : null,
    icu_variability_index:
      hasPower && activity.averageWatts ? round((activity.weightedAverageWatts ?? 0) / activity.averageWatts, 3) : null,
    icu_efficiency_factor: hasPower && hasHr ? round((activity.weightedAverageWatts ?? 0) / (activity.averageHeartrate ?? 1), 3) : null,
  };
}

/** Training load, fitness and fatigue that day, what the athlete entered, gear and streams. */
function loadFields(activity: Activity, context: ActivityJsonContext): Json {
  const { load, extras } = context;
  const rpe = extras?.icuRpe ?? null;
  const gear = activity.gearId ? gearById(activity.gearId) : undefined;
  return {
    calories: activity.calories > 0 ? Math.round(activity.calories) : null,
    icu_training_load: load.trainingLoad,
    power_load: load.powerLoad,
    hr_load: load.hrLoad,
    pace_load: null,
    hr_load_type: load.hrLoad !== null ? "HRSS" : null,
    icu_intensity: load.intensity,
    trimp: load.trimp,
    icu_ctl: context.fitness?.ctl ?? null,
    icu_atl: context.fitness?.atl ?? null,
    icu_rpe: rpe,
    session_rpe: rpe !== null ? Math.round(rpe * (activity.movingTime / 60)) : null,
    feel: extras?.feel ?? null,
    perceived_exertion: null,
    gear: gear ? { id: gear.id, name: gear.name, distance: Math.round(context.gearDistance(gear.id)), primary: gear.primary } : null,
    stream_types: activity.recording !== null ? intervalsStreamTypes.filter((type) => activity.recording!.streams.includes(type)) : [],
    strava_id: null,
    icu_lap_count: null,
    interval_summary: null,
    icu_achievements: null,
  };
}

/** "2026-11-21T07:12:33": the athlete's wall clock, without a zone, as intervals.icu writes it. */
export function localDateTime(activity: Activity): string {
  return isoLocalWithZ(activity.startMs, activity.utcOffset).replace(/Z$/, "");
}

/**
 * The activity types of intervals.icu's API description (`SportInfo.type`). The tools keep the same list in
 * intervals/activity-types.ts; the sandbox keeps its own (it imports only common/, so that a mistake in the tools'
 * list cannot hide in the fake that checks them), and test/sandbox/intervals-contract.test.ts checks it against
 * the description as the tools' test checks theirs.
 */
export const intervalsTypes: ReadonlySet<string> = new Set([
  "Ride",
  "Run",
  "Swim",
  "WeightTraining",
  "Hike",
  "Walk",
  "AlpineSki",
  "BackcountrySki",
  "Badminton",
  "Canoeing",
  "Crossfit",
  "EBikeRide",
  "EMountainBikeRide",
  "Elliptical",
  "Golf",
  "GravelRide",
  "TrackRide",
  "Handcycle",
  "HighIntensityIntervalTraining",
  "Hockey",
  "IceSkate",
  "InlineSkate",
  "Kayaking",
  "Kitesurf",
  "MountainBikeRide",
  "Cyclocross",
  "NordicSki",
  "OpenWaterSwim",
  "Padel",
  "Pilates",
  "Pickleball",
  "Racquetball",
  "Rugby",
  "RockClimbing",
  "RollerSki",
  "Rowing",
  "Sail",
  "Skateboard",
  "Snowboard",
  "Snowshoe",
  "Soccer",
  "Squash",
  "StairStepper",
  "StandUpPaddling",
  "Surfing",
  "TableTennis",
  "Tennis",
  "TrailRun",
  "Transition",
  "Velomobile",
  "VirtualRide",
  "VirtualRow",
  "VirtualRun",
  "VirtualSki",
  "WaterSport",
  "Wheelchair",
  "Windsurf",
  "Workout",
  "Yoga",
  "Other",
]);
