/**
 * One set of tool dependencies per admitted athlete: the athlete's own token manager (the same rules
 * as for one athlete: 5-minute margin, one refresh at a time, saved before use, rotated refresh tokens
 * never lost) on the athlete's credential store, and an upstream client whose every request first
 * takes a place in the athlete's fair share of the Strava application's rate limit.
 *
 * Fair share: Strava limits the application, not the athlete, so the N admitted athletes (the
 * configured list, or 1 for an owner-only deployment) each get 1/N of every window (overall and read,
 * 15 minutes and daily), after the budget of the deauthorization checks Strava's webhook may ask for is
 * set aside (one per athlete per 15 minutes, `deauthorizationChecksPerDay` a day: strava-webhook.ts). The counts live in the shared store, so every instance agrees; a request past
 * an athlete's share is answered 429 here, naming the athlete, the window and when it resets, and
 * nothing is sent. A 429 from Strava itself means the whole application's budget ran out; its message
 * says so. Counting costs a store write per Strava request (Strava allows about one request per four
 * seconds per athlete on average, so it is noise).
 */
import type { Logger } from "../common/logger.ts";
import type { ToolDeps } from "../tools/runner/create-tool-deps.ts";
import { stravaToolDepsOn } from "../tools/composition/open-tool-deps.ts";
import type { CredentialStore } from "../credentials/credential-store.ts";
import type { SendHttp } from "../common/upstream/http-exchange.ts";
import { nextDailyReset, nextFifteenMinuteReset } from "../strava/rate-limit.ts";
import type { UpstreamSettings } from "../strava/strava-settings.ts";
import { withDeadline } from "../credentials/store-deadline.ts";
import type { UpstreamAdmission } from "../strava/strava-client.ts";
import { UpstreamStatusError } from "../strava/strava-errors.ts";
import type { UpstreamRequest } from "../common/upstream/upstream-request.ts";
import type { FairShare, UsageStore } from "./stores/usage-store.ts";
import { deauthorizationChecksPerDay } from "./strava/strava-webhook.ts";
import { athleteCredentials } from "./sign-in-again.ts";

export interface AthleteSessionsOptions {
  /** The athlete's Strava tokens (credentials/store-choice.ts makes the store). */
  athleteCredentials: (athleteId: string) => CredentialStore;
  /** Where each athlete's fair share is counted. */
  usage: Pick<UsageStore, "description" | "countUpstreamRequest">;
  settings: UpstreamSettings;
  /** Deadline of each store call (the fair-share counts, the athletes' token stores). */
  storeTimeoutMs: number;
  logger: Logger;
  /** The network seam every athlete's calls share (one connection pool per process). */
  http: SendHttp;
  /** The application's limits: [15-minute, daily] overall and read. */
  applicationLimits: { overall: [number, number]; read: [number, number] };
  /** How many athletes share them. */
  athletes: number;
  now?: () => number;
  /** Wraps each athlete's credential store (the rescue copy of new tokens, credentials/rescue/rescuing-store.ts). */
  rescue?: ((store: CredentialStore) => CredentialStore) | undefined;
  /** Strava refused the athlete's stored refresh token (sign-in-again.ts ends their grants); awaited before the call fails. */
  onRefreshTokenDead?: ((athleteId: string) => Promise<void>) | undefined;
}

/** The athlete's share of a rate-limit window was used up: nothing was sent. */
export class FairShareExceededError extends UpstreamStatusError {}

export class AthleteSessions {
  readonly #options: AthleteSessionsOptions;
  readonly #share: FairShare;
  readonly #deps = new Map<string, ToolDeps>();
  readonly #now: () => number;

