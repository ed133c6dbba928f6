/**
 * The authorization server's routes: which path goes to which endpoint and with which methods (the endpoints
 * pages call with fetch answer CORS preflights), the discovery documents under `/.well-known/`, and what a
 * fault inside an endpoint answers (503: a page on the sign-in's own paths, JSON elsewhere, the detail in the
 * log). Put together with the endpoints' needs by oauth-app.ts.
 */
import type { Logger } from "../common/logger.ts";
import { paths } from "./addresses.ts";
import { authorizationRequest } from "./endpoints/authorization-endpoint.ts";
import { consentDecision } from "./endpoints/consent-decision.ts";
import type { DiscoveryDocuments } from "./endpoints/metadata.ts";
import { corsHeaders } from "./endpoints/oauth-answers.ts";
import { registrationRequest, type RegistrationEndpointNeeds } from "./endpoints/registration-endpoint.ts";
import type { RequestOrigin } from "./endpoints/request-origin.ts";
import { revocationRequest, type RevocationEndpointNeeds } from "./endpoints/revocation-endpoint.ts";
import type { SignInNeeds } from "./endpoints/sign-in-needs.ts";
import { stravaCallback } from "./endpoints/strava-callback.ts";
import { tokenRequest, type TokenEndpointNeeds } from "./endpoints/token-endpoint.ts";
import { errorPage, pageAnswer } from "./pages/pages.ts";
import { stravaWebhook, type WebhookNeeds } from "./strava/strava-webhook.ts";
import { isStravaWebhookPath, loggedPath } from "./strava/webhook-path.ts";

export type OAuthRoute = (request: Request, origin: RequestOrigin) => Promise<Response>;

/** What each endpoint is given (endpoint-needs.ts). */
export interface EndpointNeeds {
  signIn: SignInNeeds;
  token: TokenEndpointNeeds;
  registration: RegistrationEndpointNeeds;
  revocation: RevocationEndpointNeeds;
  webhook: WebhookNeeds;
}

/** The sign-in's pages: navigations of a browser, answered with pages (also when something fails). */
export const pagePaths: ReadonlySet<string> = new Set<string>([paths.authorize, paths.stravaCallback]);

/** The endpoint that answers a path (Strava's webhook at its secret path `webhookPath`), or undefined. */
export function oauthRouteTable(needs: EndpointNeeds, webhookPath: string): (path: string) => OAuthRoute | undefined {
  const { signIn } = needs;
  const routes = new Map<string, OAuthRoute>([
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
    [paths.token, (request, origin) => corsOr(request, "POST", () => tokenRequest(request, needs.token, origin.address))],
    [paths.register, (request, origin) => corsOr(request, "POST", () => registrationRequest(request, needs.registration, origin.address))],
    [paths.revoke, (request, origin) => corsOr(request, "POST", () => revocationRequest(request, needs.revocation, origin.address))],
  ]);
  const webhookRoute: OAuthRoute = (request, origin) => stravaWebhook(request, needs.webhook, origin.address);
  return (path) => (isStravaWebhookPath(path, webhookPath) ? webhookRoute : routes.get(path));
}

/** A request to the authorization server answered: a discovery document, an endpoint's answer, 404, or 503 when the endpoint failed. */
export async function answerOAuthRequest(
  request: Request,
  origin: RequestOrigin,
  table: { discovery: DiscoveryDocuments; routeOf: (path: string) => OAuthRoute | undefined; logger: Logger },
): Promise<Response> {
  const path = new URL(request.url).pathname;
  if (path.startsWith("/.well-known/")) {
    return (
      table.discovery.answer(path, request.method) ??
      Response.json(
        {
          error: "not_found",
          error_description: `No discovery document at ${path}: see /.well-known/oauth-authorization-server (RFC 8414) and /.well-known/oauth-protected-resource.`,
        },
        { status: 404, headers: corsHeaders },
      )
    );
  }
  const handler = table.routeOf(path);
  if (handler === undefined) return Response.json({ error: "not_found" }, { status: 404 });
  try {
    return await handler(request, origin);
  } catch (error) {
    table.logger.error("oauth_internal_error", { path: loggedPath(path), error });
    const message = "The server could not finish this step (its store did not answer, or something failed); try again in a moment.";
    if (pagePaths.has(path)) return pageAnswer(errorPage({ title: "Something went wrong on this server", message }), { status: 503 });
    return Response.json(
      { error: "temporarily_unavailable", error_description: message },
      { status: 503, headers: { "cache-control": "no-store", ...corsHeaders } },
    );
  }
}

function methodNotAllowed(allow: string): Response {
  return Response.json({ error: "method_not_allowed", error_description: `Use ${allow}.` }, { status: 405, headers: { allow } });
}

async function corsOr(request: Request, method: string, handle: () => Promise<Response>): Promise<Response> {
  if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: corsHeaders });
  if (request.method !== method) return methodNotAllowed(method);
  return handle();
}
