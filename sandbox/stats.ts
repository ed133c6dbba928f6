/**
 * GET /athletes/{id}/stats, computed from the athlete's activities: recent = the last 4 weeks, ytd =
 * since 1 January (athlete's local year), all = every activity the sandbox holds. Rides count Ride,
 * VirtualRide and e-bike types (and their sport types, e.g. GravelRide); runs count Run (incl. TrailRun)
 * and VirtualRun; swims count Swim. Private activities count too, as on Strava.
 */
import type { Activity } from "./activity-model.ts";
import { statsBucket } from "./activity-model.ts";
import { serializeJson } from "./bigint-json.ts";
import { round } from "./route-geometry.ts";
import { instantFromWallClock, wallClockAt } from "../common/time-zone.ts";

interface Totals {
  count: number;
  distance: number;
  moving_time: number;
  elapsed_time: number;
  elevation_gain: number;
  achievement_count: number;
}

const emptyTotals = (): Totals => ({ count: 0, distance: 0, moving_time: 0, elapsed_time: 0, elevation_gain: 0, achievement_count: 0 });

export function statsJson(activities: readonly Activity[], nowMs: number, zone: string): string {
  const recentFrom = nowMs - 28 * 86_400_000;
  const year = wallClockAt(nowMs, zone).year;
  const yearFrom = instantFromWallClock({ year, month: 1, day: 1, hour: 0, minute: 0, second: 0 }, zone);
  const totals = {
    recent: { ride: emptyTotals(), run: emptyTotals(), swim: emptyTotals() },
    ytd: { ride: emptyTotals(), run: emptyTotals(), swim: emptyTotals() },
    all: { ride: emptyTotals(), run: emptyTotals(), swim: emptyTotals() },
  };
  let biggestRide = 0;
  let biggestClimb = 0;
  for (const a of activities) {
    if (a.startMs > nowMs) continue;
    const bucket = statsBucket(a.type);
    if (!bucket) continue;
    add(totals.all[bucket], a);
    if (a.startMs >= yearFrom) add(totals.ytd[bucket], a);
    if (a.startMs >= recentFrom) add(totals.recent[bucket], a);
    if (bucket === "ride") {
      biggestRide = Math.max(biggestRide, a.distance);
      biggestClimb = Math.max(biggestClimb, a.totalElevationGain);
    }
  }
  const out = (t: Totals): Totals => ({ ...t, distance: round(t.distance, 1), elevation_gain: round(t.elevation_gain, 1) });
  return serializeJson({
    biggest_ride_distance: biggestRide,
    biggest_climb_elevation_gain: biggestClimb,
    recent_ride_totals: { ...out(totals.recent.ride) },
    all_ride_totals: { ...out(totals.all.ride) },
    recent_run_totals: { ...out(totals.recent.run) },
    all_run_totals: { ...out(totals.all.run) },
    recent_swim_totals: { ...out(totals.recent.swim) },
    all_swim_totals: { ...out(totals.all.swim) },
    ytd_ride_totals: { ...out(totals.ytd.ride) },
    ytd_run_totals: { ...out(totals.ytd.run) },
    ytd_swim_totals: { ...out(totals.ytd.swim) },
  });
}

function add(t: Totals, a: Activity): void {
  t.count++;
  t.distance += a.distance;
  t.moving_time += a.movingTime;
  t.elapsed_time += a.elapsedTime;
  t.elevation_gain += a.totalElevationGain;
  t.achievement_count += a.achievementCount;
}
