/**
 * What a tool may ask of the running service while it builds its request or plans several (the athlete's id, and
 * where the log holds them, their local date and time zone): its own file, so that a tool's definition and its
 * request plan both take it without importing each other.
 */

/** What a tool may ask of the running service while building its request. */
export interface RequestContext {
  /** The athlete's id as the log's paths take it (Strava's looked up once, then kept; intervals.icu's from its settings). */
  athleteId(signal?: AbortSignal): Promise<number | string>;
  /** The athlete's local date today, "YYYY-MM-DD", where the log holds their time zone (intervals.icu's tools' default dates). */
  today?(signal?: AbortSignal): Promise<string>;
  /** That time zone (IANA), where the log holds one. */
  timeZone?(signal?: AbortSignal): Promise<string>;
  signal?: AbortSignal | undefined;
}
