/**
 * A session as the seed athlete's routine and training block describe it, before it becomes an Activity: the
 * shape both seed-activities.ts (the routine) and training-block.ts (the sessions the block adds or drops)
 * use, in a file of its own so that neither imports the other back.
 */

/** A session as the routine describes it, before it becomes an Activity. */
export interface Session {
  sportType: string;
  kind: SessionKind;
  localHour: number;
  localMinute: number;
  elapsed: number;
  name?: string;
  description?: string;
  private?: boolean;
  /** Recorded without a power meter on a bike that now has one (the base period): Strava's estimated power only. */
  noPowerMeter?: true;
}

export type SessionKind =
  | "easy-run"
  | "interval-run"
  | "long-run"
  | "trail-run"
  | "ride"
  | "gravel-ride"
  | "long-ride"
  | "virtual-ride"
  | "hike"
  | "swim"
  | "weights"
  | "workout"
  | "yoga";
