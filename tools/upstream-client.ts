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
import type { Logger } from "./logger.ts";
import type { UpstreamSettings } from "./settings.ts";
import type { TokenManager } from "./token-manager.ts";
import { describeRequest, type UpstreamRequest, type UpstreamResponse } from "./upstream-request.ts";
import {
  CallCancelledError,
  isApplicationInactive,
  networkCause,
  parseFault,
  statusErrorFor,
  UpstreamNetworkError,
  UpstreamTimeoutError,
} from "./upstream-errors.ts";

export interface UpstreamClientOptions {
  settings: UpstreamSettings;
  tokens: TokenManager;
  logger: Logger;
  fetch?: typeof fetch;
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
 * Strava allows 200 requests per 15 minutes, so more calls in flight than this never help; Form A's
 * upstream connection pool takes its size from here (mcp-adapter/node-http-fetch.ts).
 */
export const defaultMaxConcurrentRequests = 64;

export interface SendOptions {
  signal?: AbortSignal | undefined;
  /** Advice appended to a status error, chosen by the tool (e.g. club activities' 404). */
  errorHint?: ((status: number) => string | undefined) | undefined;
}

export class UpstreamClient {
  readonly settings: UpstreamSettings;
  readonly #tokens: TokenManager;
  readonly #logger: Logger;
  readonly #fetch: typeof fetch;
  readonly #now: () => number;
  readonly #limit: LimitFunction;
  readonly #admission: UpstreamAdmission | undefined;

  constructor(options: UpstreamClientOptions) {
    this.settings = options.settings;
    this.#tokens = options.tokens;
    this.#logger = options.logger;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#now = options.now ?? Date.now;
    this.#limit = pLimit(options.maxConcurrentRequests ?? defaultMaxConcurrentRequests);
    this.#admission = options.admission;
  }

  /** Sends `request` and returns the successful response, or throws an `UpstreamError`. */
  send(request: UpstreamRequest, options: SendOptions = {}): Promise<UpstreamResponse> {
    return this.#limit(() => this.#send(request, options));
  }

  async #send(request: UpstreamRequest, options: SendOptions): Promise<UpstreamResponse> {
    const { signal } = options;
    // Cancelled while it waited for its turn: nothing was sent.
    if (signal?.aborted) throw new CallCancelledError(`The call was cancelled before ${describeRequest(request)} was sent.`);
    await this.#admission?.admit(request, signal);
    let token = await this.#tokens.accessToken(signal);
    let response = await this.#attempt(request, token, signal);
    // The token may have been revoked or expired early: renew it and try again, once with a token Strava
    // has just issued. A token another process put in the store may have been revoked too: then one more.
    for (let renewals = 0; response.status === 401 && !isMissingScope(response.bodyText) && renewals < 2; renewals++) {
      this.#logger.info("upstream_token_rejected", { request: describeRequest(request) });
      const renewed = await this.#tokens.renewAfterRejection(token, signal);
      if (renewed.accessToken === token) break;
      token = renewed.accessToken;
      response = await this.#attempt(request, token, signal);
      if (renewed.issuedNow) break;
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
        hint: [options.errorHint?.(response.status), this.#admission?.statusHint?.(response.status)].filter((text) => text).join(" ") || undefined,
      });
    }
    this.#tokens.noteApplicationInactive(false);
    return response;
  }

  async #attempt(request: UpstreamRequest, token: string, signal: AbortSignal | undefined): Promise<UpstreamResponse> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "application/json" };
    let body: RequestInit["body"];
    switch (request.body?.kind) {
      case "form":
        body = new URLSearchParams(request.body.fields);
        break;
      case "json":
        headers["content-type"] = "application/json";
        body = JSON.stringify(request.body.value);
        break;
      case "multipart":
        // fetch writes the multipart boundary into Content-Type itself.
        body = request.body.form;
        break;
      case undefined:
        break;
    }
    // One controller for both ways an attempt ends early. (AbortSignal.timeout + AbortSignal.any cost
    // about 30 µs per call on Node 20, a tenth of this server's own work on a tool call; see BENCHMARKS.md.)
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException("The upstream request timed out.", "TimeoutError"));
    }, this.settings.timeoutMs);
    const onCancel = (): void => controller.abort(signal?.reason);
    if (signal?.aborted) onCancel();
    else signal?.addEventListener("abort", onCancel, { once: true });
    const started = performance.now();
    try {
      const response = await this.#fetch(this.#url(request), { method: request.method, headers, body, signal: controller.signal });
      const bodyText = await response.text();
      this.#logger.debug("upstream_response", {
        request: describeRequest(request),
        status: response.status,
        ms: Math.round(performance.now() - started),
        bytes: bodyText.length,
      });
      return { status: response.status, headers: response.headers, bodyText };
    } catch (error) {
      if (signal?.aborted) throw new CallCancelledError(`The call was cancelled while waiting for ${describeRequest(request)}.`);
      if (timedOut) {
        throw new UpstreamTimeoutError(
          `Strava did not answer ${describeRequest(request)} within ${this.settings.timeoutMs / 1000} s (timeout). ` +
            "It may be slow or unreachable; try again shortly (STRAVA_TIMEOUT_MS sets the limit).",
        );
      }
      throw new UpstreamNetworkError(
        `Network failure on ${describeRequest(request)} to ${this.settings.apiBase}: ${networkCause(error)}. Try again shortly.`,
      );
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onCancel);
    }
  }

  #url(request: UpstreamRequest): string {
    let url = this.settings.apiBase + request.path;
    if (request.query) {
      const params: string[] = [];
      for (const [key, value] of Object.entries(request.query)) {
        if (value === undefined) continue;
        // Commas stay literal: they separate list values (streams `keys=time,distance`).
        params.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value)).replaceAll("%2C", ",")}`);
      }
      if (params.length > 0) url += `?${params.join("&")}`;
    }
    return url;
  }
}

/** A 401 for a scope the athlete did not grant: a refresh cannot fix it, so it is not retried. */
function isMissingScope(bodyText: string): boolean {
  return parseFault(bodyText)?.errors?.some((error) => error.resource === "AccessToken" && error.code === "missing") ?? false;
}
