/**
 * What each endpoint of the authorization server is given, out of the parts they share (oauth-parts.ts): each
 * only what it works with, so an endpoint can be read, and tested, with its own needs alone.
 */
import { createRateLimitedLog } from "../common/rate-limited-log.ts";
import { registrationLimits, RegistrationPrecheck } from "./endpoints/registration-limits.ts";
import type { RegistrationEndpointNeeds } from "./endpoints/registration-endpoint.ts";
import type { RevocationEndpointNeeds } from "./endpoints/revocation-endpoint.ts";
import { callbacksPerSource, type SignInNeeds } from "./endpoints/sign-in-needs.ts";
import { SourceCounts } from "./endpoints/source-counts.ts";
import type { TokenEndpointNeeds } from "./endpoints/token-endpoint.ts";
import { endGrantAsPrecaution, removeGrant } from "./grant-endings.ts";
import type { OAuthParts } from "./oauth-parts.ts";
import { registrationCountSlot } from "./stores/registration-store.ts";
import { eventsPerSourcePerMinute, QuarterMarks, type WebhookNeeds } from "./strava/strava-webhook.ts";
import { lookupStravaSubscription, WebhookSubscription } from "./strava/webhook-subscription.ts";
import { SignedMessages } from "./tokens/signed-messages.ts";

/** The sign-in's three steps: authorize, consent, Strava's callback. */
export function signInNeedsOf(parts: OAuthParts): SignInNeeds {
  const { options, addresses, key, now } = parts;
  const { registrations, grants, athletes } = options.stores;
  return {
    addresses,
    clients: parts.clients,
    registrations,
    grants,
    athleteCredentials: parts.athleteCredentials,
    athletes,
    admission: parts.admission,
    messages: new SignedMessages({ issuer: options.issuer, key, now }),
    strava: options.strava,
    signInCallbacks: new SourceCounts(callbacksPerSource.limit, callbacksPerSource.windowMs),
    logger: options.logger,
    now,
    storeTimeoutMs: parts.storeTimeoutMs,
  };
}

export function tokenNeedsOf(parts: OAuthParts): TokenEndpointNeeds {
  const { options } = parts;
  return {
    addresses: parts.addresses,
    clients: parts.clients,
    grants: options.stores.grants,
    registrations: options.stores.registrations,
    accessTokens: parts.accessTokens,
    refreshTokens: parts.refreshTokens,
    stillAdmits: parts.stillAdmits,
    endGrantAsPrecaution: (grantId, why) => endGrantAsPrecaution(grantId, why, parts.ofTheStores),
    logger: options.logger,
    now: parts.now,
    storeTimeoutMs: parts.storeTimeoutMs,
  };
}

export function registrationNeedsOf(parts: OAuthParts): RegistrationEndpointNeeds {
  const { logger } = parts.options;
  return {
    registrations: parts.options.stores.registrations,
    countSlotOf: (source) => registrationCountSlot(parts.key, source, registrationLimits.countSlots),
    precheck: new RegistrationPrecheck(registrationLimits.perSourcePerHour),
    registered: createRateLimitedLog({ logger, event: "client_registered" }),
    refused: createRateLimitedLog({ logger, event: "registration_refused", firstOfEachReason: true }),
    now: parts.now,
    storeTimeoutMs: parts.storeTimeoutMs,
  };
}

export function revocationNeedsOf(parts: OAuthParts): RevocationEndpointNeeds {
  const { grants } = parts.options.stores;
  const { storeTimeoutMs } = parts;
  return {
    clients: parts.clients,
    grants,
    accessTokens: parts.accessTokens,
    refreshTokens: parts.refreshTokens,
    removeGrant: (grantId) =>
      removeGrant(grantId, { grants, storeTimeoutMs, disconnect: (athleteId, why) => parts.disconnect(athleteId, why, true) }),
    logger: parts.options.logger,
    storeTimeoutMs,
  };
}

/** Strava's webhook, posting to `webhookPath` (the secret path made from the signing key). */
export function webhookNeedsOf(parts: OAuthParts, webhookPath: string): WebhookNeeds {
  const { options, now } = parts;
  const { logger, settings } = options;
  return {
    verifyToken: settings.webhookVerifyToken,
    subscription: new WebhookSubscription({
      configured: settings.webhookSubscriptionId,
      lookup: lookupStravaSubscription({
        http: options.strava.http,
        apiBase: options.upstream.apiBase,
        clientId: options.strava.clientId,
        clientSecret: options.strava.clientSecret,
        callbackUrl: `${options.issuer}${webhookPath}`,
        timeoutMs: 1_500,
      }),
      now,
    }),
    depsFor: (athleteId) => parts.sessions.depsFor(athleteId),
    log: createRateLimitedLog({ logger, event: "strava_webhook", level: "warn", firstOfEachReason: true }),
    perSource: new SourceCounts(eventsPerSourcePerMinute, 60_000),
    checked: new QuarterMarks(),
    athletes: options.stores.athletes,
    usage: options.stores.usage,
    athleteCredentials: parts.athleteCredentials,
    strava: options.strava,
    // The athlete revoked this application on Strava: nothing to revoke there.
    disconnect: (athleteId, why) => parts.disconnect(athleteId, why, false),
    logger,
    now,
    storeTimeoutMs: parts.storeTimeoutMs,
  };
}
