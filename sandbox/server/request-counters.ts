/**
 * The sandbox's request counters: every request, token requests, refresh tokens refused, API requests, and each
 * route's count ("GET /activities/{id}", "POST /oauth/token"), which tests read to say exactly what a client sent.
 */

export type SandboxCounters = {
  requests: number;
  tokenRequests: number;
  /** Refresh requests answered 400 because the refresh token was spent (or never valid). */
  refreshTokenRejections: number;
  apiRequests: number;
  /** Requests per route, e.g. "GET /activities/{id}", "POST /oauth/token". */
  byRoute: Record<string, number>;
};

export class RequestCounters {
  #counts: SandboxCounters = RequestCounters.#zero();

  static #zero(): SandboxCounters {
    return { requests: 0, tokenRequests: 0, refreshTokenRejections: 0, apiRequests: 0, byRoute: {} };
  }

  /** One request on `route`; a token request and an API request are counted apart too. */
  count(route: string, kind?: "token" | "api"): void {
    this.#counts.requests++;
    if (kind === "token") this.#counts.tokenRequests++;
    else if (kind === "api") this.#counts.apiRequests++;
    this.#counts.byRoute[route] = (this.#counts.byRoute[route] ?? 0) + 1;
  }

  refreshTokenRejected(): void {
    this.#counts.refreshTokenRejections++;
  }

  /** A copy: what a caller holds does not move with later requests. */
  snapshot(): SandboxCounters {
    return { ...this.#counts, byRoute: { ...this.#counts.byRoute } };
  }

  reset(): void {
    this.#counts = RequestCounters.#zero();
  }
}
