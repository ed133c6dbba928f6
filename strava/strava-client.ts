/**
 * The one place that talks to the Strava REST API: attaches the access token, encodes the body,
 * applies the timeout and the caller's cancellation, retries once after a 401, and turns every kind
 * of failure into a named `UpstreamError` with a message a model can act on.
 *
 * It never retries anything else and never throttles: Strava's rate limits are reported, not enforced.
 * It does bound how many calls are in flight at once (`maxConcurrentRequests`): the rest wait their
 * turn before taking a token or starting an HTTP request, so a burst of calls holds little memory while it
 * waits, and Strava never sees more parallel requests than could help (its limit is 200 per 15 minutes).
 */
import pLimit, { type LimitFunction } from "p-limit";
import type { Logger } from "../common/logger.ts";
import { HttpExchangeError, type HttpAnswer, type SendHttp } from "../common/upstream/http-exchange.ts";
import { encodedBody, requestUrl } from "../common/upstream/request-encoding.ts";
import type { UpstreamSettings } from "./strava-settings.ts";
import { describeRequest, type UpstreamRequest } from "../common/upstream/upstream-request.ts";
import { isApplicationInactive, parseFault, statusErrorFor } from "./strava-errors.ts";
import { readRateLimitHeaders, readsPausedUntil, type RateLimitState } from "./rate-limit.ts";
import { CallCancelledError, UpstreamNetworkError, UpstreamTimeoutError } from "../common/upstream/upstream-errors.ts";
import type { SendOptions, TrainingLogClient } from "../common/upstream/training-log-client.ts";

/**
 * Where the client gets the access token it sends (credentials/token-manager.ts is the one that keeps
 * refresh tokens safe; the client only asks it).
 */
export interface AccessTokenSource {
  /** A token that is good for this request (refreshed first when due). */
  accessToken(signal?: AbortSignal): Promise<string>;
  /** After Strava refused `rejectedToken` with 401: a token to retry once with, and whether it is new. */
  renewAfterRejection(rejectedToken: string, signal?: AbortSignal): Promise<{ accessToken: string; issuedNow: boolean }>;
  /** Strava's answer on whether the application is active (403 "Application Status Inactive" or not). */
  noteApplicationInactive(inactive: boolean, message?: string): void;
  /** What to do to authorize again, for messages, where it is not `npm run authorize` (OAuth mode's sign-in). */
  readonly authorizeAgain?: string | undefined;
}

export interface UpstreamClientOptions {
  settings: UpstreamSettings;
  tokens: AccessTokenSource;
  logger: Logger;
  http: SendHttp;
  now?: () => number;
  /** Calls sent at once; the rest queue in arrival order (default `defaultMaxConcurrentRequests`). */
  maxConcurrentRequests?: number;
  /** A deployment's say over each request before it is sent (several athletes sharing one application's rate limit). */
  admission?: UpstreamAdmission | undefined;
}

/**
 * Decides whether a request may go to Strava: `admit` throws an `UpstreamError` (nothing is sent) when
 * it may not; `statusHint` adds a deployment's advice to a status error (whose budget a 429 spent).
 */
export interface UpstreamAdmission {
  admit(request: UpstreamRequest, signal: AbortSignal | undefined): Promise<void>;
  statusHint?(status: number): string | undefined;
}

/**
 * Strava allows 200 requests per 15 minutes, so more calls in flight than this never help; the HTTP
 * connection pool per origin has the same bound (tools/runner/create-tool-deps.ts; shared by the athletes in OAuth mode).
 */
export const defaultMaxConcurrentRequests = 64;

export class UpstreamClient implements TrainingLogClient {
  readonly settings: UpstreamSettings;
  readonly #tokens: AccessTokenSource;
  readonly #logger: Logger;
  readonly #http: SendHttp;
  readonly #now: () => number;
  readonly #limit: LimitFunction;
  readonly #admission: UpstreamAdmission | undefined;
  /** The rate-limit headers of the latest answer that carried them, and when it came. */
  #rateLimit: { state: RateLimitState; atMs: number } | undefined;

  constructor(options: UpstreamClientOptions) {
    this.settings = options.settings;
    this.#tokens = options.tokens;
    this.#logger = options.logger;
    this.#http = options.http;
    this.#now = options.now ?? Date.now;
    this.#limit = pLimit(options.maxConcurrentRequests ?? defaultMaxConcurrentRequests);
    this.#admission = options.admission;
  }

