/**
 * Owns the athlete's OAuth tokens: hands out a valid access token, refreshes it shortly before it
 * expires, and makes every new token set durable in the credential store before using it, correctly
 * when several processes share the store.
 *
 * - When: from this process's own moment in the 5 minutes before the 5-minute margin
 *   (credentials/refresh-schedule.ts), so processes sharing a store come due one after another.
 * - One refresh at a time; concurrent callers share it. It re-reads the store first: another process may
 *   have refreshed already, and then its token is taken on instead of spending the refresh token again.
 * - Save first: the store's compare-and-swap is the first thing after Strava's answer, merged over the
 *   snapshot read before the request (no read in between). If the store moved on meanwhile, nothing is
 *   written over it: its tokens are taken on (or, if they are our own tokens from a save whose answer was
 *   lost, they count as saved).
 * - Strava rejects the refresh token (another process spent it first): the store is read again, for up to
 *   one store deadline, for the winner's tokens, and the call carries on with them. Only a refresh token
 *   that is still in the store after that is dead: then, and only then, the error says to authorize again.
 * - A save that fails keeps the new tokens in memory; the next call (or shutdown's `settle`) saves them
 *   first. Every store call has a deadline (`storeTimeoutMs`): a stuck store fails the waiting calls and
 *   the next call tries again.
 * - `settle()` (shutdown) waits for a refresh in progress and its save, at most `settleBoundMs`.
 * - `health()` says whether the stored credentials work, for /health and the plugin's log.
 * - Tokens never go to `process.env` or to logs.
 */
import {
  authorizeAgainAdvice,
  CredentialsMissingError,
  CredentialStoreError,
  type CredentialSnapshot,
  type CredentialStore,
  type SaveOutcome,
  type StoredCredentials,
  type TokenSet,
} from "./credential-store.ts";
import { abortable } from "../common/upstream/abortable.ts";
import type { Logger } from "../common/logger.ts";
import type { SendHttp } from "../common/upstream/http-exchange.ts";
import {
  defaultRefreshMarginSeconds,
  defaultRefreshSpreadSeconds,
  outlivesMargin,
  refreshDueAt,
  type RefreshSchedule,
} from "./refresh-schedule.ts";
import { defaultStoreTimeoutMs, withDeadline } from "./store-deadline.ts";
import { requestTokens } from "../strava/strava-oauth.ts";
import { messageOf } from "../common/named-error.ts";
import {
  applicationInactiveAdvice,
  ApplicationInactiveError,
  RefreshTokenRejectedError,
  TokenRefreshError,
} from "../strava/strava-errors.ts";

export interface TokenManagerOptions {
  store: CredentialStore;
  tokenUrl: string;
  /** The token request's timeout. */
  timeoutMs: number;
  /** Deadline of each credential store call (default 5 s). */
  storeTimeoutMs?: number | undefined;
  logger: Logger;
  http: SendHttp;
  /** Clock in epoch milliseconds (tests move it). */
  now?: (() => number) | undefined;
  /** Source of this process's refresh moment (tests fix it). */
  random?: (() => number) | undefined;
  /**
   * Called when Strava refused the refresh token the store still holds (the athlete must authorize again), and
   * awaited before the call fails: OAuth mode ends the athlete's grants there, so their client's next request is
   * told to sign in. A failure of it is logged; the call fails with the refusal all the same.
   */
  onRefreshTokenDead?: (() => Promise<void>) | undefined;
}

/**
 * - `unchecked`: nothing tried yet; `ok`: the last refresh or read worked;
 * - `unsaved`: Strava issued tokens the store has not taken yet (they are kept in memory; fix the store);
 * - `store_unavailable`: the last read of the store failed;
 * - `needs_authorization`: the stored refresh token is dead (or there is none): authorize again (the store says how);
 * - `application_inactive`: Strava switched the API application off (subscription).
 */
export type CredentialState = "unchecked" | "ok" | "unsaved" | "store_unavailable" | "needs_authorization" | "application_inactive";

export interface CredentialHealth {
  state: CredentialState;
  /** What is wrong and what to do (absent when all is well). */
  message?: string;
  /** When this state began (ISO 8601). */
  since: string;
}

