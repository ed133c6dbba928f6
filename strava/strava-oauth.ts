/**
 * Strava's OAuth endpoints as the core uses them: the refresh grant and the code exchange at
 * `POST /oauth/token`, and `POST /oauth/revoke` (HTTP Basic client credentials plus `token`), which ends an
 * athlete's grant.
 * Each failure is a `TokenRefreshError` (or a subclass the token manager acts on) whose message says
 * what to do; no body is ever quoted, because token endpoint answers may hold tokens.
 */
import type { TokenSet } from "./token-set.ts";
import { HttpExchangeError, type HttpAnswer, type SendHttp } from "../common/upstream/http-exchange.ts";
import {
  applicationInactiveAdvice,
  ApplicationInactiveError,
  describeFaultErrors,
  isApplicationInactive,
  type Fault,
  parseFault,
  RefreshTokenRejectedError,
  TokenRefreshError,
} from "./strava-errors.ts";

/** Everything the 11 tools need: private activities, writing activities, the full profile. */
export const requiredScopes = ["read", "activity:read_all", "activity:write", "profile:read_all"] as const;

/**
 * Strava's authorize page for this application, asking for `requiredScopes` (the authorize command and
 * the OAuth mode's sign-in send the athlete there).
 */
export function stravaAuthorizeUrl(application: { authorizeUrl: string; clientId: string }, redirectUri: string, state: string): string {
  const url = new URL(application.authorizeUrl);
  url.searchParams.set("client_id", application.clientId);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("approval_prompt", "auto");
  url.searchParams.set("scope", requiredScopes.join(","));
  url.searchParams.set("state", state);
  return url.toString();
}

/** The granted scopes (the callback's `scope`, comma or space separated) and the required ones they lack. */
export function grantedScopes(scope: string | null): { granted: string[]; missing: string[] } {
  const granted = (scope ?? "").split(/[,\s]+/).filter((name) => name !== "");
  return { granted, missing: requiredScopes.filter((name) => !granted.includes(name)) };
}

export interface TokenRequest {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  /** Where the refresh token came from, for messages ("token file /x/tokens.json"). */
  storeDescription: string;
  /** The command that authorizes again into that store, for messages; `npm run authorize` when not given. */
  authorizeCommand?: string | undefined;
  /** What to do instead, in words, where no command applies (OAuth mode's "sign in again"); wins over `authorizeCommand`. */
  authorizeAgain?: string | undefined;
  timeoutMs: number;
  http: SendHttp;
  nowMs: number;
}

/** Exchanges a refresh token for new tokens. Throws `RefreshTokenRejectedError`, `ApplicationInactiveError` or `TokenRefreshError`. */
export async function requestTokens(request: TokenRequest): Promise<TokenSet> {
  const fields = {
    client_id: request.clientId,
    client_secret: request.clientSecret,
    grant_type: "refresh_token",
    refresh_token: request.refreshToken,
  };
  const response = await postForm(request.http, request.tokenUrl, fields, request.timeoutMs, {}, (error) =>
    error.kind === "timeout"
      ? `The Strava token endpoint (${request.tokenUrl}) did not answer within ${request.timeoutMs / 1000} s; try again shortly.`
      : `Could not reach the Strava token endpoint (${request.tokenUrl}): ${error.detail}.`,
  );
  const refusal = refusalOf(response);
  if (refusal) {
    const { fault, detail } = refusal;
    if (fault?.errors?.some((error) => error.resource === "RefreshToken")) {
      throw new RefreshTokenRejectedError(
        `Strava refused to refresh the access token with the refresh token from ${request.storeDescription}: ${detail}. ` +
          `The refresh token was revoked, already rotated, or belongs to another application; ${request.authorizeAgain ?? `authorize again (${request.authorizeCommand ?? "npm run authorize"})`}.`,
      );
    }
    if (isApplicationInactive(response.status, fault)) {
      throw new ApplicationInactiveError(`The Strava token endpoint answered ${detail}. ${applicationInactiveAdvice}`);
    }
    if (refusal.applicationRejected) {
      throw new TokenRefreshError(
        `Strava rejected the application credentials in ${request.storeDescription}: ${detail}. Check client_id and client_secret.`,
      );
    }
    throw new TokenRefreshError(`The Strava token endpoint answered ${detail}. Try again shortly.`);
  }
  return parseTokenResponse(response.bodyText, request.nowMs);
}

/**
 * POSTs a form to one of Strava's OAuth endpoints. When no answer comes (network, timeout), throws a
 * `TokenRefreshError` with `unanswered`'s message.
 */
async function postForm(
  http: SendHttp,
  url: string,
  fields: Record<string, string>,
  timeoutMs: number,
  headers: Record<string, string>,
  unanswered: (error: HttpExchangeError) => string,
): Promise<HttpAnswer> {
  try {
    return await http({
      method: "POST",
      url,
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", ...headers },
      body: new URLSearchParams(fields).toString(),
      timeoutMs,
    });
  } catch (error) {
    if (!(error instanceof HttpExchangeError)) throw error;
    throw new TokenRefreshError(unanswered(error));
  }
}

