/**
 * What the MCP server does with an HTTP request, as one table of named steps in the order a request meets
 * them, for both of its edges: node:http (`npm start`, http-routes.ts) and the web-standard handler the
 * hosted Lambda function runs (oauth-web-handler.ts). Each edge turns the decision into its own kind
 * of answer; neither has a routing order of its own.
 *
 * 1. `host`: the Host header, when bound to loopback only loopback names (DNS rebinding): 403;
 * 2. `origin`: a browser page from another site (the Origin header): 403. In OAuth mode the app says which
 *    of its routes take pages of any site (`takesAnyOrigin`): on a server for the internet, its endpoints
 *    (browser-based clients call them with CORS), and everywhere its sign-in pages (navigations, bound by a
 *    cookie of their own) and Strava's webhook; on a server for this machine its endpoints are for this
 *    machine's pages only, so a web page the athlete opens cannot spend the machine's registrations;
 * 3. `oauth`: in OAuth mode, the discovery documents, the authorization server's endpoints and Strava's
 *    webhook go to the OAuth app (it answers CORS for those that take it, never granting private-network access);
 * 4. `discovery`: without OAuth, the discovery probes clients try before connecting: 404 (logged at debug);
 * 5. `credentials`: the bearer token (bearer mode) or an access token the OAuth app issued, for /mcp
 *    (OAuth mode; /health needs none there): 401 with the challenge;
 * 6. `route`: /mcp to the SDK's handler, /health, else 404.
 *
 * Each step is a file of route-steps/. The header checks are the SDK's validators; refusals in 1, 2 and 5
 * close the connection on node:http without reading the body (http-answers.ts).
 */
import type { Logger } from "../../common/logger.ts";
import type { RateLimitedLog } from "../../common/rate-limited-log.ts";
import { credentialsCheck } from "./route-steps/credentials-check.ts";
import { hostCheck } from "./route-steps/host-check.ts";
import { mcpOrHealth } from "./route-steps/mcp-or-health.ts";
import { discoveryProbe, oauthRoutes } from "./route-steps/oauth-paths.ts";
import { originCheck } from "./route-steps/origin-check.ts";
import type { EdgeRequest, OAuthPaths, RouteDecision, RouteStep } from "./route-steps/route-step.ts";

export type { EdgeRequest, RouteDecision } from "./route-steps/route-step.ts";

export interface RouteTableOptions {
  /** Host header names accepted, or undefined when bound beyond loopback (no Host check). */
  allowedHostnames: string[] | undefined;
  /** Origin host names accepted when a request carries an Origin (browsers). */
  allowedOriginHostnames: string[];
  /** OAuth mode: the app's routes and its access-token gate. */
  oauth?: OAuthPaths;
  /** Bearer mode: the static token. */
  bearerToken?: string;
  logger: Logger;
  /** Refusals, counted a line per interval instead of a line each. */
  refused: { forbidden: RateLimitedLog; unauthorized: RateLimitedLog };
}

/** The steps in the order a request meets them (the header's list). */
export function routeSteps(options: RouteTableOptions): Array<[name: string, step: RouteStep]> {
  const { oauth, refused } = options;
  return [
    ["host", hostCheck(options.allowedHostnames, refused.forbidden)],
    ["origin", originCheck(options.allowedOriginHostnames, oauth, refused.forbidden)],
    ["oauth", oauthRoutes(oauth)],
    ["discovery", discoveryProbe(oauth, options.logger)],
    ["credentials", credentialsCheck({ oauth, bearerToken: options.bearerToken }, refused.unauthorized)],
    ["route", mcpOrHealth],
  ];
}

export function createRouteTable(options: RouteTableOptions): (request: EdgeRequest) => Promise<RouteDecision> {
  const steps = routeSteps(options);
  return async (request) => {
    for (const [, step] of steps) {
      const decision = await step(request);
      if (decision !== undefined) return decision;
    }
    throw new Error("The route table's last step always decides.");
  };
}
