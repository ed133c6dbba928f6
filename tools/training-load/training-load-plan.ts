/**
 * The requests behind `get_activities` with `summary: true`, as a plan (tools/definition/request-plan.ts): the activity
 * list newest first, 200 a page, until a page reaches back past the window's first date (or the list ends,
 * or the paging bound is hit); then the athlete's heart-rate zones, only when an activity lacks a Relative
 * Effort but has heart rate. The reduction is the summary (training-load-summary.ts).
 *
 * The window is whole local dates in the time zone of the athlete's newest activity listed (its `timezone`):
 * from `after`'s date (default: the Monday eleven weeks before the current week's, so twelve calendar weeks)
 * to `before`'s (default: today, by the service's clock). `after` is not sent to Strava: with it, Strava lists
 * oldest first, and newest first is what tells the zone on the first page and lets a stop at the bound keep the
 * recent dates.
 */
import type { PlanContext, RequestPlan, UpstreamAnswer } from "../definition/request-plan.ts";
import type { UpstreamRequest } from "../../common/upstream/upstream-request.ts";
import { ToolInputError } from "../arguments/validate-arguments.ts";
import { UpstreamBodyError } from "../../common/upstream/upstream-errors.ts";
import { needsHeartRateZones, type HeartRateZone } from "./activity-load.ts";
import { dateOfDay, dayOfDate, localDayAt, mondayOf, zoneOfStravaLabel } from "./calendar-days.ts";
import { trainingLoadAnswer, windowActivities, type LoadWindow } from "./training-load-summary.ts";

/** Strava's largest page. */
export const activitiesPerPage = 200;
/**
 * Pages read at most: 1,000 activities, a year at nearly three a day, for 5 of the 100 read requests
 * Strava allows per 15 minutes. Past it the summary keeps the most recent dates and says where it stopped.
 */
export const maxActivityPages = 5;
/** The longest window, in days. */
export const maxWindowDays = 366;
/** Calendar weeks in the default window, the current one included. */
export const defaultWeeks = 12;

const activitiesPath = "/athlete/activities";
const zonesPath = "/athlete/zones";

export interface SummaryArguments {
  before?: number | undefined;
  after?: number | undefined;
}

/** Refuses, before anything is sent, arguments the summary cannot serve; each message names the field. */
export function checkSummaryArguments(args: SummaryArguments, context: PlanContext): void {
  for (const field of ["page", "per_page", "fields"]) {
    if (context.given.has(field)) {
      throw new ToolInputError(
        `${field} does not apply with summary: true (the summary reads every activity of the window itself and returns totals, not activities); leave ${field} out and choose the window with after and before.`,
      );
    }
  }
  const { before, after } = args;
  if (after === undefined) return;
  if (before !== undefined && after >= before) {
    throw new ToolInputError(
      `after (${after}) must be earlier than before (${before}); both are epoch seconds and choose the first and last local dates of the summary.`,
    );
  }
  const nowSeconds = Math.floor(context.nowMs / 1000);
  if (after > nowSeconds)
    throw new ToolInputError(
      `after (${after}) is in the future (now is ${nowSeconds}, epoch seconds); the summary needs a window that has begun.`,
    );
  const end = Math.min(before ?? nowSeconds, nowSeconds);
  if (end - after > maxWindowDays * 86_400) {
    throw new ToolInputError(
      `after (${after}) is ${Math.ceil((end - after) / 86_400)} days before ${before !== undefined && before <= nowSeconds ? `before (${before})` : "now"}; a summary covers at most ${maxWindowDays} days: move after later.`,
    );
  }
}

