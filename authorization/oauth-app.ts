/**
 * OAuth mode as one web-standard piece (Request in, Response out), so the same code serves `npm start`
 * (node:http, http-routes.ts) and the hosted Lambda function (mcp-adapter/hosted/lambda-handler.ts):
 *
 * - `route(request, origin)`: the discovery documents, the authorization server (authorize, consent, the
 *   Strava callback, token, register, revoke) and Strava's webhook; `origin` says where the request came
 *   from (the address registrations and webhooks are counted against);
 * - `gate`: the access-token check in front of `/mcp`;
 * - `sessions`: each athlete's own tool dependencies (token manager, fair share), which the MCP server serves an
 *   authenticated request with (mcp-adapter/server/athlete-session.ts);
 * - `settle()`: waits for the athletes' token refreshes in progress (shutdown).
 */
import type { Logger } from "../common/logger.ts";
import type { CredentialStore } from "../credentials/credential-store.ts";
import type { UpstreamSettings } from "../strava/strava-settings.ts";
import { AccessTokens } from "./tokens/access-tokens.ts";
import { AthleteSessions } from "./athlete-sessions.ts";
import { authorizationRequest, callbacksPerSource, consentDecision, stravaCallback } from "./endpoints/authorization-endpoint.ts";
import { SourceCounts } from "./endpoints/source-counts.ts";
import { ClientMetadataFetcher } from "./clients/client-metadata-document.ts";
import { ClientDirectory } from "./clients/clients.ts";
import { discoveryDocuments } from "./endpoints/metadata.ts";
import { corsHeaders } from "./endpoints/oauth-answers.ts";
import { Admission } from "./admission.ts";
import { paths, type OAuthContext } from "./oauth-context.ts";
import { RefreshTokens } from "./tokens/refresh-tokens.ts";
import { requestOrigin } from "./endpoints/request-origin.ts";
import { registrationLimits, RegistrationPrecheck } from "./endpoints/registration-limits.ts";
import { createRateLimitedLog } from "../common/rate-limited-log.ts";
import type { OAuthSettings } from "./oauth-settings.ts";
import type { OAuthStore } from "./stores/oauth-store.ts";
import { errorPage, pageAnswer } from "./pages/pages.ts";
import { registrationRequest } from "./endpoints/registration-endpoint.ts";
import { createResourceGate, type ResourceGate } from "./endpoints/resource-server.ts";
import { revocationRequest } from "./endpoints/revocation-endpoint.ts";
import { SignedMessages } from "./tokens/signed-messages.ts";
import type { StravaApplication } from "./strava/strava-sign-in.ts";
import { eventsPerSourcePerMinute, QuarterMarks, stravaWebhook, type WebhookOptions } from "./strava/strava-webhook.ts";
import { isStravaWebhookPath, loggedPath, stravaWebhookPath } from "./strava/webhook-path.ts";
import { lookupStravaSubscription, WebhookSubscription } from "./strava/webhook-subscription.ts";
import { tokenRequest } from "./endpoints/token-endpoint.ts";
import { defaultStoreTimeoutMs } from "../credentials/store-deadline.ts";
import { endGrantsAfterRefusal } from "./sign-in-again.ts";

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
  /** The context every endpoint shares (start-up's admission check uses it). */
  context: OAuthContext;
  /** Where a request came from: its connection's address, or the one a trusted proxy named. */
  originOf(headerValue: (name: string) => string | null | undefined, connectionAddress: string | undefined): RequestOrigin;
  gate: ResourceGate;
  sessions: AthleteSessions;
  admission: Admission;
  settle(): Promise<{ lost: boolean }>;
}

/** Where a request came from, as the edge that received it knows. */
export interface RequestOrigin {
  /** The client's address: the connection's, or the one a trusted proxy named (MCP_CLIENT_ADDRESS_HEADER). */
  address: string | undefined;
}

