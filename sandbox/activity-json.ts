/**
 * Activities as Strava writes them: the summary (list items, resource_state 2) and the detail
 * (resource_state 3, with laps, splits, segment efforts, gear and the full map polyline). Field names,
 * order and null-ness follow real Strava answers; segment-effort ids are bigint and come out as exact digits.
 */
import type { Activity } from "./activity-model.ts";
import type { JsonValue } from "./bigint-json.ts";
import type { Series } from "./streams.ts";
import { buildBestEfforts, buildLaps, buildSegmentEfforts, buildSplits } from "./activity-detail-parts.ts";
import { encodePolyline } from "./polyline.ts";
import { routePoints, round } from "./route-geometry.ts";
import { toIsoUtc } from "../common/time-zone.ts";
import { isoLocalWithZ } from "./strava-dates.ts";
import { gearById } from "./seed-athlete.ts";

type Json = { [key: string]: JsonValue | undefined };

export function summaryObject(a: Activity): Json {
  return { ...summaryHead(a), ...summaryMeasures(a) };
}

/** The summary's first half: what, when, where, and the athlete's flags. */
function summaryHead(a: Activity): Json {
  return {
    resource_state: 2,
    athlete: { id: a.athleteId, resource_state: 1 },
    name: a.name,
    distance: a.distance,
    moving_time: a.movingTime,
    elapsed_time: a.elapsedTime,
    total_elevation_gain: a.totalElevationGain,
    type: a.type,
    sport_type: a.sportType,
    workout_type: a.workoutType,
    id: a.id,
    start_date: toIsoUtc(a.startMs),
    start_date_local: isoLocalWithZ(a.startMs, a.utcOffset),
    timezone: a.timezone,
    utc_offset: a.utcOffset,
    location_city: null,
    location_state: null,
    location_country: a.locationCountry,
    achievement_count: a.achievementCount,
    kudos_count: a.kudosCount,
    comment_count: a.commentCount,
    athlete_count: a.athleteCount,
    photo_count: 0,
    map: { id: `a${a.id}`, summary_polyline: a.summaryPolyline, resource_state: 2 },
    trainer: a.trainer,
    commute: a.commute,
    manual: a.manual,
    private: a.private,
    visibility: a.private ? "only_me" : "everyone",
    flagged: false,
    gear_id: a.gearId,
  };
}

/** The summary's second half: positions, speeds, power, heart rate, and where the recording came from. */
function summaryMeasures(a: Activity): Json {
  const hasHeartrate = a.averageHeartrate !== null;
  return {
    start_latlng: a.startLatlng,
    end_latlng: a.endLatlng,
    average_speed: a.averageSpeed,
    max_speed: a.maxSpeed,
    average_cadence: a.averageCadence ?? undefined,
    average_temp: a.averageTemp ?? undefined,
    average_watts: a.averageWatts ?? undefined,
    max_watts: a.maxWatts ?? undefined,
    weighted_average_watts: a.weightedAverageWatts ?? undefined,
    device_watts: a.averageWatts !== null ? a.deviceWatts : undefined,
    kilojoules: a.kilojoules ?? undefined,
    has_heartrate: hasHeartrate,
    average_heartrate: a.averageHeartrate ?? undefined,
    max_heartrate: a.maxHeartrate ?? undefined,
    heartrate_opt_out: false,
    display_hide_heartrate_option: hasHeartrate,
    elev_high: a.elevHigh ?? undefined,
    elev_low: a.elevLow ?? undefined,
    upload_id: a.uploadId,
    upload_id_str: a.uploadId !== null ? String(a.uploadId) : undefined,
    external_id: a.externalId,
    from_accepted_tag: false,
    pr_count: a.prCount,
    total_photo_count: 0,
    has_kudoed: false,
    suffer_score: a.sufferScore,
    hide_from_home: a.hideFromHome,
    device_name: a.deviceName ?? undefined,
  };
}

export interface DetailContext {
  series: Series | null;
  /** Total distance on a gear, in metres (odometer before the sandbox's history plus its activities). */
  gearDistance(gearId: string): number;
  /** Strava's `include_all_efforts=true`: hidden segment efforts too. */
  includeAllEfforts?: boolean;
}

export function detailObject(a: Activity, context: DetailContext): Json {
  const summary = summaryObject(a);
  const series = context.series;
  const route = a.recording?.route ?? null;
  const polyline = route ? encodePolyline(routePoints(route, a.distance, Math.min(2_000, Math.max(60, Math.round(a.distance / 40))))) : "";
  const gear = a.gearId ? gearById(a.gearId) : undefined;
  const hasDistance = a.distance > 0 && series !== null && series.distance.length > 0;
  const zones: string[] = [];
  if (a.averageHeartrate !== null && !a.manual) zones.push("heartrate");
  if (a.deviceWatts) zones.push("power");
  return {
    ...summary,
    resource_state: 3,
    map: { id: `a${a.id}`, polyline, resource_state: 3, summary_polyline: a.summaryPolyline },
    description: a.description,
    photos: { primary: null, count: 0 },
    gear: gear
      ? {
          id: gear.id,
          primary: gear.primary,
          name: gear.name,
          nickname: gear.nickname,
          resource_state: 2,
          retired: false,
          distance: Math.round(context.gearDistance(gear.id)),
          converted_distance: round(context.gearDistance(gear.id) / 1000, 1),
        }
      : undefined,
    calories: a.calories,
    segment_efforts: buildSegmentEfforts(a, series, context.includeAllEfforts),
    splits_metric: hasDistance ? buildSplits(a, series, 1000) : undefined,
    splits_standard: hasDistance ? buildSplits(a, series, 1609.34) : undefined,
    laps: buildLaps(a, series),
    best_efforts: buildBestEfforts(a, series),
    partner_brand_tag: null,
    highlighted_kudosers: [],
    embed_token: embedToken(a.id),
    segment_leaderboard_opt_out: false,
    leaderboard_opt_out: false,
    perceived_exertion: null,
    prefer_perceived_exertion: false,
    available_zones: zones,
    stats_visibility: [
      { type: "heart_rate", visibility: "everyone" },
      { type: "pace", visibility: "everyone" },
      { type: "power", visibility: "everyone" },
      { type: "speed", visibility: "everyone" },
      { type: "calories", visibility: "everyone" },
    ],
  };
}

/** A stable 40-hex-digit token per activity (Strava's embed tokens look like this). */
function embedToken(id: number): string {
  let out = "";
  let x = id % 4_294_967_291;
  for (let i = 0; i < 5; i++) {
    x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x297a2d39 + i) >>> 0;
    out += x.toString(16).padStart(8, "0");
  }
  return out;
}
