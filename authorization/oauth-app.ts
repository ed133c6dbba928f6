/**
 * OAuth mode as one web-standard piece (Request in, Response out), so the same code serves `npm start`
 * (node:http, mcp-adapter/http/http-routes.ts) and the hosted Lambda function (mcp-adapter/hosted/lambda-handler.ts).
 * Here the authorization server is put together: each endpoint is given what it works with, from the stores
 * by concern (stores/authorization-stores.ts), and nothing else.
 *
 * - `route(request, origin)`: the discovery documents, the authorization server (authorize, consent, the
 *   Strava callback, token, register, revoke) and Strava's webhook; `origin` says where the request came
 *   from (the address registrations and webhooks are counted against);
 * - `gate`: the access-token check in front of `/mcp`;
 * - `sessions`: each athlete's own tool dependencies (token manager, fair share), which the MCP server serves an
 *   authenticated request with (mcp-adapter/server/athlete-session.ts);
 * - `reconcileAdmission()`: at start, who of the stored athletes is still admitted (admission.ts);
 * - `settle()`: waits for the athletes' token refreshes in progress (shutdown).
 */
import type { Logger } from "../common/logger.ts";
import { createRateLimitedLog } from "../common/rate-limited-log.ts";
import type { CredentialStore } from "../credentials/credential-store.ts";
import { defaultStoreTimeoutMs } from "../credentials/store-deadline.ts";
import type { UpstreamSettings } from "../strava/strava-settings.ts";
import { paths, serverAddresses } from "./addresses.ts";
import { Admission, reconcileAdmission } from "./admission.ts";
import { AthleteSessions } from "./athlete-sessions.ts";
import { ClientMetadataFetcher } from "./clients/client-metadata-document.ts";
import { ClientDirectory } from "./clients/clients.ts";
import { disconnectAthlete, type DisconnectNeeds } from "./disconnect-athlete.ts";
import {
  authorizationRequest,
  callbacksPerSource,
  consentDecision,
  stravaCallback,
  type SignInNeeds,
} from "./endpoints/authorization-endpoint.ts";
import { discoveryDocuments } from "./endpoints/metadata.ts";
import { corsHeaders } from "./endpoints/oauth-answers.ts";
import { registrationRequest, type RegistrationEndpointNeeds } from "./endpoints/registration-endpoint.ts";
import { registrationLimits, RegistrationPrecheck } from "./endpoints/registration-limits.ts";
import { requestOrigin, type RequestOrigin } from "./endpoints/request-origin.ts";
import { createResourceGate, type ResourceGate } from "./endpoints/resource-server.ts";
import { revocationRequest, type RevocationEndpointNeeds } from "./endpoints/revocation-endpoint.ts";
import { SourceCounts } from "./endpoints/source-counts.ts";
import { tokenRequest, type TokenEndpointNeeds } from "./endpoints/token-endpoint.ts";
import { endGrantAsPrecaution, removeGrant } from "./grant-endings.ts";
import type { OAuthSettings } from "./oauth-settings.ts";
import { errorPage, pageAnswer } from "./pages/pages.ts";
import { endGrantsAfterRefusal } from "./sign-in-again.ts";
import { storeSignal, type AuthorizationStores } from "./stores/authorization-stores.ts";
import { registrationCountSlot } from "./stores/registration-store.ts";
import type { StravaApplication } from "./strava/strava-sign-in.ts";
import { eventsPerSourcePerMinute, QuarterMarks, stravaWebhook, type WebhookNeeds } from "./strava/strava-webhook.ts";
import { isStravaWebhookPath, loggedPath, stravaWebhookPath } from "./strava/webhook-path.ts";
import { lookupStravaSubscription, WebhookSubscription } from "./strava/webhook-subscription.ts";
import { AccessTokens } from "./tokens/access-tokens.ts";
import { RefreshTokens } from "./tokens/refresh-tokens.ts";
import { SignedMessages } from "./tokens/signed-messages.ts";

export type { RequestOrigin } from "./endpoints/request-origin.ts";

export interface OAuthApp {
  readonly issuer: string;
  readonly resource: string;
  readonly resourceMetadataUrl: string;
  /** Whether `path` is one of the routes `route` answers. */
  handles(path: string): boolean;
  /** `path` as a log line may show it (without the webhook's secret). */
  loggedPath(path: string): string;
  /**
   * Whether a page of any site may call `path`, or only pages on the accepted origins (the route table
   * checks the Origin before the app sees the request).
   */
  takesAnyOrigin(path: string): boolean;
  route(request: Request, origin?: RequestOrigin): Promise<Response>;
  /** Where a request came from: its connection's address, or the one a trusted proxy named. */
  originOf(headerValue: (name: string) => string | null | undefined, connectionAddress: string | undefined): RequestOrigin;
  gate: ResourceGate;
  sessions: AthleteSessions;
  admission: Admission;
  /** At start: the stored athletes no longer admitted lose their grants, and those past the grace period are disconnected. */
  reconcileAdmission(): Promise<void>;
  settle(): Promise<{ lost: boolean }>;
}

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

