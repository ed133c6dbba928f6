/**
 * Strava's OAuth endpoints as the core uses them: the refresh grant at `POST /oauth/token`, and
 * `POST /oauth/revoke` (HTTP Basic client credentials plus `token`), which ends an athlete's grant.
 * Each failure is a `TokenRefreshError` (or a subclass the token manager acts on) whose message says
 * what to do; no body is ever quoted, because token endpoint answers may hold tokens.
 */
import type { TokenSet } from "./credentials.ts";
import {
  applicationInactiveAdvice,
  ApplicationInactiveError,
  describeFaultErrors,
  isApplicationInactive,
  networkCause,
  parseFault,
  RefreshTokenRejectedError,
  TokenRefreshError,
} from "./upstream-errors.ts";

export interface TokenRequest {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  /** Where the refresh token came from, for messages ("token file /x/tokens.json"). */
  storeDescription: string;
  timeoutMs: number;
  fetch: typeof fetch;
  nowMs: number;
}

/** Exchanges a refresh token for new tokens. Throws `RefreshTokenRejectedError`, `ApplicationInactiveError` or `TokenRefreshError`. */
export async function requestTokens(request: TokenRequest): Promise<TokenSet> {
  const body = new URLSearchParams({
    client_id: request.clientId,
    client_secret: request.clientSecret,
    grant_type: "refresh_token",
    refresh_token: request.refreshToken,
  });
  let response: Response;
  let text: string;
  const timeout = AbortSignal.timeout(request.timeoutMs);
  try {
    response = await request.fetch(request.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body,
      signal: timeout,
    });
    text = await response.text();
  } catch (error) {
    if (timeout.aborted) {
      throw new TokenRefreshError(
        `The Strava token endpoint (${request.tokenUrl}) did not answer within ${request.timeoutMs / 1000} s; try again shortly.`,
      );
    }
    throw new TokenRefreshError(`Could not reach the Strava token endpoint (${request.tokenUrl}): ${networkCause(error)}.`);
  }
  if (!response.ok) {
    const fault = parseFault(text);
    const errors = describeFaultErrors(fault);
    const detail = `${fault?.message ?? "no Fault body"}${errors ? ` (${errors})` : ""}`;
    if (fault?.errors?.some((error) => error.resource === "RefreshToken")) {
      throw new RefreshTokenRejectedError(
        `Strava refused to refresh the access token with the refresh token from ${request.storeDescription}: ${response.status} ${detail}. ` +
          "The refresh token was revoked, already rotated, or belongs to another application; authorize again (npm run authorize).",
      );
    }
    if (isApplicationInactive(response.status, fault)) {
      throw new ApplicationInactiveError(`The Strava token endpoint answered ${response.status} ${detail}. ${applicationInactiveAdvice}`);
    }
    if (response.status === 401 || fault?.errors?.some((error) => error.field === "client_secret" || error.field === "client_id")) {
      throw new TokenRefreshError(
        `Strava rejected the application credentials in ${request.storeDescription}: ${response.status} ${detail}. Check client_id and client_secret.`,
      );
    }
    throw new TokenRefreshError(`The Strava token endpoint answered ${response.status}: ${detail}. Try again shortly.`);
  }
  return parseTokenResponse(text, request.nowMs);
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

/** `https://www.strava.com/oauth/token` -> `https://www.strava.com/oauth/revoke` (same for a sandbox). */
export function revokeUrlBeside(tokenUrl: string): string {
  const url = new URL(tokenUrl);
  url.pathname = url.pathname.replace(/\/token\/?$/, "/revoke");
  return url.toString();
}

export interface RevokeRequest {
  revokeUrl: string;
  clientId: string;
  clientSecret: string;
  /** The refresh token (revoking it ends the grant and its access tokens). */
  token: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/**
 * Ends the athlete's grant to this application. Strava answers 200 for a token it no longer knows too
 * (as RFC 7009 asks), so a grant revoked before is not an error.
 */
export async function revokeGrant(request: RevokeRequest): Promise<void> {
  const doFetch = request.fetch ?? globalThis.fetch;
  let response: Response;
  let text: string;
  try {
    response = await doFetch(request.revokeUrl, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(request.clientId)}:${encodeURIComponent(request.clientSecret)}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: new URLSearchParams({ token: request.token, token_type_hint: "refresh_token" }),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    throw new TokenRefreshError(`Could not reach Strava's revocation endpoint (${request.revokeUrl}): ${networkCause(error)}. Nothing was changed; run it again.`);
  }
  if (response.ok) return;
  const fault = parseFault(text);
  const errors = describeFaultErrors(fault);
  const detail = `${response.status} ${fault?.message ?? "no Fault body"}${errors ? ` (${errors})` : ""}`;
  if (isApplicationInactive(response.status, fault)) throw new ApplicationInactiveError(`Strava's revocation endpoint answered ${detail}. ${applicationInactiveAdvice}`);
  if (response.status === 401 || fault?.errors?.some((error) => error.field === "client_secret" || error.field === "client_id")) {
    throw new TokenRefreshError(`Strava's revocation endpoint refused the application credentials: ${detail}. Check client_id and client_secret.`);
  }
  throw new TokenRefreshError(`Strava's revocation endpoint answered ${detail}. Nothing was changed in the store; run it again.`);
}
