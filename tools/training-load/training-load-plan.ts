/**
 * The requests behind `get_activities` with `summary: true`, as a plan (tools/definition/request-plan.ts): the activity
 * list newest first from today, 200 a page, until a page reaches back past the history's first date (126 days
 * before the window's), or the list ends, or the paging bound is hit; then the athlete's FTP (GET /athlete) when
 * an activity without Relative Effort has device power, and the athlete's heart-rate zones (GET /athlete/zones)
 * when one has heart rate but no usable power. The reduction is the summary (training-load-summary.ts).
 *
 * The window is whole local dates in the time zone of the athlete's newest activity listed (its `timezone`):
 * from `after`'s date (default: the Monday eleven weeks before the current week's, so twelve calendar weeks)
 * to `before`'s (default: today, by the service's clock). Neither is sent to Strava. The list is read from
 * today whatever `before` says, so that the estimates' calibration span (the 126 days to today) is always read
 * and an activity's load never depends on the window; a window far in the past costs more pages. Without
 * `after`, Strava lists newest first, which tells the zone on the first page and lets a stop at the bound keep
 * the recent dates; without `before`, the last date is read whole.
 */
import type { PlanContext, PlannedRequest, RequestPlan, UpstreamAnswer } from "../definition/request-plan.ts";
import type { UpstreamRequest } from "../../common/upstream/upstream-request.ts";
import type { HeartRateZone } from "./effort-points.ts";
import { ToolInputError } from "../arguments/validate-arguments.ts";
import { UpstreamBodyError } from "../../common/upstream/upstream-errors.ts";
import { dateOfDay, localDayAt, mondayOf, zoneOfStravaLabel } from "./calendar-days.ts";
import { calibrationSpan, minimumFit, powerPairs } from "./load-calibration.ts";
import { dayOfSummary, listedActivities, type ListedActivity } from "./listed-activities.ts";
import type { StravaLoadAnswer } from "./training-load-answer.ts";
import { trainingLoadAnswer, type LoadWindow } from "./training-load-summary.ts";

/** Strava's largest page. */
export const activitiesPerPage = 200;
/**
 * Pages read at most: 1,000 activities, for 5 of the 100 read requests Strava allows per 15 minutes: a 366-day
 * window and its history at two activities a day. Past it the summary keeps the most recent dates and says where
 * it stopped.
 */
export const maxActivityPages = 5;
/** The longest window, in days. */
export const maxWindowDays = 366;
/** Calendar weeks in the default window, the current one included. */
export const defaultWeeks = 12;
/** Days of history read before the window: three fitness time constants, after which the start from 0 weighs under 5%. */
export const historyDays = 126;

const activitiesPath = "/athlete/activities";
const athletePath = "/athlete";
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
  const pagesOf = activityPages();
  return {
    maxRequests: maxActivityPages + 2,
    next(answers) {
      const pages = pagesOf(answers);
      const read = readPages(pages, args, nowMs);
      if (read.readOn) return { request: pageRequest(pages.length + 1) };
      return settingsRequest(read, answers);
    },
    reduce(answers) {
      const read = readPages(pagesOf(answers), args, nowMs);
      if (read.readOn) throw new Error("the training-load plan was reduced before its pages were read");
      return JSON.stringify(summaryOf(read, answers));
    },
  };
}

/** The activity pages among the answers, each page parsed once though `next` and `reduce` both read it. */
function activityPages(): (answers: readonly UpstreamAnswer[]) => unknown[][] {
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
  return (answers) => answers.filter((answer) => answer.request.path === activitiesPath).map(activitiesOf);
}

