/**
 * Owns the athlete's OAuth tokens: hands out a valid access token, refreshes it shortly before it
 * expires, and persists every new token set before using it.
 *
 * - Refresh when there is no token or it is within `refreshMarginSeconds` (5 min) of `expires_at`.
 * - Exactly one refresh runs at a time; concurrent callers share its promise, which is cleared on
 *   success and on failure (so the next call tries again).
 * - Before asking the token endpoint, re-read the store: another instance sharing the same secret may
 *   have refreshed already, and Strava's rotation makes the old refresh token useless.
 * - Save, then use. If the save fails, the new tokens are kept in memory (Strava may already have
 *   retired the old refresh token) and the save is retried first thing on the next call.
 * - Tokens never go to `process.env` or to logs.
 */
import type { CredentialStore, StoredCredentials, TokenSet } from "./credentials.ts";
import type { Logger } from "./logger.ts";
import { describeFaultErrors, parseFault, TokenRefreshError, CallCancelledError } from "./upstream-errors.ts";

export interface TokenManagerOptions {
  store: CredentialStore;
  tokenUrl: string;
  timeoutMs: number;
  logger: Logger;
  fetch?: typeof fetch;
  /** Clock in epoch milliseconds (tests move it). */
  now?: () => number;
  refreshMarginSeconds?: number;
}

interface CurrentToken {
  accessToken: string;
  expiresAt: number;
}

export class TokenManager {
  readonly #store: CredentialStore;
  readonly #tokenUrl: string;
  readonly #timeoutMs: number;
  readonly #logger: Logger;
  readonly #fetch: typeof fetch;
  readonly #now: () => number;
  readonly #marginSeconds: number;
  #current: CurrentToken | undefined;
  #inFlight: Promise<string> | undefined;
  #unsaved: TokenSet | undefined;

  constructor(options: TokenManagerOptions) {
    this.#store = options.store;
    this.#tokenUrl = options.tokenUrl;
    this.#timeoutMs = options.timeoutMs;
    this.#logger = options.logger;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#now = options.now ?? Date.now;
    this.#marginSeconds = options.refreshMarginSeconds ?? 300;
  }

  /** A token that is valid for at least the refresh margin, refreshing first when needed. */
  async accessToken(signal?: AbortSignal): Promise<string> {
    const current = this.#current;
    if (current && !this.#isDue(current.expiresAt)) return current.accessToken;
    return this.#sharedRefresh(undefined, signal);
  }

  /**
   * Called after the upstream answered 401 to `rejectedToken`. If another caller already replaced that
   * token, its replacement is returned; otherwise one (shared) refresh runs.
   */
  async renewAfterRejection(rejectedToken: string, signal?: AbortSignal): Promise<string> {
    const current = this.#current;
    if (current && current.accessToken !== rejectedToken && !this.#isDue(current.expiresAt)) {
      return current.accessToken;
    }
    if (current?.accessToken === rejectedToken) this.#current = undefined;
    return this.#sharedRefresh(rejectedToken, signal);
  }

  #isDue(expiresAt: number): boolean {
    return expiresAt * 1000 - this.#now() <= this.#marginSeconds * 1000;
  }

