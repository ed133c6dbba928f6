/**
 * The answer of `get_activities` with `summary: true`: the athlete's training load over a window of local
 * dates, as compact JSON. This is the one description of its shape, on every training log; the coach reads it,
 * and the load view draws it, so a change here is a change to a public interface (docs/reference/training-load.md
 * explains every number and its formula). Keys are always present, except `readiness_trend`, which only a log
 * that keeps wellness records has; a number that cannot be computed is null and `notes` says why.
 *
 * Compact on purpose, so that the default twelve weeks stay within a few thousand tokens on any date: integers
 * wherever the coach's rules need no decimal, and each week's per-sport totals as arrays whose order
 * `sport_columns` names once, instead of the same five keys repeated for every sport of every week.
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

/** The order of a sport's totals in `WeekSummary.sports`: the keys of `ActivityTotals`, in that order. */
export const sportColumns = ["count", "distance", "moving_time", "elevation_gain", "load"] as const;

/** One sport's totals in a week: `ActivityTotals`' values in `sportColumns`' order (same units). */
export type SportTotals = [count: number, distance: number, moving_time: number, elevation_gain: number, load: number];

/** One Monday-to-Sunday week that overlaps the window. */
export interface WeekSummary {
  /** Its Monday, "YYYY-MM-DD". */
  week: string;
  /** Only some of its days are in the window (the current week, or a first week cut by `after`). */
  partial: boolean;
  /** Its days inside the window (7 unless partial). */
  days: number;
  total: ActivityTotals;
  /** Totals per sport (Strava's `sport_type`, intervals.icu's `type`), sports in alphabetical order, each as `sport_columns` orders them. */
  sports: Record<string, SportTotals>;
  /** Days of the week inside the window with no activity at all. */
  rest_days: number;
  /**
   * Change of the total load and moving time from the week before, in whole percent. A partial current week is
   * compared with the same weekdays of the week before; null when there is no full week before it or that
   * week's value is 0.
   */
  load_change_percent: number | null;
  moving_time_change_percent: number | null;
}

/**
 * Training-load numbers on the window's last date (docs/reference/training-load.md has the formulas). On Strava
 * fitness, fatigue and ramp rate are computed here; on intervals.icu they are its own (the wellness record of the
 * last date: `ctl`, `atl`, `rampRate`), the numbers its fitness page shows.
 */