/** What the pages read so far say: whether to read on, else the window and its history. */
export function readPages(
  pages: readonly unknown[][],
  args: SummaryArguments,
  nowMs: number,
): { readOn: true } | ({ readOn: false } & PagesRead) {
  const zone = zoneOfNewest(pages[0] ?? []);
  const { firstDay, lastDay } = windowDays(args, nowMs, zone ?? "UTC");
  const plannedFrom = firstDay - historyDays;
  const last = pages.at(-1);
  if (last === undefined) return { readOn: true };
  // Two days' margin: an activity recorded in another time zone may sit a day off in the newest-first order.
  const passedHistory = last.some((activity) => (dayOfSummary(activity) ?? Infinity) <= plannedFrom - 2);
  const listEnded = last.length < activitiesPerPage;
  const atBound = !passedHistory && !listEnded && pages.length >= maxActivityPages;
  if (!passedHistory && !listEnded && !atBound) return { readOn: true };

  const activities = pages.flat();
  const earliest = Math.min(...activities.map((activity) => dayOfSummary(activity) ?? Infinity));
  // Everything read counts as history (more of it only makes fitness truer). The earliest date read may hold
  // more activities on the next page, so unless the list ended, the history starts the day after it.
  const fullFrom = listEnded ? earliest : earliest + 1;
  const read: PagesRead = {
    activities,
    window: { firstDay, lastDay, timeZone: zone ?? "UTC", historyFrom: Math.min(firstDay, fullFrom), complete: !atBound },
    zoneKnown: zone !== undefined,
    today: localDayAt(nowMs, zone ?? "UTC"),
    notes: [],
  };
  if (atBound) stopAtBound(read, earliest, fullFrom);
  read.notes.push(...historyNotes(read.window, listEnded));
  return { readOn: false, ...read };
}

/**
 * Paging stopped at its bound: the window starts at the first whole date read if that is later than its own first
 * date, and a note says what was not read. Refused when not one date of the window was read whole.
 */
function stopAtBound(read: PagesRead, earliest: number, fullFrom: number): void {
  if (fullFrom > read.window.lastDay) {
    throw new ToolInputError(
      `Reading back from today stopped at its bound of ${maxActivityPages} pages (${maxActivityPages * activitiesPerPage} activities) on ${dateOfDay(earliest)}, after the window's last date ${dateOfDay(read.window.lastDay)}: ask for a window that ends after ${dateOfDay(earliest)} (a later before).`,
    );
  }
  const windowCut = fullFrom > read.window.firstDay;
  if (windowCut) read.window.firstDay = read.window.historyFrom = fullFrom;
  read.notes.push(
    `Paging stopped at its bound (${maxActivityPages} pages of ${activitiesPerPage} activities): dates before ${dateOfDay(fullFrom)} were not read, so ` +
      (windowCut
        ? "the window starts there and fitness and fatigue start from 0 the day before. Ask with a later after for a complete window."
        : "fitness and fatigue start from 0 the day before."),
  );
}

/** A note when less than a fitness time constant of history precedes the window, and why when the list ended. */
function historyNotes(window: LoadWindow, listEnded: boolean): string[] {
  const history = window.firstDay - window.historyFrom;
  if (history >= fitnessHistoryDays) return [];
  if (listEnded) {
    return [
      `Only ${history} days of history precede the window (Strava lists no activity before ${dateOfDay(window.historyFrom)}): fitness (CTL) builds over about six weeks, so fitness and form read low if the athlete trained before then.`,
    ];
  }
  return [`Only ${history} days of history precede the window: fitness (CTL) builds over about six weeks, so fitness and form read low.`];
}

/** After the pages: the athlete's FTP, then the heart-rate zones, when the loads need them and they were not asked yet. */
function settingsRequest(read: PagesRead, answers: readonly UpstreamAnswer[]): PlannedRequest | undefined {
  const needs = signalsNeeded(read);
  const athlete = answers.find((answer) => answer.request.path === athletePath);
  if (needs.ftp && athlete === undefined) return { request: { method: "GET", path: athletePath }, optional: true };
  const ftp = athlete === undefined ? undefined : ftpOf(athlete).ftp;
  if (needs.zones(ftp) && !answers.some((answer) => answer.request.path === zonesPath))
    return { request: { method: "GET", path: zonesPath }, optional: true };
  return undefined;
}