  #sharedRefresh(rejectedToken: string | undefined, signal: AbortSignal | undefined): Promise<string> {
    // The refresh itself ignores any one caller's signal: other callers are waiting on it too.
    this.#inFlight ??= this.#refresh(rejectedToken).finally(() => {
      this.#inFlight = undefined;
    });
    return abortable(this.#inFlight, signal);
  }

  async #refresh(rejectedToken: string | undefined): Promise<string> {
    if (this.#unsaved) {
      await this.#save(this.#unsaved);
      this.#unsaved = undefined;
    }
    let stored: StoredCredentials;
    try {
      stored = await this.#store.load();
    } catch (error) {
      throw new TokenRefreshError(`Could not read the Strava credentials: ${messageOf(error)}`);
    }
    if (
      stored.access_token !== undefined &&
      stored.expires_at !== undefined &&
      stored.access_token !== rejectedToken &&
      !this.#isDue(stored.expires_at)
    ) {
      // Someone else (another instance, or the operator) refreshed already: use theirs.
      this.#current = { accessToken: stored.access_token, expiresAt: stored.expires_at };
      this.#logger.debug("token_adopted_from_store", { store: this.#store.description, expires_at: stored.expires_at });
      return stored.access_token;
    }
    const tokens = await this.#requestTokens(stored);
    try {
      await this.#save(tokens);
    } catch (error) {
      this.#unsaved = tokens;
      throw error;
    }
    this.#current = { accessToken: tokens.access_token, expiresAt: tokens.expires_at };
    this.#logger.info("token_refreshed", {
      store: this.#store.description,
      expires_at: tokens.expires_at,
      refresh_token_rotated: tokens.refresh_token !== stored.refresh_token,
    });
    return tokens.access_token;
  }

  async #save(tokens: TokenSet): Promise<void> {
    try {
      await this.#store.save(tokens);
    } catch (error) {
      this.#logger.error("token_save_failed", { store: this.#store.description, error: messageOf(error) });
      throw new TokenRefreshError(
        `Strava issued new tokens but they could not be saved to ${this.#store.description}: ${messageOf(error)}. ` +
          "They are kept in memory and saving is retried on the next call; fix the store before this process stops, " +
          "or the athlete will have to authorize again.",
      );
    }
  }

  async #requestTokens(stored: StoredCredentials): Promise<TokenSet> {
    const body = new URLSearchParams({
      client_id: stored.client_id,
      client_secret: stored.client_secret,
      grant_type: "refresh_token",
      refresh_token: stored.refresh_token,
    });
    let response: Response;
    let text: string;
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    try {
      response = await this.#fetch(this.#tokenUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body,
        signal: timeout,
      });
      text = await response.text();
    } catch (error) {
      if (timeout.aborted) {
        throw new TokenRefreshError(
          `The Strava token endpoint (${this.#tokenUrl}) did not answer within ${this.#timeoutMs / 1000} s; try again shortly.`,
        );
      }
      throw new TokenRefreshError(`Could not reach the Strava token endpoint (${this.#tokenUrl}): ${networkCause(error)}.`);
    }
    if (!response.ok) {
      const fault = parseFault(text);
      const errors = describeFaultErrors(fault);
      const detail = `${fault?.message ?? "no Fault body"}${errors ? ` (${errors})` : ""}`;
      if (fault?.errors?.some((error) => error.resource === "RefreshToken")) {
        throw new TokenRefreshError(
          `Strava refused to refresh the access token with the refresh token from ${this.#store.description}: ${response.status} ${detail}. ` +
            "The refresh token was revoked, already rotated, or belongs to another application; authorize again (npm run authorize).",
        );
      }
      if (response.status === 401 || fault?.errors?.some((error) => error.field === "client_secret" || error.field === "client_id")) {
        throw new TokenRefreshError(
          `Strava rejected the application credentials in ${this.#store.description}: ${response.status} ${detail}. Check client_id and client_secret.`,
        );
      }
      throw new TokenRefreshError(`The Strava token endpoint answered ${response.status}: ${detail}. Try again shortly.`);
    }
    return parseTokenResponse(text, this.#now());
  }
}

/** Reads a token endpoint answer. The body is never quoted in errors: it may hold tokens. */
export function parseTokenResponse(text: string, nowMs: number): TokenSet {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new TokenRefreshError("The Strava token endpoint answered with a body that is not JSON; try again shortly.");
  }
  const record = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const accessToken = record["access_token"];
  const refreshToken = record["refresh_token"];
  let expiresAt = record["expires_at"];
  if (typeof expiresAt !== "number" && typeof record["expires_in"] === "number") {
    expiresAt = Math.floor(nowMs / 1000) + record["expires_in"];
  }
  const missing = [
    typeof accessToken === "string" && accessToken !== "" ? undefined : "access_token",
    typeof refreshToken === "string" && refreshToken !== "" ? undefined : "refresh_token",
    typeof expiresAt === "number" && Number.isFinite(expiresAt) ? undefined : "expires_at",
  ].filter((field): field is string => field !== undefined);
  if (missing.length > 0) {
    throw new TokenRefreshError(
      `The Strava token endpoint answered without a usable ${missing.join(", ")}; the stored tokens are unchanged. Try again shortly.`,
    );
  }
  return { access_token: accessToken as string, refresh_token: refreshToken as string, expires_at: expiresAt as number };
}

/** Waits for `promise`, or rejects as soon as `signal` fires (the promise itself keeps running). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new CallCancelledError("The call was cancelled before it finished."));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new CallCancelledError("The call was cancelled before it finished."));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** "connection refused (ECONNREFUSED)" from undici's `fetch failed` wrapper. */
export function networkCause(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  const code = cause?.code;
  const known: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ECONNRESET: "connection reset",
    ENOTFOUND: "host not found",
    EAI_AGAIN: "DNS lookup failed",
    ETIMEDOUT: "connection timed out",
    UND_ERR_SOCKET: "connection closed unexpectedly",
    UND_ERR_CONNECT_TIMEOUT: "connection timed out",
  };
  if (code) return `${known[code] ?? cause?.message ?? "network error"} (${code})`;
  return cause?.message ?? messageOf(error);
}