  /**
   * Until when work in the background (the plugin's check for new activities) should leave Strava's read
   * limits alone: while the latest answer's headers show `share` (0.8 for 80%) or more of the 15-minute or
   * daily read limit used, the instant that window resets; otherwise undefined. Calls a person asked for are
   * never held back by it (the client reports limits, it does not enforce them).
   */
  backgroundReadsResumeAt(share: number): number | undefined {
    if (!this.#rateLimit) return undefined;
    const until = readsPausedUntil(this.#rateLimit.state, this.#rateLimit.atMs, share);
    return until !== undefined && until > this.#now() ? until : undefined;
  }

  /** Sends `request` and returns the successful answer, or throws an `UpstreamError`. */
  send(request: UpstreamRequest, options: SendOptions = {}): Promise<HttpAnswer> {
    return this.#limit(() => this.#send(request, options));
  }

  async #send(request: UpstreamRequest, options: SendOptions): Promise<HttpAnswer> {
    const { signal } = options;
    // Cancelled while it waited for its turn: nothing was sent.
    if (signal?.aborted) throw new CallCancelledError(`The call was cancelled before ${describeRequest(request)} was sent.`);
    await this.#admission?.admit(request, signal);
    let token = await this.#tokens.accessToken(signal);
    let response = await this.#attempt(request, token, signal);
    // The token may have been revoked or expired early: renew it and try again, once with a token Strava
    // has just issued. A token another process put in the store may have been revoked too: then one more.
    // Strava may answer the renewal with the very token it refused (it hands back a token with more than an
    // hour to live): it still vouches for it, so the 401 was passing; the request is sent once more with it.
    for (let renewals = 0; response.status === 401 && !isMissingScope(response.bodyText) && renewals < 2; renewals++) {
      this.#logger.info("upstream_token_rejected", { request: describeRequest(request) });
      const renewed = await this.#tokens.renewAfterRejection(token, signal);
      const unchanged = renewed.accessToken === token;
      token = renewed.accessToken;
      response = await this.#attempt(request, token, signal);
      if (renewed.issuedNow || unchanged) break;
    }
    if (response.status < 200 || response.status >= 300) {
      if (response.status === 403 && isApplicationInactive(403, parseFault(response.bodyText))) {
        this.#tokens.noteApplicationInactive(true, `Strava answered 403 Application Status Inactive to ${describeRequest(request)}.`);
      }
      throw statusErrorFor({
        request: describeRequest(request),
        status: response.status,
        bodyText: response.bodyText,
        headers: response.headers,
        nowMs: this.#now(),
        authorizeAgain: this.#tokens.authorizeAgain,
        hint:
          [options.errorHint?.(response.status, parseFault(response.bodyText)), this.#admission?.statusHint?.(response.status)]
            .filter((text) => text)
            .join(" ") || undefined,
      });
    }
    this.#tokens.noteApplicationInactive(false);
    return response;
  }

  async #attempt(request: UpstreamRequest, token: string, signal: AbortSignal | undefined): Promise<HttpAnswer> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "application/json" };
    const { body, contentType } = encodedBody(request.body);
    if (contentType) headers["content-type"] = contentType;
    const started = performance.now();
    try {
      const answer = await this.#http({
        method: request.method,
        url: requestUrl(this.settings.apiBase, request),
        headers,
        body,
        signal,
        timeoutMs: this.settings.timeoutMs,
      });
      const limits = readRateLimitHeaders(answer.headers);
      if (limits.read || limits.overall) this.#rateLimit = { state: limits, atMs: this.#now() };
      this.#logger.debug("upstream_response", {
        request: describeRequest(request),
        status: answer.status,
        ms: Math.round(performance.now() - started),
        bytes: answer.bodyText.length,
      });
      return answer;
    } catch (error) {
      if (!(error instanceof HttpExchangeError)) throw error;
      if (error.kind === "cancelled") throw new CallCancelledError(`The call was cancelled while waiting for ${describeRequest(request)}.`);
      if (error.kind === "timeout") {
        throw new UpstreamTimeoutError(
          `Strava did not answer ${describeRequest(request)} within ${this.settings.timeoutMs / 1000} s (timeout). ` +
            "It may be slow or unreachable; try again shortly (STRAVA_TIMEOUT_MS sets the limit).",
        );
      }
      throw new UpstreamNetworkError(
        `Network failure on ${describeRequest(request)} to ${this.settings.apiBase}: ${error.detail}. Try again shortly.`,
      );
    }
  }
}

/** A 401 for a scope the athlete did not grant: a refresh cannot fix it, so it is not retried. */
function isMissingScope(bodyText: string): boolean {
  return parseFault(bodyText)?.errors?.some((error) => error.resource === "AccessToken" && error.code === "missing") ?? false;
}
