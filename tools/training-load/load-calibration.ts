/**
 * Fits the estimates to the athlete's own Relative Effort (Strava's `suffer_score`), on a span of dates that does
 * not move with the window asked: the 126 dates to today. Each scale is the sum of Relative Effort over the sum
 * of the estimate's raw points (effort-points.ts) across the span's activities that have both; each moving-time
 * rate is the sum of Relative Effort over the sum of moving hours of the span's scored activities of a sport
 * family. So the same activity gets the same load whichever window is asked; it changes only as new activities
 * enter the span.
 *
 * A fit needs `minimumFit` activities: with fewer, power is not used (heart rate is), heart rate keeps Aime's
 * published rates (scale 1), and a family takes the rate of all sports (or, with no scored activity at all, the
 * zone 2 rate: moderate effort).
 */
import type { ActivityEffort, ListedActivity } from "./listed-activities.ts";
import { heartRatePoints, powerPoints, zonePointsPerHour, type HeartRateZone } from "./effort-points.ts";
import { sportFamily, type SportFamily } from "./sport-families.ts";

/** Dates in the calibration span, today's included: three fitness time constants. */
export const calibrationDays = 126;
/** Activities a scale or a family's rate is fitted on, at least. */
export const minimumFit = 3;
/** The rate of an hour of unmeasured training when nothing is scored to learn from: zone 2's. */
const moderatePointsPerHour = zonePointsPerHour[1]!;

export interface FittedScale {
  scale: number;
  /** Activities with both the signal and a suffer_score in the span. */
  pairs: number;
}

export interface FamilyRateFit {
  perHour: number;
  rateOf: SportFamily | "all_sports" | "default";
  /** Scored activities the rate was taken from. */
  scored: number;
}

export interface Calibration {
  firstDay: number;
  lastDay: number;
  /** Undefined when the athlete's FTP could not be read or was not needed. */
  ftp: number | undefined;
  /** Undefined when the athlete's zones could not be read or were not needed. */
  zones: readonly HeartRateZone[] | undefined;
  power: FittedScale;
  heartRate: FittedScale;
  rate(family: SportFamily): FamilyRateFit;
}

/** The span for `today` (a day number). */
export function calibrationSpan(today: number): { firstDay: number; lastDay: number } {
  return { firstDay: today - calibrationDays + 1, lastDay: today };
}

/** Scored activities of the span with device power: whether power can be calibrated does not need the FTP. */
export function powerPairs(activities: readonly ListedActivity[], span: { firstDay: number; lastDay: number }): number {
  return inSpan(activities, span).filter(
    (activity) => activity.sufferScore !== undefined && activity.devicePower !== undefined && activity.movingTime > 0,
  ).length;
}

export function calibrate(
  activities: readonly ListedActivity[],
  span: { firstDay: number; lastDay: number },
  ftp: number | undefined,
  zones: readonly HeartRateZone[] | undefined,
): Calibration {
  const scored = inSpan(activities, span).filter(
    (activity): activity is ListedActivity & { sufferScore: number } => activity.sufferScore !== undefined && activity.movingTime > 0,
  );
  const power = fit(scored, (activity) =>
    ftp !== undefined && activity.devicePower !== undefined ? powerPoints(activity.movingTime, activity.devicePower, ftp) : undefined,
  );
  const heartRate = fit(scored, (activity) =>
    zones !== undefined && activity.averageHeartrate !== undefined
      ? heartRatePoints(activity.movingTime, activity.averageHeartrate, zones)
      : undefined,
  );
  const all = hourlyRate(scored);
  const rates = new Map<SportFamily, FamilyRateFit>();
  return {
    ...span,
    ftp,
    zones,
    power,
    heartRate: heartRate.pairs >= minimumFit ? heartRate : { scale: 1, pairs: heartRate.pairs },
    rate(family) {
      let rate = rates.get(family);
      if (rate === undefined) {
        const own = family === "other" ? undefined : hourlyRate(scored.filter((activity) => sportFamily(activity.sportType) === family));
        rate =
          own !== undefined && own.scored >= minimumFit
            ? { ...own, rateOf: family }
            : all.scored > 0
              ? { ...all, rateOf: "all_sports" }
              : { perHour: moderatePointsPerHour, rateOf: "default", scored: 0 };
        rates.set(family, rate);
      }
      return rate;
    },
  };
}

/** Whether power estimates can be used: an FTP, and enough activities to fit its scale on. */
export function powerUsable(calibration: Calibration): boolean {
  return calibration.ftp !== undefined && calibration.power.pairs >= minimumFit;
}

function inSpan(activities: readonly ListedActivity[], span: { firstDay: number; lastDay: number }): ListedActivity[] {
  return activities.filter((activity) => activity.day >= span.firstDay && activity.day <= span.lastDay);
}

function fit<A extends ActivityEffort & { sufferScore: number }>(
  scored: readonly A[],
  points: (activity: A) => number | undefined,
): FittedScale {
  let pairs = 0;
  let score = 0;
  let estimate = 0;
  for (const activity of scored) {
    const raw = points(activity);
    if (raw === undefined || raw <= 0) continue;
    pairs++;
    score += activity.sufferScore;
    estimate += raw;
  }
  return { scale: pairs > 0 && score > 0 ? round(score / estimate, 3) : 1, pairs };
}

function hourlyRate(scored: ReadonlyArray<ActivityEffort & { sufferScore: number }>): { perHour: number; scored: number } {
  const hours = scored.reduce((total, activity) => total + activity.movingTime / 3600, 0);
  const score = scored.reduce((total, activity) => total + activity.sufferScore, 0);
  return { perHour: hours > 0 ? round(score / hours, 1) : moderatePointsPerHour, scored: scored.length };
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
