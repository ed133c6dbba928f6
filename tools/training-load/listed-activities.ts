/**
 * Strava's activity summaries (the items of GET /athlete/activities) read for what the training load needs: the
 * local date, the sport, the totals, and each signal a load can be taken from. Anything missing or malformed
 * reads as absent, so one odd item never fails a summary.
 */
import { dayOfDate } from "./calendar-days.ts";

/** What an activity summary says about its effort. */
export interface ActivityEffort {
  sportType: string;
  /** Seconds. */
  movingTime: number;
  /** Strava's Relative Effort. */
  sufferScore: number | undefined;
  /** Beats per minute. */
  averageHeartrate: number | undefined;
  /** `weighted_average_watts`, only when `device_watts` says a power meter measured it (Strava's estimates do not count). */
  devicePower: number | undefined;
}

/** An activity on its local date, with its totals. */
export interface ListedActivity extends ActivityEffort {
  day: number;
  /** Metres. */
  distance: number;
  /** Metres. */
  elevationGain: number;
}

/** The activities among Strava's summaries that have a local date, in the order given. */
export function listedActivities(items: readonly unknown[]): ListedActivity[] {
  const listed: ListedActivity[] = [];
  for (const item of items) {
    if (typeof item !== "object" || item === null) continue;
    const activity = item as Record<string, unknown>;
    // start_date_local is the athlete's wall clock, despite its "Z": its date is the local date.
    const day = dayOfDate(activity["start_date_local"]);
    if (day === undefined) continue;
    listed.push({
      day,
      sportType:
        typeof activity["sport_type"] === "string"
          ? activity["sport_type"]
          : typeof activity["type"] === "string"
            ? activity["type"]
            : "Unknown",
      distance: nonNegative(activity["distance"]) ?? 0,
      movingTime: nonNegative(activity["moving_time"]) ?? 0,
      elevationGain: nonNegative(activity["total_elevation_gain"]) ?? 0,
      sufferScore: nonNegative(activity["suffer_score"]),
      averageHeartrate: positive(activity["average_heartrate"]),
      devicePower: activity["device_watts"] === true ? positive(activity["weighted_average_watts"]) : undefined,
    });
  }
  return listed;
}

/** The local date of a summary, or undefined. */
export function dayOfSummary(item: unknown): number | undefined {
  return typeof item === "object" && item !== null ? dayOfDate((item as Record<string, unknown>)["start_date_local"]) : undefined;
}

/** A finite number of at least zero, or undefined: a field read from an answer that may hold anything. */
export function nonNegative(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function positive(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}
