/**
 * OAuth mode as one web-standard piece (Request in, Response out), so the same code serves `npm start`
 * (node:http, http-routes.ts) and the hosted Lambda function (mcp-adapter/hosted/lambda-handler.ts):
 *
 * - `route(request)`: the discovery documents, the authorization server (authorize, consent, the Strava
 *   callback, token, register, revoke) and Strava's webhook; undefined for any other path;
 * - `gate`: the access-token check in front of `/mcp`;
 * - `session(ctx)`: what an authenticated MCP request is served with: the athlete's own tool dependencies
 *   (token manager, fair share), and the read-only tool list for a read-only grant;
 * - `settle()`: waits for the athletes' token refreshes in progress (shutdown).
 */
import type { McpRequestContext } from "@modelcontextprotocol/server";
import type { Logger } from "../../common/logger.ts";
import type { CredentialStore } from "../../tools/credentials.ts";
import type { UpstreamSettings } from "../../tools/upstream-settings.ts";
import { readOnlyTools, toolTable } from "../../tools/table.ts";
import type { McpSession } from "../create-mcp-server.ts";
import { buildToolCatalog } from "../tool-catalog.ts";
import { AccessTokens } from "./access-tokens.ts";
import { AthleteSessions } from "./athlete-sessions.ts";
import { authorizationRequest, consentDecision, stravaCallback } from "./authorization-endpoint.ts";
import { ClientMetadataFetcher } from "./client-metadata-document.ts";
import { ClientDirectory } from "./clients.ts";
import { discoveryDocuments } from "./metadata.ts";
import { corsHeaders } from "./oauth-answers.ts";
import { Admission, paths, type OAuthContext } from "./oauth-context.ts";
import { isLoopbackHostname, type OAuthSettings } from "./oauth-settings.ts";
import type { OAuthStore } from "./oauth-store.ts";
import { errorPage, pageAnswer } from "./pages.ts";
import { registrationRequest } from "./registration-endpoint.ts";
import { athleteOf, createResourceGate, type ResourceGate } from "./resource-server.ts";
import { revocationRequest } from "./revocation-endpoint.ts";
import { allowsWrite } from "./scopes.ts";
import { SignedMessages } from "./signed-messages.ts";
import type { StravaApplication } from "./strava-sign-in.ts";
import { stravaWebhook } from "./strava-webhook.ts";
import { tokenRequest } from "./token-endpoint.ts";
import { defaultStoreTimeoutMs } from "../../tools/store-deadline.ts";
import { createRateLimitedLog } from "../rate-limited-log.ts";

export interface OAuthApp {
  readonly issuer: string;
  readonly resource: string;
  readonly resourceMetadataUrl: string;
  /** Whether `path` is one of the routes `route` answers. */
  handles(path: string): boolean;
  route(request: Request): Promise<Response>;
  gate: ResourceGate;
  session(ctx: McpRequestContext | undefined): McpSession;
  sessions: AthleteSessions;
  admission: Admission;
  settle(): Promise<{ lost: boolean }>;
}

export interface OAuthAppOptions {
  /** PUBLIC_URL's origin. */
  issuer: string;
  settings: OAuthSettings;
  store: OAuthStore;
  strava: StravaApplication;
  upstream: UpstreamSettings;
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
  const storeTimeoutMs = options.upstream.storeTimeoutMs ?? defaultStoreTimeoutMs;
  const key = await store.signingKey(AbortSignal.timeout(storeTimeoutMs));
  const accessTokens = new AccessTokens({ issuer, resource, key, now });
  const admission = new Admission(options.settings.admittedAthletes, store);
  const sessions = new AthleteSessions({
    store,
    settings: options.upstream,
    logger,
    http: options.strava.http,
    applicationLimits: options.settings.applicationLimits,
    athletes: admission.size,
    now,
    rescue: options.rescueCredentials,
  });
  const context: OAuthContext = {
    issuer,
    resource,
    store,
    clients: new ClientDirectory(
      store,
      new ClientMetadataFetcher({
        allowLoopback: isLoopbackHostname(new URL(issuer).hostname),
        now,
        // Anybody can make this server fetch a document: its failures are logged a line per interval.
        failures: createRateLimitedLog({ logger, event: "client_metadata_refused" }),
      }),
    ),
    accessTokens,
    messages: new SignedMessages({ issuer, key, now }),
    strava: options.strava,
    admission,
    onAthleteDeleted: (athleteId) => sessions.forget(athleteId),
    logger,
    now,
    storeTimeoutMs,
  };
  const discovery = discoveryDocuments(issuer, resource, options.serverName);
  const refusals = { count: 0 };
  const gate = createResourceGate({
    accessTokens,
    store,
    resource,
    resourceMetadataUrl: discovery.resourceMetadataUrl,
    storeTimeoutMs,
    onRefused: () => refusals.count++,
  });

