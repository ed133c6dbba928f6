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
 * The header checks are the SDK's validators; refusals in 1, 2 and 5 close the connection on node:http
 * without reading the body (http-answers.ts).
 */
import { validateHostHeader, validateOriginHeader, type AuthInfo } from "@modelcontextprotocol/server";
import type { Logger } from "../../common/logger.ts";
import type { RateLimitedLog } from "../../common/rate-limited-log.ts";
import { bearerChallenge, createBearerVerifier } from "./bearer-check.ts";

/** What a step needs of a request: no body, so a refusal never waits for one. */
export interface EdgeRequest {
  method: string;
  path: string;
  header(name: string): string | undefined;
}

export type RouteDecision =
  /** Answer with this JSON (a refusal closes the connection on node:http). */
  | { kind: "answer"; status: number; body: unknown; headers?: Record<string, string>; close: boolean }
  | { kind: "oauth" }
  | { kind: "mcp"; auth: AuthInfo | undefined }
  | { kind: "health" };

export interface RouteTableOptions {
  /** Host header names accepted, or undefined when bound beyond loopback (no Host check). */
  allowedHostnames: string[] | undefined;
  /** Origin host names accepted when a request carries an Origin (browsers). */
  allowedOriginHostnames: string[];
  /** OAuth mode: the app's routes and its access-token gate. */
  oauth?: {
    handles(path: string): boolean;
    /** Whether a page of any site may call this route of the app (else only the accepted Origins). */
    takesAnyOrigin(path: string): boolean;
    gate: { check(authorization: string | null | undefined): Promise<AuthInfo | Response> };
  };
  /** Bearer mode: the static token. */
  bearerToken?: string;
  logger: Logger;
  /** Refusals, counted a line per interval instead of a line each. */
  refused: { forbidden: RateLimitedLog; unauthorized: RateLimitedLog };
}

type Step = (request: EdgeRequest) => Promise<RouteDecision | undefined> | RouteDecision | undefined;

export function createRouteTable(options: RouteTableOptions): (request: EdgeRequest) => Promise<RouteDecision> {
  const { oauth, logger, refused } = options;
  const verifyBearer = options.bearerToken === undefined ? undefined : createBearerVerifier(options.bearerToken);
  const jsonRpcRefusal = (status: number, message: string): RouteDecision => ({
    kind: "answer",
    status,
    body: { jsonrpc: "2.0", error: { code: -32000, message }, id: null },
    close: true,
  });

  const steps: Array<[name: string, step: Step]> = [
    [
      "host",
      (request) => {
        if (options.allowedHostnames === undefined) return undefined;
        const host = validateHostHeader(request.header("host"), options.allowedHostnames);
        if (host.ok) return undefined;
        refused.forbidden.record(host.errorCode, { host: request.header("host")?.slice(0, 100) });
        return jsonRpcRefusal(403, host.message);
      },
    ],
    [
      "origin",
      (request) => {
        const ofOAuth = oauth?.handles(request.path) === true;
        if (ofOAuth && oauth?.takesAnyOrigin(request.path)) return undefined;
        const origin = validateOriginHeader(request.header("origin"), options.allowedOriginHostnames);
        if (origin.ok) return undefined;
        refused.forbidden.record(origin.errorCode, { origin: request.header("origin")?.slice(0, 100) });
        if (!ofOAuth) return jsonRpcRefusal(403, origin.message);
        return {
          kind: "answer",
          status: 403,
          body: {
            error: "access_denied",
            error_description: `This server is for this machine only: it takes requests only from pages on this machine (${options.allowedOriginHostnames.join(", ")}), not from a page of another site (${origin.message}).`,
          },
          close: true,
        };
      },
    ],
    ["oauth", (request) => (oauth?.handles(request.path) ? { kind: "oauth" } : undefined)],
    [
      "discovery",
      (request) => {
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
      },
    ],
    [
      "credentials",
      async (request) => {
        if (oauth) {
          if (request.path !== "/mcp") return undefined;
          const verdict = await oauth.gate.check(request.header("authorization"));
          if (!(verdict instanceof Response)) return { kind: "mcp", auth: verdict };
          refused.unauthorized.record(String(verdict.status), {});
          const headers: Record<string, string> = {};
          for (const [name, value] of verdict.headers) if (name !== "content-type" && name !== "content-length") headers[name] = value;
          return { kind: "answer", status: verdict.status, body: await verdict.json(), headers, close: true };
        }
        if (verifyBearer === undefined) return undefined;
        const verdict = verifyBearer(request.header("authorization"));
        if (verdict === "accepted") return undefined;
        // Logged without the header's value: it may be a mistyped real token.
        refused.unauthorized.record(verdict, { method: request.method, path: request.path });
        const answer = bearerChallenge(verdict);
        return { kind: "answer", status: 401, body: answer.body, headers: { "www-authenticate": answer.challenge }, close: true };
      },
    ],
    [
      "route",
      (request) => {
        if (request.path === "/mcp") return { kind: "mcp", auth: undefined };
        if (request.path === "/health" && (request.method === "GET" || request.method === "HEAD")) return { kind: "health" };
        return {
          kind: "answer",
          status: 404,
          body: { error: "not_found", error_description: `No route for ${request.method} ${request.path}; MCP is at POST /mcp.` },
          close: false,
        };
      },
    ],
  ];

  return async (request) => {
    for (const [, step] of steps) {
      const decision = await step(request);
      if (decision !== undefined) return decision;
    }
    throw new Error("The route table's last step always decides.");
  };
}