export interface OAuthAppOptions {
  /** PUBLIC_URL's origin. */
  issuer: string;
  settings: OAuthSettings;
  store: OAuthStore;
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
  const { issuer, store, logger } = options;
  const now = options.now ?? Date.now;
  const resource = `${issuer}/mcp`;
  const storeTimeoutMs = options.storeTimeoutMs ?? defaultStoreTimeoutMs;
  const key = await store.signingKey(AbortSignal.timeout(storeTimeoutMs));
  const accessTokens = new AccessTokens({ issuer, resource, key, now });
  const admission = new Admission(options.settings.admittedAthletes, store, now);
  const sessions = new AthleteSessions({
    store,
    settings: options.upstream,
    storeTimeoutMs,
    logger,
    http: options.strava.http,
    applicationLimits: options.settings.applicationLimits,
    athletes: admission.size,
    now,
    rescue: options.rescueCredentials,
    onRefreshTokenDead: (athleteId) => endGrantsAfterRefusal(athleteId, { store, storeTimeoutMs, logger }),
  });
  const metadataFailures = createRateLimitedLog({ logger, event: "client_metadata_refused" });
  const context: OAuthContext = {
    issuer,
    resource,
    store,
    clients: new ClientDirectory(
      store,
      new ClientMetadataFetcher({
        // Only for a server on loopback alone: one reached from elsewhere would fetch this machine's own services for anyone.
        allowLoopback: !options.settings.beyondLoopback,
        now,
        // Anybody can make this server fetch a document: its failures are logged a line per interval.
        failures: metadataFailures,
      }),
    ),
    accessTokens,
    refreshTokens: new RefreshTokens(key),
    messages: new SignedMessages({ issuer, key, now }),
    strava: options.strava,
    admission,
    onAthleteDeleted: (athleteId) => sessions.forget(athleteId),
    logger,
    registeredClients: createRateLimitedLog({ logger, event: "client_registered" }),
    refusedRegistrations: createRateLimitedLog({ logger, event: "registration_refused", firstOfEachReason: true }),
    registrationPrecheck: new RegistrationPrecheck(registrationLimits.perSourcePerHour),
    signInCallbacks: new SourceCounts(callbacksPerSource.limit, callbacksPerSource.windowMs),
    now,
    storeTimeoutMs,
  };
  const webhookPath = stravaWebhookPath(key);
  const webhook: WebhookOptions = {
    verifyToken: options.settings.webhookVerifyToken,
    subscription: new WebhookSubscription({
      configured: options.settings.webhookSubscriptionId,
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
  };
  const discovery = discoveryDocuments(issuer, resource, options.serverName);
  const refusals = { count: 0 };
  const gate = createResourceGate({
    accessTokens,
    store,
    resource,
    resourceMetadataUrl: discovery.resourceMetadataUrl,
    storeTimeoutMs,
    stillAdmits: (athleteId) => admission.stillAdmits(athleteId, context),
    onRefused: () => refusals.count++,
  });

  const routes = new Map<string, (request: Request, origin: RequestOrigin) => Promise<Response>>([
    [
      paths.authorize,
      (request, origin) => {
        if (request.method === "GET" || request.method === "HEAD") return authorizationRequest(request, context, origin.address);
        if (request.method === "POST") return consentDecision(request, context);
        return Promise.resolve(methodNotAllowed("GET, POST"));
      },
    ],
    [
      paths.stravaCallback,
      (request, origin) =>
        request.method === "GET" ? stravaCallback(request, context, origin.address) : Promise.resolve(methodNotAllowed("GET")),
    ],
    [paths.token, (request, origin) => corsOr(request, "POST", () => tokenRequest(request, context, origin.address))],
    [paths.register, (request, origin) => corsOr(request, "POST", () => registrationRequest(request, context, origin.address))],
    [paths.revoke, (request, origin) => corsOr(request, "POST", () => revocationRequest(request, context, origin.address))],
  ]);
  const webhookRoute = (request: Request, origin: RequestOrigin): Promise<Response> =>
    stravaWebhook(request, context, webhook, origin.address);
  const routeOf = (path: string) => (isStravaWebhookPath(path, webhookPath) ? webhookRoute : routes.get(path));
  const pagePaths = new Set<string>([paths.authorize, paths.stravaCallback]);
  // On a server for this machine (neither PUBLIC_URL nor where it listens beyond loopback) the endpoints pages call with fetch (register,
  // token, revoke, the metadata) are for this machine's own pages: any site the athlete opens could
  // otherwise spend the machine's registrations. The sign-in pages are navigations (the consent form posts
  // with Origin null under its no-referrer policy), bound to the browser by a cookie of their own, and
  // the webhook is Strava's server.
  const forThisMachine = !options.settings.beyondLoopback;

  return {
    issuer,
    resource,
    resourceMetadataUrl: discovery.resourceMetadataUrl,
    context,
    originOf: (headerValue, connectionAddress) => requestOrigin(options.settings.clientAddressHeader, headerValue, connectionAddress),
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
    settle: () => {
      context.registeredClients.flush();
      context.refusedRegistrations.flush();
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
