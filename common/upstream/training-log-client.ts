/**
 * What the tools ask of a training log's API, whichever it is (Strava's or intervals.icu's): send one
 * described request and get its successful answer, or an `UpstreamError` (common/upstream/upstream-errors.ts)
 * saying what went wrong and what to do. How each log authenticates, paces and words its errors stays inside
 * its own client (strava/strava-client.ts, intervals/intervals-client.ts); the tools runner sees only this.
 */
import type { HttpAnswer } from "./http-exchange.ts";
import type { UpstreamRequest } from "./upstream-request.ts";

/** The training logs a server or plugin may serve, one at a time. */
export const trainingLogs = ["strava", "intervals.icu"] as const;
export type TrainingLog = (typeof trainingLogs)[number];

/** The log's name as people write it, for messages: "Strava", "intervals.icu". */
export function trainingLogName(log: TrainingLog): string {
  return log === "strava" ? "Strava" : "intervals.icu";
}

export interface SendOptions {
  signal?: AbortSignal | undefined;
  /**
   * Advice appended to a status error, chosen by the tool (e.g. club activities' 404), from the status and the
   * upstream's error body as read (Strava's Fault, intervals.icu's `{status, error}`; undefined when unreadable).
   */
  errorHint?: ((status: number, errorBody: unknown) => string | undefined) | undefined;
}

export interface TrainingLogClient {
  /** Sends `request` and returns the successful (2xx) answer, or throws an `UpstreamError`. */
  send(request: UpstreamRequest, options?: SendOptions): Promise<HttpAnswer>;
  /**
   * Until when (epoch ms) work nobody asked for just now (the plugin's background check for new activities)
   * should leave the log's read limit alone, because its latest answer showed `share` (0.8 for 80%) or more of a
   * read window used; undefined to go ahead. Calls a person asked for are never held back by it. Every client
   * answers, so a wrapper cannot drop it unnoticed: Strava's from its rate-limit headers, intervals.icu's always
   * undefined (it sends no such headers, and its client paces itself).
   */
  backgroundReadsResumeAt(share: number): number | undefined;
}
