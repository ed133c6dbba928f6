/**
 * Monday-to-Sunday weeks over a window of local dates: totals per sport (as arrays in `sportColumns`' order) and
 * for the week, rest days, and the change of load and moving time from the week before. A week cut by the
 * window is marked partial; the current week, cut at today, is compared with the same weekdays of the week
 * before, so that a week in progress does not read as a drop.
 */
import type { ActivityTotals, SportTotals, WeekSummary } from "./training-load-answer.ts";
import { dateOfDay, mondayOf } from "./calendar-days.ts";

/** An activity placed on its local date, with its load. */
export interface DatedActivity {
  day: number;
  sportType: string;
  /** Metres. */
  distance: number;
  /** Seconds. */
  movingTime: number;
  /** Metres. */
  elevationGain: number;
  load: number;
}

/**
 * `activeDays`: dates with an activity that is not among `activities` (intervals.icu's stubs of Strava-synced
 * activities, which have no totals to add): not rest days.
 */
export function trainingWeeks(
  activities: readonly DatedActivity[],
  firstDay: number,
  lastDay: number,
  activeDays: ReadonlySet<number> = new Set(),
): WeekSummary[] {
  const weeks: WeekSummary[] = [];
  // Per day of the window: load, moving time and activity count, for rest days and like-for-like changes.
  const length = lastDay - firstDay + 1;
  const dayLoad = new Array<number>(length).fill(0);
  const dayMoving = new Array<number>(length).fill(0);
  const dayCount = new Array<number>(length).fill(0);
  for (const activity of activities) {
    const index = activity.day - firstDay;
    dayLoad[index]! += activity.load;
    dayMoving[index]! += activity.movingTime;
    dayCount[index]!++;
  }
  const spanSum = (values: readonly number[], from: number, to: number): number => {
    let total = 0;
    for (let day = from; day <= to; day++) total += values[day - firstDay] ?? 0;
    return total;
  };

  for (let monday = mondayOf(firstDay); monday <= lastDay; monday += 7) {
    const from = Math.max(firstDay, monday);
    const to = Math.min(lastDay, monday + 6);
    const inWeek = activities.filter((activity) => activity.day >= from && activity.day <= to);
    const bySport = new Map<string, DatedActivity[]>();
    for (const activity of inWeek) bySport.set(activity.sportType, [...(bySport.get(activity.sportType) ?? []), activity]);
    const sports: Record<string, SportTotals> = {};
    for (const sport of [...bySport.keys()].sort()) sports[sport] = asColumns(totals(bySport.get(sport)!));
    let restDays = 0;
    for (let day = from; day <= to; day++) if (dayCount[day - firstDay] === 0 && !activeDays.has(day)) restDays++;

    // The week before, over the same weekdays as this one's (all seven unless this week ends at the window's end).
    const previousFrom = monday - 7;
    const comparable = from === monday && previousFrom >= firstDay;
    const previousTo = previousFrom + (to - monday);
    const change = (values: readonly number[]): number | null =>
      comparable ? percentChange(spanSum(values, from, to), spanSum(values, previousFrom, previousTo)) : null;

    weeks.push({
      week: dateOfDay(monday),
      partial: to - from + 1 < 7,
      days: to - from + 1,
      total: totals(inWeek),
      sports,
      rest_days: restDays,
      load_change_percent: change(dayLoad),
      moving_time_change_percent: change(dayMoving),
    });
  }
  return weeks;
}

function totals(activities: readonly DatedActivity[]): ActivityTotals {
  // Metres are summed as whole decimetres (Strava's precision), so the total does not depend on the order.
  let decimetres = 0;
  let climbDecimetres = 0;
  let movingTime = 0;
  let load = 0;
  for (const activity of activities) {
    decimetres += Math.round(activity.distance * 10);
    climbDecimetres += Math.round(activity.elevationGain * 10);
    movingTime += activity.movingTime;
    load += activity.load;
  }
  return {
    count: activities.length,
    distance: Math.round(decimetres / 10),
    moving_time: Math.round(movingTime),
    elevation_gain: Math.round(climbDecimetres / 10),
    load,
  };
}

function asColumns(totals: ActivityTotals): SportTotals {
  return [totals.count, totals.distance, totals.moving_time, totals.elevation_gain, totals.load];
}

/** Whole percent: the coach's rules speak of 10 to 30 percent, and a decimal per week adds tokens and nothing else. */
function percentChange(current: number, previous: number): number | null {
  return previous > 0 ? Math.round(((current - previous) / previous) * 100) + 0 : null;
}
