/**
 * The route table's second step: a browser page from another site (the Origin header) is refused (403). In
 * OAuth mode the app says which of its routes take pages of any site (`takesAnyOrigin`): on a server for the
 * internet its endpoints (browser-based clients call them with CORS), and everywhere its sign-in pages
 * (navigations, bound by a cookie of their own) and Strava's webhook. A refusal on one of the app's own paths
 * is an OAuth error saying which pages may call; elsewhere a JSON-RPC error.
 */
import { validateOriginHeader } from "@modelcontextprotocol/server";
import type { RateLimitedLog } from "../../../common/rate-limited-log.ts";
import { jsonRpcRefusal, type OAuthPaths, type RouteStep } from "./route-step.ts";

export function originCheck(allowedOriginHostnames: string[], oauth: OAuthPaths | undefined, forbidden: RateLimitedLog): RouteStep {
  return (request) => {
    const ofOAuth = oauth?.handles(request.path) === true;
    if (ofOAuth && oauth?.takesAnyOrigin(request.path)) return undefined;
    const origin = validateOriginHeader(request.header("origin"), allowedOriginHostnames);
    if (origin.ok) return undefined;
    forbidden.record(origin.errorCode, { origin: request.header("origin")?.slice(0, 100) });
    if (!ofOAuth) return jsonRpcRefusal(403, origin.message);
    return {
      kind: "answer",
      status: 403,
      body: {
        error: "access_denied",
        error_description: `This server is for this machine only: it takes requests only from pages on this machine (${allowedOriginHostnames.join(", ")}), not from a page of another site (${origin.message}).`,
      },
      close: true,
    };
  };
}