export interface LoadNumbers {
  /** CTL on the last date: exponentially weighted daily load, 42-day time constant, from the history before the window. */
  fitness: number;
  /** ATL on the last date: the same with a 7-day time constant (on intervals.icu its `atl`, not the athlete's subjective `fatigue` score). */
  fatigue: number;
  /** TSB: fitness minus fatigue on the day before the last date. */
  form: number;
  /** Form as a percentage of fitness on the day before the last date (the day form is taken on); null when that fitness is 0. */
  form_percent: number | null;
  /** Fitness on the last date minus fitness 7 days before: how fast fitness rises (or falls) per week (intervals.icu's `rampRate`). */
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

/** How the activities' loads were taken on Strava, with how many of each kind among the window's activities. */
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

/**
 * Where the numbers come from on intervals.icu: its own, as its fitness page shows them. Each activity's load is
 * its `icu_training_load`; each date's load, fitness, fatigue and ramp rate are that date's wellness record
 * (`ctlLoad`, `ctl`, `atl`, `rampRate`).
 */
export interface IntervalsLoadSources {
  log: "intervals.icu";
  /** Activities of the window with intervals.icu's own load (`icu_training_load`). */
  icu_training_load: number;
  /** Activities of the window without one (no power, heart rate or entered load): counted as 0 in `weeks`. */
  without_load: number;
  /**
   * Activities of the window that reached intervals.icu from Strava: its API lists them only as stubs (no type,
   * time or load), so they are not in `weeks`; intervals.icu counts their load in `days`, fitness and fatigue.
   */
  strava_stubs: number;
  /** Dates from `window.history_from` to `window.last` with a wellness record giving fitness and fatigue, of all those dates. */
  wellness_days: { with_record: number; of: number };
}

/** One wellness measure over the last 7 dates against the 28 dates before them (docs/reference/training-load.md). */
export interface ReadinessMeasure {
  /** The mean of the last 7 dates' values (the last date included), dates without a value skipped; null when none has one. */
  mean_7d: number | null;
  /** Dates of those 7 without a value, skipped. */
  skipped_7d: number;
  /** The mean and sample standard deviation of the 28 dates before them, dates without a value skipped (the mean null with none, the deviation with fewer than 2). */
  mean_28d: number | null;
  sd_28d: number | null;
  /** Dates of those 28 without a value, skipped. */
  skipped_28d: number;
  /** (mean_7d - mean_28d) / sd_28d: how far the last week sits from the athlete's usual, in standard deviations; null when a part is. */
  difference_sd: number | null;
}

/**
 * The athlete's morning signals, for a log that keeps them (intervals.icu's wellness): numbers, not a verdict.
 * Not intervals.icu's own `readiness` field, which only some devices fill.
 */
export interface ReadinessTrend {
  /** The last 7 dates (to `window.last`) and the 28 before them. */
  last_7d: { first: string; last: string };
  baseline_28d: { first: string; last: string };
  /** rMSSD in ms, as intervals.icu's `hrv`. */
  hrv: ReadinessMeasure;
  /** Beats per minute, as intervals.icu's `restingHR`. */
  restingHR: ReadinessMeasure;
  /** Seconds asleep, as intervals.icu's `sleepSecs`. */
  sleepSecs: ReadinessMeasure;
}

export interface TrainingLoadAnswer<Sources extends LoadSources | IntervalsLoadSources = LoadSources | IntervalsLoadSources> {
  window: {
    /** First and last local date summarised ("YYYY-MM-DD"), both included. */
    first: string;
    last: string;
    /** The IANA zone of "today" and of the window's bounds: on Strava the newest activity's, or UTC when there is none; on intervals.icu the athlete's. */
    time_zone: string;
    /** Activities whose local start date is in the window. */
    activities: number;
    /**
     * On Strava, the first date of the history the fitness and fatigue start from (0 the day before it): 126 days
     * before `first`, or later when Strava lists nothing earlier or paging stopped at its bound. On intervals.icu,
     * whose fitness and fatigue come from its whole history, the first wellness date read: 28 days before `first`.
     */
    history_from: string;
    /**
     * Requests sent to the log for this answer: on Strava the pages of the activity list and the athlete's FTP and
     * zones when an estimate needed them; on intervals.icu the activities and the wellness records (the athlete's
     * time zone, read once per process, is not counted).
     */
    upstream_requests: number;
    /**
     * False when paging stopped at its bound before the history's start (Strava: `history_from` is then the
     * earliest date read in full), or when a date from `history_from` on has no wellness record (intervals.icu).
     */
    complete: boolean;
  };
  /** The order of each sport's totals in `weeks[].sports` (always `sportColumns`). */
  sport_columns: typeof sportColumns;
  weeks: WeekSummary[];
  /**
   * The daily load of every date in the window: `loads[i]` is the load of the date `i` days after `first` (0 on a
   * day without activity). On intervals.icu the date's `ctlLoad`, the load its fitness counts.
   */
  days: { first: string; loads: number[] };
  load: LoadNumbers;
  trend: LoadTrend;
  load_source: Sources;
  /** Only on a log that keeps wellness records (intervals.icu). */
  readiness_trend?: ReadinessTrend;
  /** Plain sentences on what limits these numbers (a short history, estimates, a stop at the paging bound, a null). */
  notes: string[];
}

/** The answer on Strava (and the sandbox playing it). */
export type StravaLoadAnswer = TrainingLoadAnswer<LoadSources>;
/** The answer on intervals.icu. */
export type IntervalsLoadAnswer = TrainingLoadAnswer<IntervalsLoadSources> & { readiness_trend: ReadinessTrend };
