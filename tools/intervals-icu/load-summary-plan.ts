/**
 * The requests behind `get_activities` with `summary: true` on intervals.icu, as a plan (tools/definition/request-plan.ts):
 * two, whatever the window, since intervals.icu keeps load, fitness and fatigue itself and its history need not be read:
 *
 * 1. `GET /athlete/{id}/activities` for the window's dates (`newest` sent as the end of its day, as the list tool does),
 *    with only the fields the weeks need;
 * 2. `GET /athlete/{id}/wellness` from 28 dates before the window (35 before its last date for a short one: the
 *    readiness baseline) to its last date, with only the fields the numbers need, in one request.
 *
 * The window is whole local dates of the athlete's (intervals.icu's time zone for them): from `oldest` (default: the
 * Monday eleven weeks before the current week's, so twelve calendar weeks, as on Strava) to `newest` (default and at
 * most today). The reduction is the answer (load-summary.ts).
 */
import type { RequestPlan, UpstreamAnswer } from "../definition/request-plan.ts";
import type { UpstreamRequest } from "../../common/upstream/upstream-request.ts";
import { ToolInputError } from "../arguments/validate-arguments.ts";
import { UpstreamBodyError } from "../../common/upstream/upstream-errors.ts";
import { mondayOf } from "../training-load/calendar-days.ts";
import { defaultWeeks, maxWindowDays } from "../training-load/training-load-plan.ts";
import { readinessFields } from "../training-load/readiness-trend.ts";
import { dateOfDayNumber, dayNumber } from "./local-dates.ts";
import { intervalsLoadAnswer, wellnessFrom } from "./load-summary.ts";

/** What the weeks need of each activity (and `source`, which tells a stub). intervals.icu then leaves out empty values too. */
export const summaryActivityFields = [
  "id",
  "start_date_local",
  "type",
  "source",
  "distance",
  "moving_time",
  "total_elevation_gain",
  "icu_training_load",
] as const;

/** What the numbers need of each day's wellness record. */
export const summaryWellnessFields = ["id", "ctl", "atl", "rampRate", "ctlLoad", ...readinessFields] as const;

export interface IntervalsSummaryArguments {
  oldest?: string | undefined;
  newest?: string | undefined;
}

/** Refuses, before anything is sent, the parameters the summary does not take; each message names the field. */
export function refuseListParameters(given: ReadonlySet<string>): void {
  for (const field of ["limit", "fields"]) {
    if (given.has(field)) {
      throw new ToolInputError(
        `${field} does not apply with summary: true (the summary reads every activity of the window itself and returns totals, not activities); leave ${field} out and choose the window with oldest and newest.`,
      );
    }
  }
}

/** The window's first and last dates (day numbers) from the arguments and the athlete's `today`; refused when unusable. */
export function summaryWindow(args: IntervalsSummaryArguments, today: string): { firstDay: number; lastDay: number } {
  const todayDay = dayNumber(today, "today");
  const newest = args.newest === undefined ? todayDay : dayNumber(args.newest, "newest");
  // The last date is at most today: intervals.icu's records after it are projections, not what the athlete did.
  const lastDay = Math.min(newest, todayDay);
  const firstDay = args.oldest === undefined ? mondayOf(lastDay) - (defaultWeeks - 1) * 7 : dayNumber(args.oldest, "oldest");
  if (args.oldest !== undefined && firstDay > todayDay)
    throw new ToolInputError(`oldest (${args.oldest}) is after the athlete's today (${today}); the summary needs a window that has begun.`);
  if (firstDay > lastDay)
    throw new ToolInputError(
      `oldest (${args.oldest}) must not be after newest (${args.newest}); both are the athlete's local dates, both included.`,
    );
  const days = lastDay - firstDay + 1;
  if (days > maxWindowDays)
    throw new ToolInputError(
      `The dates span ${days} days (${dateOfDayNumber(firstDay)} to ${dateOfDayNumber(lastDay)}); a summary covers at most ${maxWindowDays}: move oldest later.`,
    );
  return { firstDay, lastDay };
}

export interface IntervalsLoadPlanOptions {
  /** "/athlete/0": the athlete's path as intervals.icu takes it. */
  athletePath: string;
  firstDay: number;
  lastDay: number;
  timeZone: string;
}

export function intervalsLoadPlan(options: IntervalsLoadPlanOptions): RequestPlan {
  const { athletePath, firstDay, lastDay } = options;
  const activitiesRequest: UpstreamRequest = {
    method: "GET",
    path: `${athletePath}/activities`,
    query: {
      oldest: dateOfDayNumber(firstDay),
      newest: `${dateOfDayNumber(lastDay)}T23:59:59`,
      fields: summaryActivityFields.join(","),
    },
  };
  const wellnessRequest: UpstreamRequest = {
    method: "GET",
    path: `${athletePath}/wellness`,
    query: {
      oldest: dateOfDayNumber(wellnessFrom(firstDay, lastDay)),
      newest: dateOfDayNumber(lastDay),
      fields: summaryWellnessFields.join(","),
    },
  };
  const listOf = (answer: UpstreamAnswer | undefined, what: string): unknown[] => {
    const body: unknown = answer === undefined ? undefined : JSON.parse(answer.bodyText);
    if (!Array.isArray(body)) throw new UpstreamBodyError(`intervals.icu answered ${what} with something other than a list.`);
    return body;
  };
  return {
    maxRequests: 2,
    next(answers) {
      if (answers.length === 0) return { request: activitiesRequest };
      // The list read first: an answer that is not one stops the plan before the wellness request.
      if (answers.length === 1) return listOf(answers[0], `GET ${activitiesRequest.path}`) && { request: wellnessRequest };
      return undefined;
    },
    reduce(answers) {
      const activities = listOf(answers[0], `GET ${activitiesRequest.path}`);
      const wellness = listOf(answers[1], `GET ${wellnessRequest.path}`);
      return JSON.stringify(
        intervalsLoadAnswer({
          firstDay,
          lastDay,
          timeZone: options.timeZone,
          activities,
          wellness,
          upstreamRequests: answers.length,
        }),
      );
    },
  };
}
