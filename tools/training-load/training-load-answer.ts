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

/** Training-load numbers, all computed from `days` (docs/reference/training-load.md has the formulas). */
export interface LoadNumbers {
  /** CTL on the last date: exponentially weighted daily load, 42-day time constant, 0 the day before the window. */
  fitness: number;
  /** ATL on the last date: the same with a 7-day time constant. */
  fatigue: number;
  /** TSB: fitness minus fatigue on the day before the last date. */
  form: number;
  /** Mean daily load of the last 7 dates over that of the last 28; null when the 28 dates hold no load or the window is shorter. */
  acute_chronic_ratio: number | null;
  /** Mean over population standard deviation of the last 7 daily loads; null when they do not vary or the window is shorter. */
  monotony: number | null;
  /** The last 7 dates' load times monotony; null with monotony. */
  strain: number | null;
  /** The most consecutive dates with an activity, and the date that run ends (the latest on a tie; null when none). */
  longest_run_without_rest: { days: number; ends: string | null };
}

/** How the activities' loads were taken, with how many of each kind. */
export interface LoadSources {
  /** Strava's `suffer_score` (Relative Effort), as given. */
  suffer_score: number;
  /** No suffer_score, but heart rate: moving time at the Relative Effort rate of the zone of the average heart rate. */
  heart_rate_estimate: {
    count: number;
    /** The factor that puts these rates on this athlete's Relative Effort scale (1 when nothing to calibrate on). */
    scale: number;
    /** Activities in the window with both suffer_score and heart rate that the scale was fitted on. */
    calibrated_on: number;
  };
  /** Neither: moving time at this athlete's average Relative Effort per hour. */
  moving_time_estimate: {
    count: number;
    /** Load per hour of moving time used. */
    per_hour: number;
    /** Activities with a suffer_score that the rate was taken from (0: a moderate default). */
    calibrated_on: number;
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
    /** Requests sent to Strava for this answer (pages of the activity list, and the athlete's zones when an estimate needed them). */
    upstream_requests: number;
    /** False when paging stopped at its bound before reaching `after`: `first` is then the earliest date read in full. */
    complete: boolean;
  };
  weeks: WeekSummary[];
  /** The daily load of every date in the window: `loads[i]` is the load of the date `i` days after `first` (0 on a day without activity). */
  days: { first: string; loads: number[] };
  load: LoadNumbers;
  load_source: LoadSources;
  /** Plain sentences on what limits these numbers (a short window, estimates, a stop at the paging bound). */
  notes: string[];
}
