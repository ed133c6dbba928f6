/**
 * Puts the training-load answer together from the activity summaries Strava listed: calibrates the estimates on
 * the span to today, gives every activity from the history's first date to the window's last its load, runs
 * fitness and fatigue over those days, and adds up the window's weeks and days. Pure: the window, the history's
 * first date, the FTP and the zones come in decided.
 */
import { sportColumns, type StravaLoadAnswer } from "./training-load-answer.ts";
import type { HeartRateZone } from "./effort-points.ts";
import { activityLoad, loadSources } from "./activity-load.ts";
import { dateOfDay } from "./calendar-days.ts";
import { modelledFitness } from "./fitness-series.ts";
import { calibrate, calibrationSpan, minimumFit, powerPairs } from "./load-calibration.ts";
import { listedActivities, type ListedActivity } from "./listed-activities.ts";
import { loadNumbers } from "./load-metrics.ts";
import { trainingWeeks, type DatedActivity } from "./training-weeks.ts";

export interface LoadWindow {
  firstDay: number;
  lastDay: number;
  timeZone: string;
  /** The first date of the history read (at or before firstDay): loads are counted from it, fitness and fatigue start at 0 the day before. */
  historyFrom: number;
  /** False when paging stopped at its bound before the history's planned start. */
  complete: boolean;
}

export interface SummaryInput {
  /** Activity summaries as Strava lists them, in any order, possibly some outside the window. */
  activities: readonly unknown[];
  window: LoadWindow;
  /** The athlete's local date today: the calibration span ends on it. */
  today: number;
  /** The athlete's FTP in watts; undefined when not read or not readable. */
  ftp: number | undefined;
  /** The athlete's heart-rate zones; undefined when not read or not readable. */
  heartRateZones: readonly HeartRateZone[] | undefined;
  upstreamRequests: number;
  /** Sentences the caller adds (the history's limits, why the FTP or zones could not be read). */
  notes: readonly string[];
}

export function trainingLoadAnswer(input: SummaryInput): StravaLoadAnswer {
  const { firstDay, lastDay, historyFrom } = input.window;
  const listed = listedActivities(input.activities);
  const calibration = calibrate(listed, calibrationSpan(input.today), input.ftp, input.heartRateZones);
  const counted: Array<ListedActivity & DatedActivity> = listed
    .filter((activity) => activity.day >= historyFrom && activity.day <= lastDay)
    .map((activity) => ({ ...activity, load: activityLoad(activity, calibration) }));

  const loads = new Array<number>(lastDay - historyFrom + 1).fill(0);
  const active = new Array<boolean>(lastDay - firstDay + 1).fill(false);
  for (const activity of counted) {
    loads[activity.day - historyFrom]! += activity.load;
    if (activity.day >= firstDay) active[activity.day - firstDay] = true;
  }
  const inWindow = counted.filter((activity) => activity.day >= firstDay);
  const numbers = loadNumbers({
    firstDay,
    lastDay,
    loadsFrom: historyFrom,
    loads,
    active,
    series: modelledFitness(loads, historyFrom),
  });

  const notes = [...input.notes, ...numbers.notes];
  const pairs = powerPairs(listed, calibration);
  if (pairs < minimumFit && counted.some((activity) => activity.sufferScore === undefined && activity.devicePower !== undefined)) {
    notes.push(
      `Only ${pairs} activities from ${dateOfDay(calibration.firstDay)} have both device power and Relative Effort (${minimumFit} are needed to put power on that scale), so activities with power but no Relative Effort are estimated from heart rate.`,
    );
  }
  const sources = loadSources(inWindow, calibration);
  const estimated = inWindow.length - sources.suffer_score;
  if (estimated > 0) {
    notes.push(
      `${estimated} of ${inWindow.length} activities have no Relative Effort from Strava; their load is an estimate (load_source).`,
    );
  }
  return {
    window: {
      first: dateOfDay(firstDay),
      last: dateOfDay(lastDay),
      time_zone: input.window.timeZone,
      activities: inWindow.length,
      history_from: dateOfDay(historyFrom),
      upstream_requests: input.upstreamRequests,
      complete: input.window.complete,
    },
    sport_columns: sportColumns,
    weeks: trainingWeeks(inWindow, firstDay, lastDay),
    days: { first: dateOfDay(firstDay), loads: loads.slice(firstDay - historyFrom) },
    load: numbers.load,
    trend: numbers.trend,
    load_source: sources,
    notes,
  };
}
