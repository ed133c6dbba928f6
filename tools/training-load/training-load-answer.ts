/**
 * The answer of `get_activities` with `summary: true`: the athlete's training load over a window of local
 * dates, as compact JSON. This is the one description of its shape; the coach reads it, and a chart will be
 * drawn from it, so a change here is a change to a public interface (docs/reference/training-load.md
 * explains every number and its formula). Keys are always present; a number that cannot be computed is
 * null and `notes` says why.
 */

/** Sums over a set of activities. Distances and climbing in whole metres, times in whole seconds. */
export interface ActivityTotals {
  count: number;
  distance: number;
  moving_time: number;
  elevation_gain: number;
  /** The sum of the activities' loads (see `load_source`). */
  load: number;
}

/** One Monday-to-Sunday week that overlaps the window. */
export interface WeekSummary {
  /** Its Monday, "YYYY-MM-DD". */
  week: string;
  /** Only some of its days are in the window (the current week, or a first week cut by `after`). */
  partial: boolean;
  /** Its days inside the window (7 unless partial). */
  days: number;
  /** Totals per Strava `sport_type`, sports in alphabetical order. */
  sports: Record<string, ActivityTotals>;
  total: ActivityTotals;
  /** Days of the week inside the window with no activity at all. */
  rest_days: number;
  /**
   * Change of the total load and moving time from the week before, in percent (one decimal). A partial
   * current week is compared with the same weekdays of the week before; null when there is no full week
   * before it or that week's value is 0.
   */
  load_change_percent: number | null;
  moving_time_change_percent: number | null;
}

/** Training-load numbers on the window's last date (docs/reference/training-load.md has the formulas). */
export interface LoadNumbers {
  /** CTL on the last date: exponentially weighted daily load, 42-day time constant, from the history before the window. */
  fitness: number;
  /** ATL on the last date: the same with a 7-day time constant. */
  fatigue: number;
  /** TSB: fitness minus fatigue on the day before the last date. */
  form: number;
  /** Form as a percentage of fitness on the day before the last date (the day form is taken on); null when that fitness is 0. */
  form_percent: number | null;
  /** Fitness on the last date minus fitness 7 days before: how fast fitness rises (or falls) per week. */
  ramp_rate: number | null;
  /** Mean daily load of the last 7 dates over that of the last 28; null when the 28 dates hold no load or fewer than 28 were read. */
  acute_chronic_ratio: number | null;
  /** Mean over population standard deviation of the last 7 daily loads; null when they do not vary or fewer than 7 were read. */
  monotony: number | null;
  /** The last 7 dates' load times monotony; null with monotony. */
  strain: number | null;
  /** The most consecutive dates of the window with an activity, and the date that run ends (the latest on a tie; null when none). */
  longest_run_without_rest: { days: number; ends: string | null };
}

/**
 * Fitness, fatigue and form day by day, so that a trend ("form below -30 for more than a week", a ramp) can be
 * read from the answer: the last 28 dates to the window's last (before the window too, when it is shorter).
 */
export interface LoadTrend {
  /** Fitness and fatigue at the end of the day before the window's first date: where the window starts from. */
  start: { fitness: number; fatigue: number };
  /** The series' first date ("YYYY-MM-DD"); `fitness[i]` is the value of the date `i` days after it, the last is `window.last`'s. */
  first: string;
  /** Whole numbers: CTL at the end of each date. */
  fitness: number[];
  /** Whole numbers: ATL at the end of each date. */
  fatigue: number[];
  /** Whole numbers: TSB of each date, fitness minus fatigue of the day before. */
  form: number[];
}

/** A load estimate with a factor fitted on the athlete's own activities that have both it and a Relative Effort. */
export interface CalibratedEstimate {
  count: number;
  /** Relative Effort over the estimate's raw points, summed over the activities it was fitted on (1: too few to fit). */
  scale: number;
  /** Activities of the calibration span with both a suffer_score and this signal. */
  calibrated_on: number;
}

/** The rate for one sport family's activities that are estimated from moving time. */
export interface FamilyRate {
  count: number;
  /** Load per hour of moving time used. */
  per_hour: number;
  /** Whose rate: the family's own, "all_sports" (fewer than 3 scored activities of the family) or "default" (none scored at all). */
  rate_of: string;
  /** Scored activities of the calibration span the rate was taken from. */
  calibrated_on: number;
}

/** How the activities' loads were taken, with how many of each kind among the window's activities. */
export interface LoadSources {
  /** The dates the estimates were fitted on: the 126 dates to today, whatever the window, so an activity's load does not depend on the window asked. */
  calibration: { first: string; last: string };
  /** Strava's `suffer_score` (Relative Effort), as given. */
  suffer_score: number;
  /** No suffer_score, but device power: moving hours x (weighted average watts / FTP)^2 x 100, scaled. */
  power_estimate: CalibratedEstimate & {
    /** The athlete's FTP (W) from their profile; null when it could not be read. */
    ftp: number | null;
  };
  /** No suffer_score nor usable power, but heart rate: moving hours x the Relative Effort rate at the average heart rate, placed between the athlete's zone bounds, scaled. */
  heart_rate_estimate: CalibratedEstimate;
  /** None of these: moving time at a rate per sport family. */
  moving_time_estimate: {
    count: number;
    /** Per family with an estimated activity in the window (rides, runs, swims, strength, mobility, walks_hikes, other). */
    families: Record<string, FamilyRate>;
  };
}

export interface TrainingLoadAnswer {
  window: {
    /** First and last local date summarised ("YYYY-MM-DD"), both included. */
    first: string;
    last: string;
    /** The IANA zone of "today" and of the window's bounds: the newest activity's, or UTC when there is none. */
    time_zone: string;
    /** Activities whose local start date is in the window. */
    activities: number;
    /**
     * The first date of the history the fitness and fatigue start from (0 the day before it): 126 days before
     * `first`, or later when Strava lists nothing earlier or paging stopped at its bound.
     */
    history_from: string;
    /** Requests sent to Strava for this answer (pages of the activity list, the athlete's FTP and zones when an estimate needed them). */
    upstream_requests: number;
    /** False when paging stopped at its bound before the history's start (`history_from` is then the earliest date read in full). */
    complete: boolean;
  };
  weeks: WeekSummary[];
  /** The daily load of every date in the window: `loads[i]` is the load of the date `i` days after `first` (0 on a day without activity). */
  days: { first: string; loads: number[] };
  load: LoadNumbers;
  trend: LoadTrend;
  load_source: LoadSources;
  /** Plain sentences on what limits these numbers (a short history, estimates, a stop at the paging bound, a null). */
  notes: string[];
}
