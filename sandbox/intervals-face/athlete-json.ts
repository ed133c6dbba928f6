/**
 * GET /athlete/{id}: Maya as intervals.icu's API writes an athlete with her sport settings (its
 * `WithSportSettings` model): her time zone (which the tools read "today" from), weight and resting heart rate,
 * and per sport group her FTP, threshold and maximum heart rate and zones. The API key field stays empty: the
 * sandbox never hands a key back.
 */
import { serializeJson, type JsonValue } from "../bigint-json.ts";
import { seedAthlete, seedGear } from "../seed-athlete.ts";
import { toIsoUtc } from "../../common/time-zone.ts";
import { intervalsAthleteId } from "./intervals-identity.ts";
import {
  ftp,
  hrZoneTops,
  lthrFor,
  maxHeartRate,
  powerZoneTops,
  restingHeartRate,
  sportGroups,
  sweetSpot,
  wPrime,
} from "./sport-settings.ts";

export function athleteJson(gearDistance: (id: string) => number, lastSeenMs: number): string {
  const gear = (kind: "bike" | "shoe") =>
    seedGear
      .filter((g) => g.kind === kind)
      .map((g) => ({ id: g.id, name: g.name, distance: Math.round(gearDistance(g.id)), primary: g.primary }));
  return serializeJson({
    id: intervalsAthleteId,
    name: `${seedAthlete.firstname} ${seedAthlete.lastname}`,
    firstname: seedAthlete.firstname,
    lastname: seedAthlete.lastname,
    profile_medium: null,
    sex: seedAthlete.sex,
    city: seedAthlete.city,
    state: seedAthlete.state,
    country: seedAthlete.country,
    timezone: seedAthlete.timeZone,
    locale: "en",
    measurement_preference: seedAthlete.measurementPreference,
    weight_pref_lb: false,
    fahrenheit: false,
    weight: seedAthlete.weight,
    icu_weight: seedAthlete.weight,
    icu_resting_hr: restingHeartRate,
    bio: seedAthlete.bio,
    visibility: "PRIVATE",
    status: "ACTIVE",
    plan: "SUPPORTER",
    icu_activated: "2021-03-02T18:44:05Z",
    icu_last_seen: toIsoUtc(lastSeenMs),
    icu_api_key: null,
    icu_date_of_birth: null,
    bikes: gear("bike"),
    shoes: gear("shoe"),
    icu_garmin_sync_activities: true,
    icu_garmin_health: true,
    strava_authorized: true,
    strava_sync_activities: true,
    sportSettings: sportGroups.map(sportSettingsJson),
  });
}

/** One sport group's settings: power for rides, pace for runs and swims, heart rate for all. */
function sportSettingsJson(group: (typeof sportGroups)[number]): JsonValue {
  const ride = group.kind === "ride";
  const timed = group.kind === "ride" || group.kind === "run";
  return {
    id: group.id,
    athlete_id: intervalsAthleteId,
    types: [...group.types],
    ftp: ride ? ftp : null,
    indoor_ftp: ride ? ftp : null,
    w_prime: ride ? wPrime : null,
    p_max: ride ? 780 : null,
    power_zones: ride ? [...powerZoneTops] : null,
    power_zone_names: ride ? ["Active Recovery", "Endurance", "Tempo", "Threshold", "VO2 Max", "Anaerobic", "Neuromuscular"] : null,
    sweet_spot_min: ride ? sweetSpot.min : null,
    sweet_spot_max: ride ? sweetSpot.max : null,
    lthr: group.kind === "swim" ? null : lthrFor(group.types[0]),
    max_hr: maxHeartRate,
    hr_zones: [...hrZoneTops],
    hr_zone_names: ["Recovery", "Aerobic", "Tempo", "Threshold", "Anaerobic"],
    hr_load_type: "HRSS",
    threshold_pace: group.kind === "run" ? 3.7 : group.kind === "swim" ? 0.95 : null,
    pace_units: group.kind === "run" ? "MINS_KM" : group.kind === "swim" ? "SECS_100M" : null,
    load_order: "POWER_HR_PACE",
    warmup_time: timed ? 600 : null,
    cooldown_time: timed ? 600 : null,
    other: group.kind === "other",
  };
}