/**
 * For an answer other than 2xx: its Fault, "400 Bad Request (RefreshToken.refresh_token invalid)" for
 * messages, and whether the application's own credentials were refused. Undefined for a success.
 */
function refusalOf(response: HttpAnswer): { fault: Fault | undefined; detail: string; applicationRejected: boolean } | undefined {
  if (response.status >= 200 && response.status < 300) return undefined;
  const fault = parseFault(response.bodyText);
  const errors = describeFaultErrors(fault);
  return {
    fault,
    detail: `${response.status} ${fault?.message ?? "no Fault body"}${errors ? ` (${errors})` : ""}`,
    applicationRejected:
      response.status === 401 || (fault?.errors?.some((error) => error.field === "client_secret" || error.field === "client_id") ?? false),
  };
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

export interface CodeExchange {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** The `code` Strava's redirect carried. */
  code: string;
  /** The redirect URI the authorize request named. */
  redirectUri: string;
  timeoutMs: number;
  http: SendHttp;
  /** What the person should do when the code is refused ("run the command again", "start again from your app"). */
  retryAdvice: string;
}

/** What a code exchange gives: the tokens and, for messages, who the athlete is (never a token). */
export interface ExchangedGrant {
  tokens: TokenSet;
  athlete: { id?: number; name?: string };
}

/** Exchanges an authorization code for the athlete's first tokens. Throws `TokenRefreshError`. */
export async function exchangeAuthorizationCode(request: CodeExchange): Promise<ExchangedGrant> {
  const fields = {
    client_id: request.clientId,
    client_secret: request.clientSecret,
    code: request.code,
    grant_type: "authorization_code",
    redirect_uri: request.redirectUri,
  };
  const response = await postForm(
    request.http,
    request.tokenUrl,
    fields,
    request.timeoutMs,
    {},
    (error) => `Could not reach the token endpoint ${request.tokenUrl}: ${error.detail}.`,
  );
  const refusal = refusalOf(response);
  if (refusal) {
    if (isApplicationInactive(response.status, refusal.fault)) {
      throw new ApplicationInactiveError(`The Strava token endpoint answered ${refusal.detail}. ${applicationInactiveAdvice}`);
    }
    const hint = refusal.applicationRejected
      ? "Check STRAVA_CLIENT_ID and STRAVA_CLIENT_SECRET against https://www.strava.com/settings/api."
      : `The code may have expired or been used already; ${request.retryAdvice}.`;
    throw new TokenRefreshError(`The token endpoint refused the code: ${refusal.detail}. ${hint}`);
  }
  return { tokens: parseTokenResponse(response.bodyText, Date.now()), athlete: athleteOf(response.bodyText) };
}

/** The athlete in a code exchange's answer, as an id and a name. */
function athleteOf(text: string): { id?: number; name?: string } {
  const athlete = (JSON.parse(text) as { athlete?: Record<string, unknown> }).athlete;
  if (typeof athlete !== "object" || athlete === null) return {};
  const summary: { id?: number; name?: string } = {};
  if (typeof athlete["id"] === "number") summary.id = athlete["id"];
  const name = [athlete["firstname"], athlete["lastname"]].filter((part) => typeof part === "string" && part !== "").join(" ");
  if (name) summary.name = name;
  return summary;
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
  http: SendHttp;
}

/**
 * Ends the athlete's grant to this application. Strava answers 200 for a token it no longer knows too
 * (as RFC 7009 asks), so a grant revoked before is not an error.
 */
export async function revokeGrant(request: RevokeRequest): Promise<void> {
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(request.clientId)}:${encodeURIComponent(request.clientSecret)}`).toString("base64")}`;
  const fields = { token: request.token, token_type_hint: "refresh_token" };
  const response = await postForm(
    request.http,
    request.revokeUrl,
    fields,
    request.timeoutMs,
    { authorization: basic },
    (error) => `Could not reach Strava's revocation endpoint (${request.revokeUrl}): ${error.detail}. Nothing was changed; run it again.`,
  );
  const refusal = refusalOf(response);
  if (!refusal) return;
  const { fault, detail } = refusal;
  if (isApplicationInactive(response.status, fault))
    throw new ApplicationInactiveError(`Strava's revocation endpoint answered ${detail}. ${applicationInactiveAdvice}`);
  if (refusal.applicationRejected) {
    throw new TokenRefreshError(
      `Strava's revocation endpoint refused the application credentials: ${detail}. Check client_id and client_secret.`,
    );
  }
  throw new TokenRefreshError(`Strava's revocation endpoint answered ${detail}. Nothing was changed in the store; run it again.`);
}