interface CurrentToken {
  accessToken: string;
  expiresAt: number;
  /** Epoch ms from which this process refreshes it. */
  dueAtMs: number;
}

/** After the save: done with this access token, or try again from what the store holds. */
type PersistResult = { accessToken: string } | { retryFrom: CredentialSnapshot };

/** Rounds of read-refresh-save one refresh may take when other processes keep moving the store. */
const maxRounds = 3;

export class TokenManager {
  readonly #store: CredentialStore;
  readonly #tokenUrl: string;
  readonly #timeoutMs: number;
  readonly #storeTimeoutMs: number;
  readonly #logger: Logger;
  readonly #http: SendHttp;
  readonly #now: () => number;
  readonly #schedule: RefreshSchedule;
  readonly #onRefreshTokenDead: (() => Promise<void>) | undefined;
  #current: CurrentToken | undefined;
  #inFlight: Promise<string> | undefined;
  #unsaved: { tokens: TokenSet; expected: CredentialSnapshot } | undefined;
  /** Tokens whose save is under way (for shutdown's account of what it leaves behind). */
  #saving: TokenSet | undefined;
  /** The stored refresh token Strava refused while it stayed in the store. */
  #deadRefreshToken: string | undefined;
  #health: { state: CredentialState; message?: string; sinceMs: number };
  #healthCheck: Promise<void> | undefined;
  #lastHealthCheckMs = 0;
  #closing = false;
  /** The access token this process last received from the token endpoint. */
  #lastIssued: string | undefined;

