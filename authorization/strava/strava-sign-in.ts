/**
 * The Strava half of a sign-in: the athlete is sent to Strava's authorize page with this server's
 * callback (the URL `npm run authorize` builds, with its scopes), and on the way back the granted scopes are
 * checked (an athlete can untick boxes) and the code exchanged for the athlete's tokens and identity.
 * An athlete this deployment does not serve gets the grant withdrawn again at once (POST /oauth/revoke).
 * Nothing here quotes a code or token in an error.
 */
import type { TokenSet } from "../../credentials/credential-store.ts";
import { NamedError } from "../../common/named-error.ts";
import type { SendHttp } from "../../common/upstream/http-exchange.ts";
import { exchangeAuthorizationCode, type ExchangedGrant, revokeGrant, revokeUrlBeside } from "../../strava/strava-oauth.ts";
import { TokenRefreshError } from "../../strava/strava-errors.ts";

export interface StravaApplication {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string | undefined;
  timeoutMs: number;
  /** The network seam the code exchange and revocation go through (one per process). */
  http: SendHttp;
}

export interface StravaSignIn {
  tokens: TokenSet;
  athleteId: string;
  athleteName: string;
}

export class StravaSignInError extends NamedError {}

export async function exchangeStravaCode(app: StravaApplication, code: string, callbackUrl: string): Promise<StravaSignIn> {
  let grant: ExchangedGrant;
  try {
    grant = await exchangeAuthorizationCode({
      tokenUrl: app.tokenUrl,
      clientId: app.clientId,
      clientSecret: app.clientSecret,
      code,
      redirectUri: callbackUrl,
      timeoutMs: app.timeoutMs,
      http: app.http,
      retryAdvice: "start again from your app",
    });
  } catch (error) {
    if (!(error instanceof TokenRefreshError)) throw error;
    throw new StravaSignInError(error.message);
  }
  const { id, name } = grant.athlete;
  if (id === undefined) throw new StravaSignInError("Strava's answer did not say which athlete signed in; start again from your app.");
  return { tokens: grant.tokens, athleteId: String(id), athleteName: name ?? `athlete ${id}` };
}

/** Ends the athlete's grant to the application (an athlete not admitted, or one who disconnected). */
export function revokeStravaGrant(app: StravaApplication, refreshToken: string): Promise<void> {
  return revokeGrant({
    revokeUrl: app.revokeUrl ?? revokeUrlBeside(app.tokenUrl),
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    token: refreshToken,
    timeoutMs: app.timeoutMs,
    http: app.http,
  });
}
