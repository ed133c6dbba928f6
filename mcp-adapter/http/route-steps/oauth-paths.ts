/**
 * The route table's third and fourth steps, for the OAuth paths: in OAuth mode the discovery documents, the
 * authorization server's endpoints and Strava's webhook go to the OAuth app (`oauthRoutes`); without OAuth,
 * the discovery probes clients try before connecting get a 404 that says which token to send
 * (`discoveryProbe`, logged at debug).
 */
import type { Logger } from "../../../common/logger.ts";
import type { OAuthPaths, RouteStep } from "./route-step.ts";

export function oauthRoutes(oauth: OAuthPaths | undefined): RouteStep {
  return (request) => (oauth?.handles(request.path) ? { kind: "oauth" } : undefined);
}

export function discoveryProbe(oauth: OAuthPaths | undefined, logger: Logger): RouteStep {
  return (request) => {
    if (oauth || !request.path.startsWith("/.well-known/")) return undefined;
    logger.debug("http_discovery_probe", { path: request.path });
    return {
      kind: "answer",
      status: 404,
      body: {
        error: "not_found",
        error_description: "This server has no OAuth metadata: it takes a static bearer token, Authorization: Bearer <AUTH_TOKEN>.",
      },
      close: true,
    };
  };
}