  constructor(options: AthleteSessionsOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    const part = (limit: number, reserved: number): number => Math.max(1, Math.floor((limit - reserved) / options.athletes));
    const { overall, read } = options.applicationLimits;
    const reserved = { fifteenMinute: options.athletes, daily: options.athletes * deauthorizationChecksPerDay };
    this.#share = {
      overall: { fifteenMinute: part(overall[0], reserved.fifteenMinute), daily: part(overall[1], reserved.daily) },
      read: { fifteenMinute: part(read[0], reserved.fifteenMinute), daily: part(read[1], reserved.daily) },
    };
  }

  get share(): FairShare {
    return this.#share;
  }

  /** The athlete's tool dependencies (made on first use, then kept). */
  depsFor(athleteId: string): ToolDeps {
    let deps = this.#deps.get(athleteId);
    if (deps === undefined) {
      const { settings, logger, onRefreshTokenDead } = this.#options;
      const stored = this.#options.athleteCredentials(athleteId);
      const credentials = this.#options.rescue ? this.#options.rescue(stored) : stored;
      // Built by the composition root, as every front end's are, on the athlete's own store.
      deps = stravaToolDepsOn(athleteCredentials(credentials, athleteId), settings, {
        logger,
        storeTimeoutMs: this.#options.storeTimeoutMs,
        http: this.#options.http,
        now: this.#now,
        admission: this.#admission(athleteId),
        ...(onRefreshTokenDead ? { onRefreshTokenDead: () => onRefreshTokenDead(athleteId) } : {}),
      });
      this.#deps.set(athleteId, deps);
    }
    return deps;
  }

  /**
   * The athletes served by this process whose stored refresh token Strava refused, and who have not signed in
   * again since (each token manager reads its store again at most every 5 s while it waits, so a new sign-in on
   * any instance shows).
   */
  async athletesToSignInAgain(): Promise<string[]> {
    const states = await Promise.all(
      [...this.#deps].map(async ([athleteId, deps]) => ({ athleteId, state: (await deps.tokens.health()).state })),
    );
    return states.filter(({ state }) => state === "needs_authorization").map(({ athleteId }) => athleteId);
  }

  /** Drops what this process holds for the athlete (after their data was deleted). */
  forget(athleteId: string): void {
    this.#deps.delete(athleteId);
  }

  /** Waits for token refreshes in progress and their saves (shutdown). */
  async settle(): Promise<{ lost: boolean }> {
    const outcomes = await Promise.all([...this.#deps.values()].map((deps) => deps.credentials.settle()));
    return { lost: outcomes.some((outcome) => outcome.lost) };
  }

  #admission(athleteId: string): UpstreamAdmission {
    const { usage, athletes } = this.#options;
    const deadlineMs = this.#options.storeTimeoutMs;
    return {
      admit: async (request: UpstreamRequest) => {
        const read = request.method === "GET";
        const now = this.#now();
        const verdict = await withDeadline(
          deadlineMs,
          () => `The ${usage.description} did not count this request within ${deadlineMs / 1000} s; nothing was sent to Strava. Try again.`,
          (signal) => usage.countUpstreamRequest(athleteId, read, this.#share, now, signal),
        );
        if (verdict.admitted) return;
        const daily = verdict.window.endsWith("daily");
        const reset = daily ? nextDailyReset(now) : nextFifteenMinuteReset(now);
        this.#options.logger.warn("fair_share_exceeded", {
          athlete: athleteId,
          window: verdict.window,
          used: verdict.used,
          share: verdict.share,
        });
        throw new FairShareExceededError(
          `429 Too Many Requests: athlete ${athleteId}'s share of this server's Strava rate limit is used up: ${verdict.used} of ${verdict.share} requests in the ${verdict.window} window ` +
            `(the application's limit is shared by the ${athletes} athlete${athletes === 1 ? "" : "s"} this server serves). Nothing was sent to Strava. ` +
            `It resets at ${daily ? `midnight UTC (${reset.toISOString()})` : `${reset.toISOString().slice(11, 19)} UTC`}; other athletes' shares are not affected.`,
          429,
          undefined,
        );
      },
      statusHint: (status: number) =>
        status === 429 && athletes > 1
          ? `This is Strava's own limit for the whole application, shared by the ${athletes} athletes this server serves: the application's budget ran out, not only athlete ${athleteId}'s share.`
          : undefined,
    };
  }
}
