/**
 * What every endpoint of the authorization server shares: its identity (issuer and the one resource it
 * issues tokens for), the store, the client directory, the signers, the Strava application, who is
 * admitted, and the clock. Built once per process (oauth-app.ts).
 */
import type { Logger } from "../common/logger.ts";
import type { RateLimitedLog } from "../common/rate-limited-log.ts";
import type { AccessTokens } from "./tokens/access-tokens.ts";
import type { Admission } from "./admission.ts";
import type { ClientDirectory } from "./clients/clients.ts";
import type { OAuthStore } from "./stores/oauth-store.ts";
import type { RefreshTokens } from "./tokens/refresh-tokens.ts";
import type { RegistrationPrecheck } from "./endpoints/registration-limits.ts";
import type { SignedMessages } from "./tokens/signed-messages.ts";
import type { SourceCounts } from "./endpoints/source-counts.ts";
import type { StravaApplication } from "./strava/strava-sign-in.ts";

export interface OAuthContext {
  /** PUBLIC_URL's origin: the issuer, and where every endpoint lives. */
  issuer: string;
  /** `${issuer}/mcp`: the only resource tokens are issued for. */
  resource: string;
  store: OAuthStore;
  clients: ClientDirectory;
  accessTokens: AccessTokens;
  refreshTokens: RefreshTokens;
  messages: SignedMessages;
  strava: StravaApplication;
  admission: Admission;
  /** Called once everything stored for an athlete is gone (the process drops what it holds for them). */
  onAthleteDeleted(athleteId: string): void;
  logger: Logger;
  /** Registrations, and refused ones: logged at a bounded rate (anonymous callers choose how many). */
  registeredClients: RateLimitedLog;
  refusedRegistrations: RateLimitedLog;
  /** This process's count of each source's registrations (refuses before the store is asked). */
  registrationPrecheck: RegistrationPrecheck;
  /** This process's count of each source's Strava sign-in callbacks (each may cost a token request at Strava). */
  signInCallbacks: SourceCounts;
  now: () => number;
  /** Deadline of each store call. */
  storeTimeoutMs: number;
}

export const paths = {
  authorize: "/authorize",
  token: "/token",
  register: "/register",
  revoke: "/revoke",
  stravaCallback: "/oauth/strava/callback",
  /** With the secret after it (strava/webhook-path.ts); this path itself is 404. */
  stravaWebhook: "/strava/webhook",
} as const;

/** The signal of a store call: the store deadline. */
export function storeSignal(context: Pick<OAuthContext, "storeTimeoutMs">): AbortSignal {
  return AbortSignal.timeout(context.storeTimeoutMs);
}