/** The plan of a summary; the arguments have passed `checkSummaryArguments`. */
export function trainingLoadPlan(args: SummaryArguments, nowMs: number): RequestPlan {
  // Each page parsed once, though `next` and `reduce` both read it.
  const parsed = new WeakMap<UpstreamAnswer, unknown[]>();
  const activitiesOf = (answer: UpstreamAnswer): unknown[] => {
    let list = parsed.get(answer);
    if (list === undefined) {
      const body: unknown = JSON.parse(answer.bodyText);
      if (!Array.isArray(body))
        throw new UpstreamBodyError(`Strava answered GET ${activitiesPath} with something other than a list of activities.`);
      list = body;
      parsed.set(answer, list);
    }
    return list;
  };

  /** What the pages read so far say: the activities, the window, and whether to read on. */
  const readPages = (answers: readonly UpstreamAnswer[]) => {
    const pages = answers.filter((answer) => answer.request.path === activitiesPath).map(activitiesOf);
    const activities = pages.flat();
    const zone = zoneOfNewest(pages[0] ?? []);
    const { firstDay, lastDay } = windowDays(args, nowMs, zone ?? "UTC");
    const last = pages.at(-1);
    const listEnded = last !== undefined && last.length < activitiesPerPage;
    const passedFirstDay = last !== undefined && last.some((activity) => (dayOf(activity) ?? Infinity) <= firstDay - 2);
    const moreToRead = pages.length === 0 || (!listEnded && !passedFirstDay);
    const stoppedAtBound = moreToRead && pages.length >= maxActivityPages;
    const window: LoadWindow = { firstDay, lastDay, timeZone: zone ?? "UTC", complete: !stoppedAtBound };
    if (stoppedAtBound) {
      // The earliest date read may hold more activities on the next page: start the day after it.
      const earliest = Math.min(...activities.map((activity) => dayOf(activity) ?? Infinity));
      window.firstDay = Math.min(lastDay, Math.max(firstDay, earliest + 1));
    }
    return { pages, activities, window, zoneKnown: zone !== undefined, readOn: moreToRead && !stoppedAtBound };
  };

  return {
    maxRequests: maxActivityPages + 1,
    next(answers) {
      const read = readPages(answers);
      if (read.readOn) return { request: pageRequest(args, read.pages.length + 1) };
      if (answers.some((answer) => answer.request.path === zonesPath)) return undefined;
      const inWindow = windowActivities(read.activities, read.window.firstDay, read.window.lastDay);
      return needsHeartRateZones(inWindow) ? { request: { method: "GET", path: zonesPath }, optional: true } : undefined;
    },
    reduce(answers) {
      const read = readPages(answers);
      const notes: string[] = [];
      if (!read.window.complete) {
        notes.push(
          `Paging stopped at its bound (${maxActivityPages} pages of ${activitiesPerPage} activities): dates before ${dateOfDay(read.window.firstDay)} were not read. Ask with a later after for a complete window.`,
        );
      }
      if (!read.zoneKnown) notes.push("No listed activity gives the athlete's time zone, so dates are UTC dates.");
      const zonesAnswer = answers.find((answer) => answer.request.path === zonesPath);
      let heartRateZones: HeartRateZone[] | undefined;
      if (zonesAnswer) {
        heartRateZones = zonesAnswer.failed ? undefined : heartRateZonesOf(zonesAnswer.bodyText);
        if (heartRateZones === undefined) {
          const why = zonesAnswer.failed ? zonesAnswer.bodyText.replace(/\.$/, "") : "its answer holds no heart-rate zones";
          notes.push(
            `The athlete's heart-rate zones could not be read (${why}); activities without Relative Effort are estimated from moving time.`,
          );
        }
      }
      return JSON.stringify(
        trainingLoadAnswer({ activities: read.activities, window: read.window, heartRateZones, upstreamRequests: answers.length, notes }),
      );
    },
  };
}

function pageRequest(args: SummaryArguments, page: number): UpstreamRequest {
  return { method: "GET", path: activitiesPath, query: { before: args.before, page, per_page: activitiesPerPage } };
}

/** First and last local date of the window in `zone`. */
export function windowDays(args: SummaryArguments, nowMs: number, zone: string): { firstDay: number; lastDay: number } {
  const today = localDayAt(nowMs, zone);
  // `before` is exclusive: its date is that of the second before it.
  const lastDay = args.before === undefined ? today : Math.min(today, localDayAt(args.before * 1000 - 1000, zone));
  const firstDay =
    args.after === undefined ? mondayOf(lastDay) - (defaultWeeks - 1) * 7 : Math.min(lastDay, localDayAt(args.after * 1000, zone));
  return { firstDay, lastDay };
}

/** The zone of the newest activity on the first page (Strava lists newest first; the latest start wins regardless). */
function zoneOfNewest(page: readonly unknown[]): string | undefined {
  let newest: Record<string, unknown> | undefined;
  for (const item of page) {
    if (typeof item !== "object" || item === null) continue;
    const activity = item as Record<string, unknown>;
    if (zoneOfStravaLabel(activity["timezone"]) === undefined) continue;
    if (newest === undefined || String(activity["start_date"]) > String(newest["start_date"])) newest = activity;
  }
  return newest === undefined ? undefined : zoneOfStravaLabel(newest["timezone"]);
}

function dayOf(activity: unknown): number | undefined {
  return typeof activity === "object" && activity !== null
    ? dayOfDate((activity as Record<string, unknown>)["start_date_local"])
    : undefined;
}

/** The heart-rate zones in GET /athlete/zones' answer (`{"heart_rate": {"zones": [{min, max}, ...]}}`), or undefined. */
function heartRateZonesOf(bodyText: string): HeartRateZone[] | undefined {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  const zones = (body as { heart_rate?: { zones?: unknown } } | null)?.heart_rate?.zones;
  if (!Array.isArray(zones) || zones.length === 0) return undefined;
  const read = zones.map((zone: unknown) => {
    const { min, max } = (zone ?? {}) as { min?: unknown; max?: unknown };
    return typeof min === "number" && typeof max === "number" ? { min, max } : undefined;
  });
  return read.every((zone) => zone !== undefined) ? read : undefined;
}