/** The summary from the pages read and the athlete's settings asked for, with a note for each setting missing. */
function summaryOf(read: PagesRead, answers: readonly UpstreamAnswer[]): StravaLoadAnswer {
  const notes = [...read.notes];
  if (!read.zoneKnown) notes.push("No listed activity gives the athlete's time zone, so dates are UTC dates.");
  const athlete = answers.find((answer) => answer.request.path === athletePath);
  let ftp: number | undefined;
  if (athlete) {
    const profile = ftpOf(athlete);
    ftp = profile.ftp;
    if (ftp === undefined) notes.push(`${profile.why}; activities with device power but no Relative Effort are estimated from heart rate.`);
  }
  const zonesAnswer = answers.find((answer) => answer.request.path === zonesPath);
  let heartRateZones: HeartRateZone[] | undefined;
  if (zonesAnswer) {
    heartRateZones = zonesAnswer.failed ? undefined : heartRateZonesOf(zonesAnswer.bodyText);
    if (heartRateZones === undefined) {
      const why = zonesAnswer.failed ? zonesAnswer.bodyText.replace(/\.$/, "") : "its answer holds no heart-rate zones";
      notes.push(
        `The athlete's heart-rate zones could not be read (${why}); activities with heart rate but no Relative Effort are estimated from moving time.`,
      );
    }
  }
  return trainingLoadAnswer({
    activities: read.activities,
    window: read.window,
    today: read.today,
    ftp,
    heartRateZones,
    upstreamRequests: answers.length,
    notes,
  });
}

/** Days of history under which fitness is said to read low: one fitness time constant. */
const fitnessHistoryDays = 42;

/** The pages read whole: the activities, the window they decide, and what the answer will say of them. */
export interface PagesRead {
  activities: unknown[];
  window: LoadWindow;
  zoneKnown: boolean;
  today: number;
  notes: string[];
}

/**
 * Which of the athlete's settings the loads need, from the activities counted (history and window): the FTP when
 * one without Relative Effort has device power and the span has enough to calibrate power on; the zones when one
 * without Relative Effort has heart rate and no power estimate (given the FTP read).
 */
function signalsNeeded(read: PagesRead): { ftp: boolean; zones: (ftp: number | undefined) => boolean } {
  const listed = listedActivities(read.activities);
  const counted = listed.filter(
    (activity) => activity.day >= read.window.historyFrom && activity.day <= read.window.lastDay && activity.sufferScore === undefined,
  );
  const powerCalibrates = powerPairs(listed, calibrationSpan(read.today)) >= minimumFit;
  const powered = (activity: ListedActivity, ftp: number | undefined): boolean =>
    activity.devicePower !== undefined && ftp !== undefined && powerCalibrates;
  return {
    ftp: powerCalibrates && counted.some((activity) => activity.devicePower !== undefined),
    zones: (ftp) => counted.some((activity) => activity.averageHeartrate !== undefined && !powered(activity, ftp)),
  };
}

function pageRequest(page: number): UpstreamRequest {
  return { method: "GET", path: activitiesPath, query: { page, per_page: activitiesPerPage } };
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

/** The FTP in GET /athlete's answer, or why there is none. */
function ftpOf(answer: UpstreamAnswer): { ftp: number; why?: undefined } | { ftp: undefined; why: string } {
  if (answer.failed) return { ftp: undefined, why: `The athlete's FTP could not be read (${answer.bodyText.replace(/\.$/, "")})` };
  let body: unknown;
  try {
    body = JSON.parse(answer.bodyText);
  } catch {
    body = undefined;
  }
  const ftp = (body as { ftp?: unknown } | null | undefined)?.ftp;
  if (typeof ftp === "number" && Number.isFinite(ftp) && ftp > 0) return { ftp };
  return {
    ftp: undefined,
    why: "Strava's athlete profile gives no FTP (GET /athlete includes it only with the profile:read_all scope, and only once the athlete has set one)",
  };
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