  constructor(options: TokenManagerOptions) {
    this.#store = options.store;
    this.#tokenUrl = options.tokenUrl;
    this.#timeoutMs = options.timeoutMs;
    this.#storeTimeoutMs = options.storeTimeoutMs ?? defaultStoreTimeoutMs;
    this.#logger = options.logger;
    this.#http = options.http;
    this.#now = options.now ?? Date.now;
    this.#schedule = {
      // The design's rule: refresh within 5 minutes of expiry, the same for every process.
      marginMs: defaultRefreshMarginSeconds * 1000,
      spreadMs: defaultRefreshSpreadSeconds * 1000,
      random: options.random ?? Math.random,
    };
    this.#onRefreshTokenDead = options.onRefreshTokenDead;
    this.#health = { state: "unchecked", sinceMs: this.#now() };
  }

  /** Where the credentials live (for messages). */
  get storeDescription(): string {
    return this.#store.description;
  }

  /** The store's own words for authorizing again, where that is not a command (OAuth mode's sign-in). */
  get authorizeAgain(): string | undefined {
    return this.#store.authorizeAgain;
  }

  /**
   * How long `settle()` may wait: a token request that has just started (its timeout) and its save,
   * tried twice (two store deadlines). 40 s with the defaults.
   */
  get settleBoundMs(): number {
    return this.#timeoutMs + 2 * this.#storeTimeoutMs;
  }

  /** A token valid for at least the refresh margin, refreshing first when this process's moment has come. */
  async accessToken(signal?: AbortSignal): Promise<string> {
    const current = this.#current;
    if (current && this.#now() < current.dueAtMs) return current.accessToken;
    // This process's moment has come for `current`: the store's token counts only if it is another one.
    return this.#sharedRefresh(current?.accessToken, signal);
  }

  /**
   * Called after the upstream answered 401 to `rejectedToken`. If another caller already replaced that
   * token, its replacement is returned; otherwise one (shared) refresh runs. `issuedNow` says whether the
   * token came from Strava's token endpoint in this process just now, rather than from the store (where
   * another process put it, and where it may have been revoked as well: worth one more renewal).
   */
  async renewAfterRejection(rejectedToken: string, signal?: AbortSignal): Promise<{ accessToken: string; issuedNow: boolean }> {
    const current = this.#current;
    let accessToken: string;
    if (current && current.accessToken !== rejectedToken && this.#now() < current.dueAtMs) accessToken = current.accessToken;
    else {
      if (current?.accessToken === rejectedToken) this.#current = undefined;
      accessToken = await this.#sharedRefresh(rejectedToken, signal);
    }
    return { accessToken, issuedNow: accessToken === this.#lastIssued };
  }

  /** The upstream answered 403 "Application Status Inactive" (or, with `false`, answered normally again). */
  noteApplicationInactive(inactive: boolean, message?: string): void {
    if (inactive) {
      if (this.#setHealth("application_inactive", message)) {
        this.#logger.error("application_inactive", { message: `${message ?? ""} ${applicationInactiveAdvice}`.trim() });
      }
    } else if (this.#health.state === "application_inactive") this.#setHealth("ok");
  }

  /**
   * The state of the stored credentials. While the refresh token is known dead, the store is read again
   * (at most every 5 s, bounded by the store deadline) so that a new authorization shows at once.
   */
  async health(): Promise<CredentialHealth> {
    if (this.#health.state === "needs_authorization" && !this.#inFlight && this.#now() - this.#lastHealthCheckMs >= 5_000) {
      this.#healthCheck ??= this.#recheckStore().finally(() => {
        this.#healthCheck = undefined;
      });
      await this.#healthCheck;
    }
    const { state, message, sinceMs } = this.#health;
    return { state, ...(message ? { message } : {}), since: new Date(sinceMs).toISOString() };
  }

  /**
   * Shutdown: no new refresh starts; a refresh in progress is waited for, with its save, and tokens kept
   * unsaved are saved once more; all within `settleBoundMs`. Resolves `lost: true` (after logging an error,
   * or a warning when the store keeps a copy for the next start) when the process would exit holding tokens
   * that are not in the store.
   */
  async settle(): Promise<{ lost: boolean }> {
    this.#closing = true;
    // Elapsed time, not the (injectable) wall clock: a bound must hold whatever the clock says.
    const deadline = performance.now() + this.settleBoundMs;
    const remaining = (): number => Math.max(0, deadline - performance.now());
    while (this.#inFlight && remaining() > 0) {
      this.#logger.info("shutdown_waits_for_refresh", { bound_ms: Math.round(remaining()) });
      await Promise.race([this.#inFlight.catch(() => {}), delay(remaining())]);
    }
    if (this.#unsaved && remaining() > 0) {
      const { tokens, expected } = this.#unsaved;
      try {
        await this.#persist(expected, tokens, Math.min(this.#storeTimeoutMs, remaining()));
      } catch {
        // logged by #persist
      }
    }
    if (this.#unsaved || this.#inFlight) {
      const held = this.#unsaved?.tokens ?? this.#saving;
      const keptIn = held === undefined ? undefined : this.#store.keptCopyOf?.(held);
      if (keptIn !== undefined) {
        this.#logger.warn("tokens_kept_for_next_start", {
          store: this.#store.description,
          message:
            `Stopping with new Strava tokens that ${this.#store.description} has not confirmed (it failed or did not answer within ${this.settleBoundMs / 1000} s). ` +
            `A copy is kept in ${keptIn}: the next process on this machine that reads the store saves them (the MCP server and the plugin as they start, ` +
            "OAuth mode at the athlete's next call). Start one before this machine restarts, or before this user's last session ends if the user does " +
            "not linger (loginctl enable-linger): the directory is in memory and is emptied then.",
        });
        return { lost: true };
      }
      this.#logger.error("tokens_lost_at_exit", {
        store: this.#store.description,
        message:
          `Stopping with new Strava tokens that ${this.#store.description} has not taken (it failed or did not answer within ${this.settleBoundMs / 1000} s). ` +
          `The stored refresh token is probably spent: if the next start says so, ${authorizeAgainAdvice(this.#store)}.`,
      });
      return { lost: true };
    }
    return { lost: false };
  }

  /** Undoes `settle()`'s refusal of new refreshes (a host that stops and starts the plugin's service again). */
  resume(): void {
    this.#closing = false;
  }

  /** `replacing`: the access token being replaced (rejected by Strava, or due); the store's counts only if it differs. */
  #sharedRefresh(replacing: string | undefined, signal: AbortSignal | undefined): Promise<string> {
    // The refresh itself ignores any one caller's signal: other callers are waiting on it too.
    this.#inFlight ??= this.#refresh(replacing).finally(() => {
      this.#inFlight = undefined;
    });
    return abortable(this.#inFlight, signal);
  }

  async #refresh(replacing: string | undefined): Promise<string> {
    if (this.#closing)
      throw new TokenRefreshError("The server is shutting down; it starts no new token refresh. Try again once it is back.");
    let snapshot: CredentialSnapshot | undefined;
    if (this.#unsaved) {
      const { tokens, expected } = this.#unsaved;
      const result = await this.#persist(expected, tokens, this.#storeTimeoutMs);
      if ("accessToken" in result && result.accessToken !== replacing) return result.accessToken;
      if ("retryFrom" in result) snapshot = result.retryFrom;
    }
    snapshot ??= await this.#load();
    for (let round = 1; ; round++) {
      const stored = snapshot.credentials;
      if (this.#usable(stored, replacing)) return this.#adopt(snapshot);
      if (stored.refresh_token === this.#deadRefreshToken) {
        await this.#announceDead();
        throw this.#deadError();
      }
      const received = await this.#tokensFor(snapshot, round);
      if ("moved" in received) {
        snapshot = received.moved;
        continue;
      }
      const result = await this.#persist(snapshot, received.tokens, this.#storeTimeoutMs, performance.now());
      if ("accessToken" in result) return result.accessToken;
      if (round >= maxRounds)
        throw new TokenRefreshError(`The ${this.#store.description} kept changing while this process refreshed; try again.`);
      snapshot = result.retryFrom;
    }
  }

  /**
   * New tokens from Strava for `snapshot`'s refresh token; or, when Strava refused it because another process
   * spent it first, the store as that process left it (`moved`). A refusal with nothing moved means the token is dead.
   */
  async #tokensFor(snapshot: CredentialSnapshot, round: number): Promise<{ tokens: TokenSet } | { moved: CredentialSnapshot }> {
    const stored = snapshot.credentials;
    try {
      return {
        tokens: await requestTokens({
          tokenUrl: this.#tokenUrl,
          clientId: stored.client_id,
          clientSecret: stored.client_secret,
          refreshToken: stored.refresh_token,
          storeDescription: this.#store.description,
          authorizeCommand: this.#store.authorizeCommand,
          authorizeAgain: this.#store.authorizeAgain,
          timeoutMs: this.#timeoutMs,
          http: this.#http,
          nowMs: this.#now(),
        }),
      };
    } catch (error) {
      if (error instanceof RefreshTokenRejectedError) {
        const moved = await this.#storeMovedOn(snapshot);
        if (moved && round < maxRounds) {
          this.#logger.info("refresh_lost_race", {
            store: this.#store.description,
            message: "Another process refreshed first; using its tokens.",
          });
          return { moved };
        }
        await this.#refreshTokenDied(stored.refresh_token, error);
      } else if (error instanceof ApplicationInactiveError) {
        if (this.#setHealth("application_inactive", error.message)) {
          this.#logger.error("application_inactive", { store: this.#store.description, message: error.message });
        }
      }
      throw error;
    }
  }

  /** Strava refused the refresh token the store still holds: the athlete must authorize again. */
  async #refreshTokenDied(refreshToken: string, error: RefreshTokenRejectedError): Promise<void> {
    this.#deadRefreshToken = refreshToken;
    this.#setHealth("needs_authorization", error.message);
    this.#logger.error("refresh_token_dead", { store: this.#store.description, message: error.message });
    await this.#announceDead();
  }

  /** Saves `tokens` over `expected` (compare-and-swap) and takes them on; keeps them as unsaved on failure. */
  async #persist(expected: CredentialSnapshot, tokens: TokenSet, timeoutMs: number, receivedAt?: number): Promise<PersistResult> {
    // What the save is tried over: `expected`, then what another process saved over the token ours replaced.
    const attempt = { over: expected };
    let outcome: SaveOutcome;
    this.#saving = tokens;
    try {
      outcome = await this.#saveOverSpentToken(attempt, tokens, timeoutMs);
    } catch (error) {
      throw this.#keepUnsaved(tokens, attempt.over, error);
    } finally {
      this.#saving = undefined;
    }
    this.#unsaved = undefined;
    this.#lastIssued = tokens.access_token;
    const held = outcome.saved ? outcome.snapshot : outcome.current;
    if (outcome.saved || sameTokens(held.credentials, tokens)) {
      // Saved now, or by an earlier attempt whose answer never came back.
      this.#deadRefreshToken = undefined;
      this.#setHealth("ok");
      this.#current = this.#scheduled(tokens.access_token, tokens.expires_at);
      this.#logger.info("token_refreshed", {
        store: this.#store.description,
        expires_at: tokens.expires_at,
        refresh_token_rotated: tokens.refresh_token !== attempt.over.credentials.refresh_token,
        ...(receivedAt === undefined ? {} : { save_ms: Math.round((performance.now() - receivedAt) * 10) / 10 }),
      });
      return { accessToken: tokens.access_token };
    }
    // The store moved on while we refreshed (another process, or the operator's new authorization): its
    // tokens are newer than what we started from, so ours are dropped, never written over them.
    this.#logger.warn("token_save_superseded", {
      store: this.#store.description,
      message: "The store changed first; using what it holds.",
    });
    return { retryFrom: outcome.current };
  }

  /**
   * The store's compare-and-swap of `tokens` over `attempt.over`, tried again over what another process saved
   * when that still carries the refresh token ours replaced (`attempt.over` then moves to it).
   */
  async #saveOverSpentToken(attempt: { over: CredentialSnapshot }, tokens: TokenSet, timeoutMs: number): Promise<SaveOutcome> {
    for (let tries = 1; ; tries++) {
      const over = attempt.over;
      const outcome = await withDeadline(
        timeoutMs,
        () => `The ${this.#store.description} did not take the new tokens within ${timeoutMs / 1000} s (FITNESS_STORE_TIMEOUT_MS).`,
        (signal) => this.#store.saveTokens(over, tokens, signal),
      );
      if (outcome.saved || !succeeds(tokens, over, outcome.current)) return outcome;
      // Another process saved first, but what it saved still carries the refresh token ours replaced
      // (Strava did not rotate it for that process, then rotated it for this one): that token is spent
      // now, so ours take its place rather than being dropped. If that keeps happening, ours are kept as
      // unsaved (retried at the next call), never dropped: they hold the only live refresh token.
      if (tries >= maxRounds) {
        throw new CredentialStoreError(
          `The ${this.#store.description} kept taking other processes' saves over the refresh token this refresh spent.`,
        );
      }
      attempt.over = outcome.current;
    }
  }

  /** New tokens the store did not take: kept in memory (and the store's copy, if it keeps one) for the next try; the error to throw. */
  #keepUnsaved(tokens: TokenSet, expected: CredentialSnapshot, error: unknown): TokenRefreshError {
    this.#unsaved = { tokens, expected };
    const keptIn = this.#store.keptCopyOf?.(tokens);
    const message =
      `Strava issued new tokens but they could not be saved to ${this.#store.description}: ${messageOf(error)} ` +
      (keptIn === undefined
        ? "They are kept in memory and saving is retried on the next call; fix the store before this process stops, " +
          "or the athlete will have to authorize again."
        : `They are kept in memory and in ${keptIn}, and saving is retried on the next call ` +
          "(or by the next process on this machine that reads the store, if this one stops first); fix the store.");
    this.#setHealth("unsaved", message);
    this.#logger.error("token_save_failed", { store: this.#store.description, error: messageOf(error) });
    return new TokenRefreshError(message);
  }

  async #load(): Promise<CredentialSnapshot> {
    try {
      return await withDeadline(
        this.#storeTimeoutMs,
        () =>
          `The ${this.#store.description} did not answer within ${this.#storeTimeoutMs / 1000} s (FITNESS_STORE_TIMEOUT_MS); the next call tries again.`,
        (signal) => this.#store.load(signal),
      );
    } catch (error) {
      if (error instanceof CredentialsMissingError) {
        if (this.#setHealth("needs_authorization", error.message)) {
          this.#logger.error("credentials_need_authorization", { store: this.#store.description, message: error.message });
        }
        throw new TokenRefreshError(error.message);
      }
      this.#setHealth("store_unavailable", `Could not read the Strava credentials: ${messageOf(error)}`);
      throw new TokenRefreshError(`Could not read the Strava credentials: ${messageOf(error)}`);
    }
  }

  /**
   * After Strava refused `snapshot`'s refresh token: the store, read again until it holds another one
   * (the process that spent it saving its tokens) or one store deadline has passed.
   */
  async #storeMovedOn(snapshot: CredentialSnapshot): Promise<CredentialSnapshot | undefined> {
    const until = performance.now() + this.#storeTimeoutMs;
    let pause = 25;
    for (;;) {
      try {
        const now = await this.#load();
        if (now.credentials.refresh_token !== snapshot.credentials.refresh_token) return now;
      } catch {
        // keep looking until the time is up
      }
      if (performance.now() + pause > until) return undefined;
      await delay(pause);
      pause = Math.min(pause * 2, 800);
    }
  }

  /** For `health()`: has someone put a new refresh token in the store since the old one died? */
  async #recheckStore(): Promise<void> {
    this.#lastHealthCheckMs = this.#now();
    try {
      const snapshot = await this.#load();
      if (snapshot.credentials.refresh_token !== this.#deadRefreshToken) {
        this.#deadRefreshToken = undefined;
        this.#setHealth("unchecked");
      }
    } catch {
      // #load recorded why
    }
  }

  #adopt(snapshot: CredentialSnapshot): string {
    const { access_token: accessToken, expires_at: expiresAt } = snapshot.credentials as Required<StoredCredentials>;
    this.#current = this.#scheduled(accessToken, expiresAt);
    this.#deadRefreshToken = undefined;
    this.#setHealth("ok");
    this.#logger.debug("token_adopted_from_store", { store: this.#store.description, expires_at: expiresAt });
    return accessToken;
  }

  #usable(stored: StoredCredentials, replacing: string | undefined): boolean {
    return (
      stored.access_token !== undefined &&
      stored.expires_at !== undefined &&
      stored.access_token !== replacing &&
      outlivesMargin(stored.expires_at, this.#now(), this.#schedule)
    );
  }

  #scheduled(accessToken: string, expiresAt: number): CurrentToken {
    return { accessToken, expiresAt, dueAtMs: refreshDueAt(expiresAt, this.#now(), this.#schedule) };
  }

  #deadError(): RefreshTokenRejectedError {
    return new RefreshTokenRejectedError(
      `The refresh token in ${this.#store.description} was refused by Strava and nothing has replaced it since: ` +
        `${authorizeAgainAdvice(this.#store)}.`,
    );
  }

  /** Tells the front end that the stored refresh token is dead (its failure must not hide the refusal). */
  async #announceDead(): Promise<void> {
    try {
      await this.#onRefreshTokenDead?.();
    } catch (error) {
      this.#logger.error("refresh_token_dead_not_handled", { store: this.#store.description, message: messageOf(error) });
    }
  }

  /** Records the credentials' state; true when it changed. */
  #setHealth(state: CredentialState, message?: string): boolean {
    if (this.#health.state === state && this.#health.message === message) return false;
    this.#health = { state, ...(message ? { message } : {}), sinceMs: this.#now() };
    return true;
  }
}

/**
 * Whether `tokens`, refreshed from `spent`, must replace `current` though the store moved on: `current`
 * still holds the refresh token the refresh spent, and ours is a new one.
 */
function succeeds(tokens: TokenSet, spent: CredentialSnapshot, current: CredentialSnapshot): boolean {
  const spentToken = spent.credentials.refresh_token;
  return tokens.refresh_token !== spentToken && current.credentials.refresh_token === spentToken;
}

function sameTokens(stored: StoredCredentials, tokens: TokenSet): boolean {
  return stored.refresh_token === tokens.refresh_token && stored.access_token === tokens.access_token;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
