/**
 * Puts the training-load answer together from the activity summaries Strava listed: keeps those whose local
 * start date is in the window, gives each its load, and adds up weeks, days and the load numbers. Pure: the
 * window and the zones come in decided.
 */
import type { TrainingLoadAnswer } from "./training-load-answer.ts";
import { activityLoads, type ActivityEffort, type HeartRateZone } from "./activity-load.ts";
import { dateOfDay, dayOfDate } from "./calendar-days.ts";
import { loadNumbers } from "./load-metrics.ts";
import { trainingWeeks, type DatedActivity } from "./training-weeks.ts";

export interface LoadWindow {
  firstDay: number;
  lastDay: number;
  timeZone: string;
  /** False when paging stopped at its bound (firstDay then moved up). */
  complete: boolean;
}

export interface SummaryInput {
  /** Activity summaries as Strava lists them, in any order, possibly some outside the window. */
  activities: readonly unknown[];
  window: LoadWindow;
  /** The athlete's heart-rate zones; undefined when not read or not readable. */
  heartRateZones: readonly HeartRateZone[] | undefined;
  upstreamRequests: number;
  /** Sentences the caller adds (why the zones could not be read, where paging stopped). */
  notes: readonly string[];
}

/** An activity summary read for what the summary needs, with its local date. */
interface ListedActivity extends ActivityEffort {
  day: number;
  sportType: string;
  distance: number;
  elevationGain: number;
}

/** The activities of the window, read from Strava's summaries. */
export function windowActivities(activities: readonly unknown[], firstDay: number, lastDay: number): ListedActivity[] {
  const listed: ListedActivity[] = [];
  for (const item of activities) {
    if (typeof item !== "object" || item === null) continue;
    const activity = item as Record<string, unknown>;
    // start_date_local is the athlete's wall clock, despite its "Z": its date is the local date.
    const day = dayOfDate(activity["start_date_local"]);
    if (day === undefined || day < firstDay || day > lastDay) continue;
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
    });
  }
  return listed;
}

export function trainingLoadAnswer(input: SummaryInput): TrainingLoadAnswer {
  const { firstDay, lastDay } = input.window;
  const activities = windowActivities(input.activities, firstDay, lastDay);
  const { loads, sources } = activityLoads(activities, input.heartRateZones);
  const dated: DatedActivity[] = activities.map((activity, index) => ({ ...activity, load: loads[index]! }));

  const length = lastDay - firstDay + 1;
  const dayLoads = new Array<number>(length).fill(0);
  const active = new Array<boolean>(length).fill(false);
  for (const activity of dated) {
    dayLoads[activity.day - firstDay]! += activity.load;
    active[activity.day - firstDay] = true;
  }
  const { load, notes: shortWindow } = loadNumbers(dayLoads, active, firstDay);

  const notes = [...input.notes, ...shortWindow];
  const estimated = sources.heart_rate_estimate.count + sources.moving_time_estimate.count;
  if (estimated > 0) {
    notes.push(
      `${estimated} of ${activities.length} activities have no Relative Effort from Strava; their load is an estimate (load_source).`,
    );
  }
  return {
    window: {
      first: dateOfDay(firstDay),
      last: dateOfDay(lastDay),
      time_zone: input.window.timeZone,
      activities: activities.length,
      upstream_requests: input.upstreamRequests,
      complete: input.window.complete,
    },
    weeks: trainingWeeks(dated, firstDay, lastDay),
    days: { first: dateOfDay(firstDay), loads: dayLoads },
    load,
    load_source: sources,
    notes,
  };
}

function nonNegative(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function positive(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}
