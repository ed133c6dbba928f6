/**
 * OAuth mode as one web-standard piece (Request in, Response out), so the same code serves `npm start`
 * (node:http, mcp-adapter/http/http-routes.ts) and the hosted Lambda function (mcp-adapter/hosted/lambda-handler.ts).
 * Here the authorization server is put together: the parts its endpoints share (oauth-parts.ts, on the stores
 * by concern: stores/authorization-stores.ts), each endpoint given what it works with and nothing else
 * (endpoint-needs.ts), and the routes to them (oauth-routes.ts).
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
import { paths } from "./addresses.ts";
import { reconcileAdmission, type Admission } from "./admission.ts";
import type { AthleteSessions } from "./athlete-sessions.ts";
import { registrationNeedsOf, revocationNeedsOf, signInNeedsOf, tokenNeedsOf, webhookNeedsOf } from "./endpoint-needs.ts";
import { discoveryDocuments } from "./endpoints/metadata.ts";
import { requestOrigin, type RequestOrigin } from "./endpoints/request-origin.ts";
import { createResourceGate, type ResourceGate } from "./endpoints/resource-server.ts";
import { createOAuthParts, type OAuthAppOptions } from "./oauth-parts.ts";
import { answerOAuthRequest, oauthRouteTable, pagePaths } from "./oauth-routes.ts";
import { loggedPath, stravaWebhookPath } from "./strava/webhook-path.ts";

export type { RequestOrigin } from "./endpoints/request-origin.ts";
export type { OAuthAppOptions } from "./oauth-parts.ts";

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

export async function createOAuthApp(options: OAuthAppOptions): Promise<OAuthApp> {
  const { issuer, logger, settings } = options;
  const parts = await createOAuthParts(options);
  const webhookPath = stravaWebhookPath(parts.key);
  const needs = {
    signIn: signInNeedsOf(parts),
    token: tokenNeedsOf(parts),
    registration: registrationNeedsOf(parts),
    revocation: revocationNeedsOf(parts),
    webhook: webhookNeedsOf(parts, webhookPath),
  };
  const discovery = discoveryDocuments(issuer, parts.addresses.resource, options.serverName);
  const refusals = { count: 0 };
  const gate = createResourceGate({
    accessTokens: parts.accessTokens,
    grants: options.stores.grants,
    resource: parts.addresses.resource,
    resourceMetadataUrl: discovery.resourceMetadataUrl,
    storeTimeoutMs: parts.storeTimeoutMs,
    stillAdmits: parts.stillAdmits,
    onRefused: () => refusals.count++,
  });
  const routeOf = oauthRouteTable(needs, webhookPath);
  // On a server for this machine (neither PUBLIC_URL nor where it listens beyond loopback) the endpoints pages call with fetch (register,
  // token, revoke, the metadata) are for this machine's own pages: any site the athlete opens could
  // otherwise spend the machine's registrations. The sign-in pages are navigations (the consent form posts
  // with Origin null under its no-referrer policy), bound to the browser by a cookie of their own, and
  // the webhook is Strava's server.
  const forThisMachine = !settings.beyondLoopback;

  return {
    issuer,
    resource: parts.addresses.resource,
    resourceMetadataUrl: discovery.resourceMetadataUrl,
    originOf: (headerValue, connectionAddress) => requestOrigin(settings.clientAddressHeader, headerValue, connectionAddress),
    handles: (path) => routeOf(path) !== undefined || path.startsWith("/.well-known/"),
    loggedPath,
    takesAnyOrigin: (path) => !forThisMachine || pagePaths.has(path) || path.startsWith(`${paths.stravaWebhook}/`),
    route: (request, origin = { address: undefined }) => answerOAuthRequest(request, origin, { discovery, routeOf, logger }),
    gate,
    sessions: parts.sessions,
    admission: parts.admission,
    reconcileAdmission: () =>
      reconcileAdmission(parts.admission, {
        ...parts.ofTheStores,
        disconnect: (athleteId, why) => parts.disconnect(athleteId, why, true),
      }),
    settle: () => {
      needs.registration.registered.flush();
      needs.registration.refused.flush();
      needs.webhook.log.flush();
      parts.metadataFailures.flush();
      return parts.sessions.settle();
    },
  };
}