export async function createOAuthApp(options: OAuthAppOptions): Promise<OAuthApp> {
  const { issuer, stores, logger, settings } = options;
  const { registrations, grants, athletes, usage } = stores;
  const now = options.now ?? Date.now;
  const addresses = serverAddresses(issuer);
  const storeTimeoutMs = options.storeTimeoutMs ?? defaultStoreTimeoutMs;
  const key = await stores.signingKey.signingKey(storeSignal(storeTimeoutMs));
  const athleteCredentials = (athleteId: string) => stores.athleteCredentials(athleteId);
  const accessTokens = new AccessTokens({ ...addresses, key, now });
  const refreshTokens = new RefreshTokens(key);
  const ofTheStores = { grants, athletes, logger, now, storeTimeoutMs };
  const admission = new Admission(settings.admittedAthletes, ofTheStores);
  const sessions = new AthleteSessions({
    athleteCredentials,
    usage,
    settings: options.upstream,
    storeTimeoutMs,
    logger,
    http: options.strava.http,
    applicationLimits: settings.applicationLimits,
    athletes: admission.size,
    now,
    rescue: options.rescueCredentials,
    onRefreshTokenDead: (athleteId) => endGrantsAfterRefusal(athleteId, { grants, storeTimeoutMs, logger }),
  });
  const disconnection: DisconnectNeeds = {
    stores,
    athleteCredentials,
    strava: options.strava,
    logger,
    onAthleteDeleted: (athleteId) => sessions.forget(athleteId),
    storeTimeoutMs,
  };
  const disconnect = (athleteId: string, why: string, revokeAtStrava: boolean): Promise<void> =>
    disconnectAthlete(athleteId, why, disconnection, { revokeAtStrava });
  const stillAdmits = (athleteId: string): Promise<boolean> => admission.stillAdmits(athleteId);
  const metadataFailures = createRateLimitedLog({ logger, event: "client_metadata_refused" });
  const clients = new ClientDirectory(
    registrations,
    new ClientMetadataFetcher({
      // Only for a server on loopback alone: one reached from elsewhere would fetch this machine's own services for anyone.
      allowLoopback: !settings.beyondLoopback,
      now,
      // Anybody can make this server fetch a document: its failures are logged a line per interval.
      failures: metadataFailures,
    }),
  );

  const signIn: SignInNeeds = {
    addresses,
    clients,
    registrations,
    grants,
    athleteCredentials,
    athletes,
    admission,
    messages: new SignedMessages({ issuer, key, now }),
    strava: options.strava,
    signInCallbacks: new SourceCounts(callbacksPerSource.limit, callbacksPerSource.windowMs),
    logger,
    now,
    storeTimeoutMs,
  };
  const token: TokenEndpointNeeds = {
    addresses,
    clients,
    grants,
    registrations,
    accessTokens,
    refreshTokens,
    stillAdmits,
    endGrantAsPrecaution: (grantId, why) => endGrantAsPrecaution(grantId, why, ofTheStores),
    logger,
    now,
    storeTimeoutMs,
  };
  const registration: RegistrationEndpointNeeds = {
    registrations,
    countSlotOf: (source) => registrationCountSlot(key, source, registrationLimits.countSlots),
    precheck: new RegistrationPrecheck(registrationLimits.perSourcePerHour),
    registered: createRateLimitedLog({ logger, event: "client_registered" }),
    refused: createRateLimitedLog({ logger, event: "registration_refused", firstOfEachReason: true }),
    now,
    storeTimeoutMs,
  };
  const revocation: RevocationEndpointNeeds = {
    clients,
    grants,
    accessTokens,
    refreshTokens,
    removeGrant: (grantId) =>
      removeGrant(grantId, { grants, storeTimeoutMs, disconnect: (athleteId, why) => disconnect(athleteId, why, true) }),
    logger,
    storeTimeoutMs,
  };
  const webhookPath = stravaWebhookPath(key);
  const webhook: WebhookNeeds = {
    verifyToken: settings.webhookVerifyToken,
    subscription: new WebhookSubscription({
      configured: settings.webhookSubscriptionId,
      lookup: lookupStravaSubscription({
        http: options.strava.http,
        apiBase: options.upstream.apiBase,
        clientId: options.strava.clientId,
        clientSecret: options.strava.clientSecret,
        callbackUrl: `${issuer}${webhookPath}`,
        timeoutMs: 1_500,
      }),
      now,
    }),
    depsFor: (athleteId) => sessions.depsFor(athleteId),
    log: createRateLimitedLog({ logger, event: "strava_webhook", level: "warn", firstOfEachReason: true }),
    perSource: new SourceCounts(eventsPerSourcePerMinute, 60_000),
    checked: new QuarterMarks(),
    athletes,
    usage,
    athleteCredentials,
    strava: options.strava,
    // The athlete revoked this application on Strava: nothing to revoke there.
    disconnect: (athleteId, why) => disconnect(athleteId, why, false),
    logger,
    now,
    storeTimeoutMs,
  };
  const discovery = discoveryDocuments(issuer, addresses.resource, options.serverName);
  const refusals = { count: 0 };
  const gate = createResourceGate({
    accessTokens,
    grants,
    resource: addresses.resource,
    resourceMetadataUrl: discovery.resourceMetadataUrl,
    storeTimeoutMs,
    stillAdmits,
    onRefused: () => refusals.count++,
  });

  const routes = new Map<string, (request: Request, origin: RequestOrigin) => Promise<Response>>([
    [
      paths.authorize,
      (request, origin) => {
        if (request.method === "GET" || request.method === "HEAD") return authorizationRequest(request, signIn, origin.address);
        if (request.method === "POST") return consentDecision(request, signIn);
        return Promise.resolve(methodNotAllowed("GET, POST"));
      },
    ],
    [
      paths.stravaCallback,
      (request, origin) =>
        request.method === "GET" ? stravaCallback(request, signIn, origin.address) : Promise.resolve(methodNotAllowed("GET")),
    ],
    [paths.token, (request, origin) => corsOr(request, "POST", () => tokenRequest(request, token, origin.address))],
    [paths.register, (request, origin) => corsOr(request, "POST", () => registrationRequest(request, registration, origin.address))],
    [paths.revoke, (request, origin) => corsOr(request, "POST", () => revocationRequest(request, revocation, origin.address))],
  ]);
  const webhookRoute = (request: Request, origin: RequestOrigin): Promise<Response> => stravaWebhook(request, webhook, origin.address);
  const routeOf = (path: string) => (isStravaWebhookPath(path, webhookPath) ? webhookRoute : routes.get(path));
  const pagePaths = new Set<string>([paths.authorize, paths.stravaCallback]);
  // On a server for this machine (neither PUBLIC_URL nor where it listens beyond loopback) the endpoints pages call with fetch (register,
  // token, revoke, the metadata) are for this machine's own pages: any site the athlete opens could
  // otherwise spend the machine's registrations. The sign-in pages are navigations (the consent form posts
  // with Origin null under its no-referrer policy), bound to the browser by a cookie of their own, and
  // the webhook is Strava's server.
  const forThisMachine = !settings.beyondLoopback;

  return {
    issuer,
    resource: addresses.resource,
    resourceMetadataUrl: discovery.resourceMetadataUrl,
    originOf: (headerValue, connectionAddress) => requestOrigin(settings.clientAddressHeader, headerValue, connectionAddress),
    handles: (path) => routeOf(path) !== undefined || path.startsWith("/.well-known/"),
    loggedPath,
    takesAnyOrigin: (path) => !forThisMachine || pagePaths.has(path) || path.startsWith(`${paths.stravaWebhook}/`),
    route: async (request, origin = { address: undefined }) => {
      const path = new URL(request.url).pathname;
      if (path.startsWith("/.well-known/")) {
        return (
          discovery.answer(path, request.method) ??
          Response.json(
            {
              error: "not_found",
              error_description: `No discovery document at ${path}: see /.well-known/oauth-authorization-server (RFC 8414) and /.well-known/oauth-protected-resource.`,
            },
            { status: 404, headers: corsHeaders },
          )
        );
      }
      const handler = routeOf(path);
      if (handler === undefined) return Response.json({ error: "not_found" }, { status: 404 });
      try {
        return await handler(request, origin);
      } catch (error) {
        logger.error("oauth_internal_error", { path: loggedPath(path), error });
        const message = "The server could not finish this step (its store did not answer, or something failed); try again in a moment.";
        if (pagePaths.has(path)) return pageAnswer(errorPage({ title: "Something went wrong on this server", message }), { status: 503 });
        return Response.json(
          { error: "temporarily_unavailable", error_description: message },
          { status: 503, headers: { "cache-control": "no-store", ...corsHeaders } },
        );
      }
    },
    gate,
    sessions,
    admission,
    reconcileAdmission: () =>
      reconcileAdmission(admission, { ...ofTheStores, disconnect: (athleteId, why) => disconnect(athleteId, why, true) }),
    settle: () => {
      registration.registered.flush();
      registration.refused.flush();
      webhook.log.flush();
      metadataFailures.flush();
      return sessions.settle();
    },
  };
}

function methodNotAllowed(allow: string): Response {
  return Response.json({ error: "method_not_allowed", error_description: `Use ${allow}.` }, { status: 405, headers: { allow } });
}

async function corsOr(request: Request, method: string, handle: () => Promise<Response>): Promise<Response> {
  if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: corsHeaders });
  if (request.method !== method) return methodNotAllowed(method);
  return handle();
}
