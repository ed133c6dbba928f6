/**
 * The failures of a call to a training log's API (Strava's or intervals.icu's), whichever log answers. These
 * are the only errors `runTool` turns into `Error: <message>` results, so both upstreams throw these classes
 * and only their messages differ. Messages name the request ("GET /activities/123"), never a token or a key,
 * and say what to do next where there is something to do.
 */
import { NamedError } from "../named-error.ts";

export class UpstreamError extends NamedError {}

/** The upstream answered with a non-success status. */
export class UpstreamStatusError extends UpstreamError {
  readonly status: number;
  /** The upstream's error body as read (Strava's Fault, intervals.icu's `{status, error}`), when it could be read. */
  readonly errorBody: unknown;
  constructor(message: string, status: number, errorBody?: unknown) {
    super(message);
    this.status = status;
    this.errorBody = errorBody;
  }
}

/** No answer within the configured time. */
export class UpstreamTimeoutError extends UpstreamError {}

/** The connection failed (refused, reset, DNS) or the body was cut off. */
export class UpstreamNetworkError extends UpstreamError {}

/** A success status with a body that is not JSON (truncated, an HTML error page, ...). */
export class UpstreamBodyError extends UpstreamError {}

/** The caller cancelled the call (its AbortSignal fired). */
export class CallCancelledError extends UpstreamError {}
