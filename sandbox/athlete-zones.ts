/**
 * GET /athlete/zones: the athlete's own heart-rate zones (and power zones, as the athlete has an FTP), the
 * `Zones` model of Strava's API description. The same zone edges count the time in zones of each activity
 * (sandbox/zones.ts).
 */
import { serializeJson } from "./bigint-json.ts";
import { heartRateZones, powerZones } from "./seed-athlete.ts";

export function athleteZonesJson(): string {
  return serializeJson({
    heart_rate: { custom_zones: false, zones: heartRateZones.map(({ min, max }) => ({ min, max })) },
    power: { zones: powerZones.map(({ min, max }) => ({ min, max })) },
  });
}
