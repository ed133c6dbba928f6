/**
 * What the authorization server's endpoints share, made once when OAuth mode starts (oauth-app.ts): the
 * signing key and the tokens it signs, the server's addresses, admission (who is served), each athlete's
 * sessions (their token manager and fair share), the directory of clients (registered, or by their metadata
 * documents), and how an athlete is disconnected. Each endpoint is then given only what it works with
 * (endpoint-needs.ts).
 */
import type { Logger } from "../common/logger.ts";
import { createRateLimitedLog, type RateLimitedLog } from "../common/rate-limited-log.ts";
import type { CredentialStore } from "../credentials/credential-store.ts";
import type { AthleteCredentialStore } from "../credentials/store-choice.ts";
import { defaultStoreTimeoutMs } from "../credentials/store-deadline.ts";
import type { UpstreamSettings } from "../strava/strava-settings.ts";
import { serverAddresses, type ServerAddresses } from "./addresses.ts";
import { Admission } from "./admission.ts";
import { AthleteSessions } from "./athlete-sessions.ts";
import { ClientMetadataFetcher } from "./clients/client-metadata-document.ts";
import { ClientDirectory } from "./clients/clients.ts";
import { disconnectAthlete, type DisconnectNeeds } from "./disconnect-athlete.ts";
import type { OAuthSettings } from "./oauth-settings.ts";
import { endGrantsAfterRefusal } from "./sign-in-again.ts";
import { storeSignal, type AuthorizationStores } from "./stores/authorization-stores.ts";
import type { StravaApplication } from "./strava/strava-sign-in.ts";
import { AccessTokens } from "./tokens/access-tokens.ts";
import { RefreshTokens } from "./tokens/refresh-tokens.ts";

export interface OAuthAppOptions {
  /** PUBLIC_URL's origin. */
  issuer: string;
  settings: OAuthSettings;
  stores: AuthorizationStores;
  strava: StravaApplication;
  upstream: UpstreamSettings;
  /** Deadline of each store call (FITNESS_STORE_TIMEOUT_MS). */
  storeTimeoutMs?: number;
  logger: Logger;
  serverName: string;
  now?: () => number;
  /** Wraps each athlete's credential store (the rescue copy of new tokens on a long-running server). */
  rescueCredentials?: ((store: CredentialStore) => CredentialStore) | undefined;
}

export interface OAuthParts {
  options: OAuthAppOptions;
  now: () => number;
  storeTimeoutMs: number;
  addresses: ServerAddresses;
  /** The signing key (of access tokens, signed messages, the webhook's path and the registration counts' slots). */
  key: Uint8Array;
  accessTokens: AccessTokens;
  refreshTokens: RefreshTokens;
  /** What grant endings and admission work with. */
  ofTheStores: {
    grants: AuthorizationStores["grants"];
    athletes: AuthorizationStores["athletes"];
    logger: Logger;
    now: () => number;
    storeTimeoutMs: number;
  };
  admission: Admission;
  sessions: AthleteSessions;
  athleteCredentials: (athleteId: string) => AthleteCredentialStore;
  stillAdmits: (athleteId: string) => Promise<boolean>;
  /** Ends the athlete's grants, revokes at Strava when asked, and deletes what is stored for them. */
  disconnect: (athleteId: string, why: string, revokeAtStrava: boolean) => Promise<void>;
  clients: ClientDirectory;
  /** Refused client metadata documents, a line per interval. */
  metadataFailures: RateLimitedLog;
}

export async function createOAuthParts(options: OAuthAppOptions): Promise<OAuthParts> {
  const { issuer, stores, logger } = options;
  const { grants, athletes } = stores;
  const now = options.now ?? Date.now;
  const storeTimeoutMs = options.storeTimeoutMs ?? defaultStoreTimeoutMs;
  const key = await stores.signingKey.signingKey(storeSignal(storeTimeoutMs));
  const athleteCredentials = (athleteId: string): AthleteCredentialStore => stores.athleteCredentials(athleteId);
  const ofTheStores = { grants, athletes, logger, now, storeTimeoutMs };
  const admission = new Admission(options.settings.admittedAthletes, ofTheStores);
  const sessions = athleteSessions(options, { admission, athleteCredentials, now, storeTimeoutMs });
  const disconnection: DisconnectNeeds = {
    stores,
    athleteCredentials,
    strava: options.strava,
    logger,
    onAthleteDeleted: (athleteId) => sessions.forget(athleteId),
    storeTimeoutMs,
  };
  const metadataFailures = createRateLimitedLog({ logger, event: "client_metadata_refused" });
  const addresses = serverAddresses(issuer);
  return {
    options,
    now,
    storeTimeoutMs,
    addresses,
    key,
    accessTokens: new AccessTokens({ ...addresses, key, now }),
    refreshTokens: new RefreshTokens(key),
    ofTheStores,
    admission,
    sessions,
    athleteCredentials,
    stillAdmits: (athleteId) => admission.stillAdmits(athleteId),
    disconnect: (athleteId, why, revokeAtStrava) => disconnectAthlete(athleteId, why, disconnection, { revokeAtStrava }),
    clients: clientDirectory(options, now, metadataFailures),
    metadataFailures,
  };
}

/** Each athlete's tool dependencies: their token manager on their own store, and their fair share of Strava's limits. */
function athleteSessions(
  options: OAuthAppOptions,
  made: {
    admission: Admission;
    athleteCredentials: (athleteId: string) => AthleteCredentialStore;
    now: () => number;
    storeTimeoutMs: number;
  },
): AthleteSessions {
  const { logger, settings } = options;
  const { grants, usage } = options.stores;
  const { storeTimeoutMs } = made;
  return new AthleteSessions({
    athleteCredentials: made.athleteCredentials,
    usage,
    settings: options.upstream,
    storeTimeoutMs,
    logger,
    http: options.strava.http,
    applicationLimits: settings.applicationLimits,
    athletes: made.admission.size,
    now: made.now,
    rescue: options.rescueCredentials,
    onRefreshTokenDead: (athleteId) => endGrantsAfterRefusal(athleteId, { grants, storeTimeoutMs, logger }),
  });
}

/** The clients: registered here, or identified by a metadata document this server fetches. */
function clientDirectory(options: OAuthAppOptions, now: () => number, metadataFailures: RateLimitedLog): ClientDirectory {
  return new ClientDirectory(
    options.stores.registrations,
    new ClientMetadataFetcher({
      // Only for a server on loopback alone: one reached from elsewhere would fetch this machine's own services for anyone.
      allowLoopback: !options.settings.beyondLoopback,
      now,
      // Anybody can make this server fetch a document: its failures are logged a line per interval.
      failures: metadataFailures,
    }),
  );
}