  const fullCatalog = buildToolCatalog(toolTable);
  const readTools = readOnlyTools(toolTable);
  const readCatalog = buildToolCatalog(readTools);
  const withheld = {
    names: new Set(toolTable.filter((tool) => !readTools.includes(tool)).map((tool) => tool.name)),
    reason: "changes the athlete's Strava data, and this connection was granted read-only access (fitness:read). Connect again and allow changes to use it.",
  };

  const routes = new Map<string, (request: Request) => Promise<Response>>([
    [
      paths.authorize,
      (request) => {
        if (request.method === "GET" || request.method === "HEAD") return authorizationRequest(request, context);
        if (request.method === "POST") return consentDecision(request, context);
        return Promise.resolve(methodNotAllowed("GET, POST"));
      },
    ],
    [paths.stravaCallback, (request) => (request.method === "GET" ? stravaCallback(request, context) : Promise.resolve(methodNotAllowed("GET")))],
    [paths.token, (request) => corsOr(request, "POST", () => tokenRequest(request, context))],
    [paths.register, (request) => corsOr(request, "POST", () => registrationRequest(request, context))],
    [paths.revoke, (request) => corsOr(request, "POST", () => revocationRequest(request, context))],
    [paths.stravaWebhook, (request) => stravaWebhook(request, context, options.settings.webhookVerifyToken, (athleteId) => sessions.depsFor(athleteId))],
  ]);
  const pagePaths = new Set<string>([paths.authorize, paths.stravaCallback]);

  return {
    issuer,
    resource,
    resourceMetadataUrl: discovery.resourceMetadataUrl,
    handles: (path) => routes.has(path) || path.startsWith("/.well-known/"),
    route: async (request) => {
      const path = new URL(request.url).pathname;
      if (path.startsWith("/.well-known/")) {
        return (
          discovery.answer(path, request.method) ??
          Response.json(
            { error: "not_found", error_description: `No discovery document at ${path}: see /.well-known/oauth-authorization-server (RFC 8414) and /.well-known/oauth-protected-resource.` },
            { status: 404, headers: corsHeaders },
          )
        );
      }
      const handler = routes.get(path);
      if (handler === undefined) return Response.json({ error: "not_found" }, { status: 404 });
      try {
        return await handler(request);
      } catch (error) {
        logger.error("oauth_internal_error", { path, error });
        const message = "The server could not finish this step (its store did not answer, or something failed); try again in a moment.";
        if (pagePaths.has(path)) return pageAnswer(errorPage({ title: "Something went wrong on this server", message }), { status: 503 });
        return Response.json({ error: "temporarily_unavailable", error_description: message }, { status: 503, headers: { "cache-control": "no-store", ...corsHeaders } });
      }
    },
    gate,
    session: (ctx) => {
      const athleteId = athleteOf(ctx?.authInfo);
      // The HTTP edge lets no request without a verified token reach the factory.
      if (athleteId === undefined) throw new Error("An MCP request reached the server without a verified athlete.");
      const scopes = ctx?.authInfo?.scopes ?? [];
      const deps = sessions.depsFor(athleteId);
      return allowsWrite(scopes) ? { catalog: fullCatalog, deps } : { catalog: readCatalog, deps, withheld };
    },
    sessions,
    admission,
    settle: () => sessions.settle(),
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
