/**
 * GET /activities/{id}/zones: time spent in each heart-rate zone (and power zone, for rides with a power
 * meter), counted second by second from the activity's own streams. A subscriber feature on Strava;
 * the seed athlete is a subscriber. Activities without a heart-rate or power stream answer [].
 */
import type { Activity } from "./activity-model.ts";
import type { Series } from "./streams.ts";
import { serializeJson } from "./bigint-json.ts";
import type { JsonValue } from "./bigint-json.ts";
import { heartRateZones, powerZones, seedAthlete } from "./seed-athlete.ts";

export function zonesJson(activity: Activity, series: Series | null): string {
  const zones: JsonValue[] = [];
  if (series && series.heartrate.length > 0) {
    const buckets = distribution(series.heartrate, series.moving, heartRateZones);
    zones.push({
      // The summary's suffer_score ("relative effort") is this score, as on Strava.
      score: activity.sufferScore ?? 0,
      distribution_buckets: buckets,
      type: "heartrate",
      resource_state: 3,
      sensor_based: true,
      points: Math.round(activity.movingTime / 60),
      custom_zones: false,
      max: seedAthlete.heartrate.max,
    });
  }
  if (series && series.watts.length > 0) {
    zones.push({
      score: Math.round((activity.weightedAverageWatts ?? activity.averageWatts ?? 0) * (activity.movingTime / 3600) * 0.9),
      distribution_buckets: distribution(series.watts, series.moving, powerZones),
      type: "power",
      resource_state: 3,
      sensor_based: activity.deviceWatts,
    });
  }
  return serializeJson(zones);
}

function distribution(values: number[], moving: boolean[], edges: ReadonlyArray<{ min: number; max: number }>): JsonValue[] {
  const times = edges.map(() => 0);
  for (let t = 0; t < values.length; t++) {
    if (moving.length > 0 && !moving[t]) continue;
    const v = values[t] ?? 0;
    let zone = edges.length - 1;
    for (let z = 0; z < edges.length; z++) {
      const edge = edges[z]!;
      if (edge.max === -1 || v < edge.max) {
        zone = z;
        break;
      }
    }
    times[zone] = (times[zone] ?? 0) + 1;
  }
  return edges.map((edge, z) => ({ min: edge.min, max: edge.max, time: times[z] ?? 0 }));
}
