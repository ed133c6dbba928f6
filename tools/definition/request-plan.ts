/**
 * An answer that takes several upstream requests (pages, then what the pages call for), described as data:
 * the tool hands run-tool.ts a plan, run-tool.ts sends its requests one at a time, and the plan's two pure
 * functions choose each next request from the answers so far and reduce all of them to the result text. The
 * tool does no I/O, so a test drives a plan with bodies of its own and no network.
 */
import type { UpstreamRequest } from "../../common/upstream/upstream-request.ts";
import type { RequestContext } from "./request-context.ts";

export interface PlannedRequest {
  request: UpstreamRequest;
  /**
   * The answer can do without this one: a status error (a missing scope, a 404) becomes an answer with
   * `failed` set, handed to `reduce`, instead of failing the call.
   */
  optional?: boolean;
}

/** One request as sent and what came back, in the order they were sent. */
export interface UpstreamAnswer {
  request: UpstreamRequest;
  status: number;
  /** The body; for a failed optional request, the error message. */
  bodyText: string;
  /** Set when an optional request got a status error. */
  failed?: true;
}

export interface RequestPlan {
  /** A guard against a plan that never stops: more requests than this is a bug in the plan. */
  readonly maxRequests: number;
  /**
   * The next request, or undefined when the answers so far are all the plan needs. Throws
   * `ToolInputError` or an `UpstreamError` (say, a body that is not what the request returns); a
   * `SyntaxError` means the latest body is not JSON.
   */
  next(answers: readonly UpstreamAnswer[]): PlannedRequest | undefined;
  /** The result text from every answer. Throws like `next`. */
  reduce(answers: readonly UpstreamAnswer[]): string;
}

/**
 * What a tool may know when it plans: the instant of the call, which parameters the caller sent, and what a
 * request's builder may ask of the running service (the athlete's id, local date and time zone).
 */
export interface PlanContext extends RequestContext {
  /** Epoch milliseconds from the service's injected clock. */
  nowMs: number;
  /** The parameter names the caller gave (defaults are filled in after, so a default is not "given"). */
  given: ReadonlySet<string>;
}
