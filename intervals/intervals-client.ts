/**
 * The one place that talks to intervals.icu's REST API: every request carries the athlete's API key as HTTP
 * Basic credentials (user name `API_KEY`), waits its turn under intervals.icu's rate limit (request-pacer.ts),
 * goes through the shared HTTP exchange with its timeout and the caller's cancellation, and every failure
 * becomes a named `UpstreamError` whose message says what to do (intervals-errors.ts).
 *
 * Nothing is retried: a refused key stays refused (the first call says so, naming INTERVALS_API_KEY), and a
 * 429 means another program on this address is using the limit too. The key is kept in this object only as
 * the ready header; it is never logged, and no message carries it.
 */
import type { Logger } from "../common/logger.ts";
import { ConfigurationError } from "../common/configuration-error.ts";
import { HttpExchangeError, type HttpAnswer, type SendHttp } from "../common/upstream/http-exchange.ts";
import { encodedBody, requestUrl } from "../common/upstream/request-encoding.ts";
import type { SendOptions, TrainingLogClient } from "../common/upstream/training-log-client.ts";
import { CallCancelledError, UpstreamNetworkError, UpstreamTimeoutError } from "../common/upstream/upstream-errors.ts";
import { describeRequest, type UpstreamRequest } from "../common/upstream/upstream-request.ts";
import { blankedOut, intervalsStatusError, parseIntervalsError } from "./intervals-errors.ts";
import { checkedIntervalsApiBase, defaultIntervalsTimeoutMs, type IntervalsSettings } from "./intervals-settings.ts";
import { RequestPacer } from "./request-pacer.ts";

export interface IntervalsClientOptions {
  settings: Omit<IntervalsSettings, "timeoutMs"> & { timeoutMs?: number };
  logger: Logger;
  http: SendHttp;
  /** The rate-limit pacer (default: 10 requests a second). One per process: the limit is per address. */
  pacer?: RequestPacer;
}

export class IntervalsClient implements TrainingLogClient {
  /** `0` or the athlete's id: the `{id}` of the `/athlete/{id}/...` paths the tools build. */
  readonly athleteId: string;
  readonly apiBase: string;
  readonly timeoutMs: number;
  readonly #apiKey: string;
  readonly #authorization: string;
  readonly #logger: Logger;
  readonly #http: SendHttp;
  readonly #pacer: RequestPacer;

  constructor(options: IntervalsClientOptions) {
    const { settings } = options;
    if (settings.apiKey.trim() === "") {
      throw new ConfigurationError(
        "INTERVALS_API_KEY is empty: set it to the key shown under Settings > Developer Settings on intervals.icu.",
      );
    }
    this.apiBase = checkedIntervalsApiBase(settings.apiBase);
    this.athleteId = settings.athleteId;
    this.timeoutMs = settings.timeoutMs ?? defaultIntervalsTimeoutMs;
    this.#apiKey = settings.apiKey;
    this.#authorization = `Basic ${Buffer.from(`API_KEY:${settings.apiKey}`).toString("base64")}`;
    this.#logger = options.logger;
    this.#http = options.http;
    this.#pacer = options.pacer ?? new RequestPacer();
  }

  /** intervals.icu sends no rate-limit headers to read a window's use from, and this client paces every request itself. */
  backgroundReadsResumeAt(_share: number): undefined {
    return undefined;
  }

  /** Sends `request` and returns the successful answer, or throws an `UpstreamError`. */
  async send(request: UpstreamRequest, options: SendOptions = {}): Promise<HttpAnswer> {
    const { signal } = options;
    await this.#pacer.turn(signal);
    const answer = await this.#attempt(request, signal);
    if (answer.status < 200 || answer.status >= 300) {
      throw intervalsStatusError({
        request: describeRequest(request),
        status: answer.status,
        bodyText: answer.bodyText,
        apiKey: this.#apiKey,
        hint: options.errorHint?.(answer.status, parseIntervalsError(answer.bodyText)),
      });
    }
    return answer;
  }

  async #attempt(request: UpstreamRequest, signal: AbortSignal | undefined): Promise<HttpAnswer> {
    const headers: Record<string, string> = { authorization: this.#authorization, accept: "application/json" };
    const { body, contentType } = encodedBody(request.body);
    if (contentType) headers["content-type"] = contentType;
    const started = performance.now();
    try {
      const answer = await this.#http({
        method: request.method,
        url: requestUrl(this.apiBase, request),
        headers,
        body,
        signal,
        timeoutMs: this.timeoutMs,
      });
      this.#logger.debug("upstream_response", {
        upstream: "intervals.icu",
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
          `intervals.icu did not answer ${describeRequest(request)} within ${this.timeoutMs / 1000} s (timeout). ` +
            "It may be slow or unreachable; try again shortly.",
        );
      }
      throw new UpstreamNetworkError(
        `Network failure on ${describeRequest(request)} to ${this.apiBase}: ${blankedOut(error.detail, this.#apiKey)}. Try again shortly.`,
      );
    }
  }
}
