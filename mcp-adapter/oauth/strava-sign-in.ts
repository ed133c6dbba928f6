/**
 * The Strava half of a sign-in: the athlete is sent to Strava's authorize page with this server's
 * callback and the scopes `npm run authorize` asks for, and on the way back the granted scopes are
 * checked (an athlete can untick boxes) and the code exchanged for the athlete's tokens and identity.
 * An athlete this deployment does not serve gets the grant withdrawn again at once (POST /oauth/revoke).
 * Nothing here quotes a code or token in an error.
 */
import type { TokenSet } from "../../tools/credentials.ts";
import { parseTokenResponse, revokeGrant, revokeUrlBeside } from "../../tools/strava-oauth.ts";
import { describeFaultErrors, networkCause, parseFault } from "../../tools/upstream-errors.ts";
import { requiredScopes } from "../../scripts/authorize/authorize-options.ts";

export interface StravaApplication {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string | undefined;
  timeoutMs: number;
  fetch: typeof fetch;
}

export interface StravaSignIn {
  tokens: TokenSet;
  athleteId: string;
  athleteName: string;
}

export class StravaSignInError extends Error {
  override readonly name = "StravaSignInError";
}

export function stravaAuthorizeUrl(app: StravaApplication, callbackUrl: string, state: string): string {
  const url = new URL(app.authorizeUrl);
  url.searchParams.set("client_id", app.clientId);
  url.searchParams.set("redirect_uri", callbackUrl);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("approval_prompt", "auto");
  url.searchParams.set("scope", requiredScopes.join(","));
  url.searchParams.set("state", state);
  return url.toString();
}

/** The required Strava scopes the callback's `scope` lacks (empty when all were granted). */
export function missingStravaScopes(granted: string | null): string[] {
  const list = (granted ?? "").split(/[,\s]+/).filter((scope) => scope !== "");
  return requiredScopes.filter((scope) => !list.includes(scope));
}

export async function exchangeStravaCode(app: StravaApplication, code: string, callbackUrl: string): Promise<StravaSignIn> {
  let response: Response;
  let text: string;
  try {
    response = await app.fetch(app.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ client_id: app.clientId, client_secret: app.clientSecret, code, grant_type: "authorization_code", redirect_uri: callbackUrl }),
      signal: AbortSignal.timeout(app.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    throw new StravaSignInError(`Strava's token endpoint could not be reached (${networkCause(error)}). Try signing in again in a moment.`);
  }
  if (!response.ok) {
    const fault = parseFault(text);
    const errors = describeFaultErrors(fault);
    throw new StravaSignInError(
      `Strava refused to finish the sign-in: ${response.status} ${fault?.message ?? ""}${errors ? ` (${errors})` : ""}. The sign-in may have expired or been used already; start again from your app.`,
    );
  }
  const tokens = parseTokenResponse(text, Date.now());
  const athlete = (JSON.parse(text) as { athlete?: Record<string, unknown> }).athlete;
  const id = athlete?.["id"];
  if (typeof id !== "number" && typeof id !== "string") {
    throw new StravaSignInError("Strava's answer did not say which athlete signed in; start again from your app.");
  }
  const name = [athlete?.["firstname"], athlete?.["lastname"]].filter((part) => typeof part === "string" && part !== "").join(" ");
  return { tokens, athleteId: String(id), athleteName: name || `athlete ${id}` };
}

/** Ends the athlete's grant to the application (an athlete not admitted, or one who disconnected). */
export function revokeStravaGrant(app: StravaApplication, refreshToken: string): Promise<void> {
  return revokeGrant({
    revokeUrl: app.revokeUrl ?? revokeUrlBeside(app.tokenUrl),
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    token: refreshToken,
    timeoutMs: app.timeoutMs,
    fetch: app.fetch,
  });
}
