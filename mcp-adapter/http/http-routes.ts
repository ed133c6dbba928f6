/**
 * What Form A over HTTP does with a request, in the order a request meets it:
 *
 * 1. Host header (DNS rebinding: when bound to loopback, only loopback names) and Origin (a browser page
 *    from another site), both decided by the SDK's validators: 403;
 * 2. OAuth discovery probes (`/.well-known/...`, which clients try before connecting): 404, logged at
 *    debug only, since this server takes a static bearer token and has no OAuth metadata;
 * 3. the bearer token: 401;
 * 4. `GET /health`; `/mcp` to the SDK's handler (`createMcpHandler`, which serves 2026-07-28 and
 *    2025-era clients statelessly and answers 405 for GET and DELETE; 2025-era POSTs get a JSON body,
 *    see mcp-http-handler.ts); anything else 404.
 *
 * In OAuth mode (MCP_AUTH=oauth, mcp-adapter/oauth/) the discovery documents, the authorization server's
 * endpoints and Strava's webhook are answered after step 1 by the web-standard OAuth app (they take
 * cross-origin requests and have their own checks), their bodies within a deadline (body-deadline.ts);
 * `/mcp` needs an access token the app issued instead of the static bearer token (401 with the RFC 9728
 * challenge), and `/health` needs none. A client that leaves, or is cut off, before its body has arrived
 * is logged a line per interval, not a line each.
 *
 * Every refusal in 1 to 3 closes the connection without reading the request's body. Before the SDK's
 * handler reads a body, the cheap header checks that need no body (Content-Type 415, a declared length
 * over the limit 413) answer first, and the body reserves its bytes from the shared budget.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import pLimit from "p-limit";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { isJsonContentType, validateHostHeader, validateOriginHeader, type AuthInfo, type Server } from "@modelcontextprotocol/server";
import type { Logger } from "../../common/logger.ts";
import type { HealthAnswer } from "../../credentials/credential-health.ts";
import { defaultMaxConcurrentRequests } from "../../strava/strava-client.ts";
import { createBearerCheck } from "./bearer-check.ts";
import { BodyBudget, maxRequestBodyBytes, meteredRequest } from "./body-budget.ts";
import { BodyDeadlineError, enforceBodyDeadline, unauthenticatedBodyDeadlineMs } from "./body-deadline.ts";
import type { CallsInFlight } from "../server/calls-in-flight.ts";
import { sendJson, sendJsonRpcError } from "./http-answers.ts";
import type { RequestListener } from "./http-server.ts";
import { createMcpHttpHandler } from "./mcp-http-handler.ts";
import { createRateLimitedLog } from "../../common/rate-limited-log.ts";

/** OAuth mode's part of the edge (mcp-adapter/oauth/oauth-app.ts). */
export interface OAuthRoutes {
  handles(path: string): boolean;
  route(request: Request, origin: { address: string | undefined }): Promise<Response>;
  originOf(headerValue: (name: string) => string | null | undefined, connectionAddress: string | undefined): { address: string | undefined };
  gate: { check(authorization: string | null | undefined): Promise<AuthInfo | Response> };
}

export interface McpHttpRoutesOptions {
  factory: () => Server;
  /** The static bearer token (bearer mode); unused (may be empty) when `oauth` is given. */
  authToken: string;
  oauth?: OAuthRoutes;
  /** Host names accepted in the Host header; undefined when bound beyond loopback (no Host check). */
  allowedHostnames: string[] | undefined;
  /** Origin host names accepted when a request carries an Origin (browsers). */
  allowedOriginHostnames: string[];
  /** The /health status and body, built per request. */
  health: () => Promise<HealthAnswer>;
  /** Requests under way (begin to the end of their answer), for shutdown. */
  exchanges: CallsInFlight;
  logger: Logger;
  budget?: BodyBudget;
  maxBodyBytes?: number;
}

export interface McpHttpRoutes {
  readonly listener: RequestListener;
  /** Writes the counts the rate-limited logs still hold and closes the SDK's handler. */
  close(): Promise<void>;
}

export function createMcpHttpRoutes(options: McpHttpRoutesOptions): McpHttpRoutes {
  const { logger, exchanges, allowedHostnames, allowedOriginHostnames } = options;
  const maxBodyBytes = options.maxBodyBytes ?? maxRequestBodyBytes;
  const budget = options.budget ?? new BodyBudget();
  const unauthorized = createRateLimitedLog({ logger, event: "http_unauthorized" });
  const forbidden = createRateLimitedLog({ logger, event: "http_forbidden", level: "warn" });
  const overBudget = createRateLimitedLog({ logger, event: "http_body_budget_exhausted", level: "warn" });
  const rejected = createRateLimitedLog({ logger, event: "mcp_request_rejected" });
  const incomplete = createRateLimitedLog({ logger, event: "http_body_incomplete" });
  const oauth = options.oauth;
  const checkBearer = oauth ? undefined : createBearerCheck({ token: options.authToken, failures: unauthorized });
  const serveOAuth = oauth
    ? (request: IncomingMessage, response: ServerResponse): Promise<void> => {
        const origin = oauth.originOf((name) => headerText(request.headers[name]), request.socket.remoteAddress);
        return toNodeHandler({ fetch: (web: Request) => oauth.route(web, origin) }, {
          maxRequestBodySize: 64 * 1024,
          // Reading the body is the only step that fails here (the app answers its own faults): a client
          // that left, or one cut off at the deadline (already counted), is no fault of the server's.
          onerror: (error) => {
            if (error instanceof BodyDeadlineError) return;
            if ((error as NodeJS.ErrnoException).code === "ECONNRESET") incomplete.record("client_left");
            else logger.error("http_internal_error", { path: "oauth", error });
          },
        })(request, response);
      }
    : undefined;

  const handler = createMcpHttpHandler(options.factory, {
    maxRequestBodySize: maxBodyBytes,
    // Requests the SDK refused (a bad protocol version, a malformed envelope): the client got the answer.
    onerror: (error) => rejected.record(error.name, { message: error.message }),
  });
  const serveMcp = toNodeHandler(handler, {
    maxRequestBodySize: maxBodyBytes,
    onerror: (error) => logger.error("http_internal_error", { path: "/mcp", error }),
  });

  // As many MCP exchanges inside the SDK at once as the core sends upstream at once (strava/strava-client.ts):
  // the rest wait here, holding a request object each and their bodies unread, instead of each holding
  // a server instance and a parsed body while waiting for the upstream anyway.
  const admit = pLimit(defaultMaxConcurrentRequests);

  const refuse = (request: IncomingMessage, response: ServerResponse, message: string): void => {
    sendJsonRpcError(request, response, 403, -32000, message, { connection: "close" });
  };

  const postMcp = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (!isJsonContentType(request.headers["content-type"])) {
      sendJsonRpcError(request, response, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
      return;
    }
    const declared = Number(request.headers["content-length"]);
    if (declared > maxBodyBytes) {
      sendJsonRpcError(request, response, 413, -32000, tooLargeMessage(maxBodyBytes));
      return;
    }
    const left = new AbortController();
    response.once("close", () => {
      // Only a client that left before its answer aborts (an abort builds a DOMException with a stack).
      if (!response.writableFinished) left.abort();
    });
    await admit(async () => {
      if (response.destroyed) return; // the client gave up while it waited
      const metered = await meteredRequest(request, budget, left.signal);
      if (metered === undefined) {
        if (response.destroyed) return;
        overBudget.record("wait_over", { budget_bytes: budget.capacity, wait_ms: budget.maxWaitMs });
        sendJsonRpcError(request, response, 503, -32000, "Service Unavailable: the server is busy receiving other large requests; try again shortly.", {
          "retry-after": "5",
        });
        return;
      }
      response.once("close", metered.release);
      if (request.headers.expect?.toLowerCase() === "100-continue") response.writeContinue();
      await serveMcp(metered.request, response);
    });
  };

  const routeMcp = (request: IncomingMessage, response: ServerResponse, path: string): void => {
    if (request.method !== "POST") {
      // Stateless: no server-to-client stream (GET) and no session to end (DELETE); the SDK answers 405.
      void serveMcp(request, response);
      return;
    }
    postMcp(request, response).catch((error: unknown) => {
      logger.error("http_internal_error", { path, error });
      if (response.headersSent) response.destroy();
      else sendJsonRpcError(request, response, 500, -32603, "Internal error in the MCP server; see its log.");
    });
  };

  const listener: RequestListener = (request, response) => {
    exchanges.begin();
    response.once("close", () => exchanges.end());

    if (allowedHostnames !== undefined) {
      const host = validateHostHeader(request.headers.host, allowedHostnames);
      if (!host.ok) {
        forbidden.record(host.errorCode, { host: request.headers.host?.slice(0, 100) });
        refuse(request, response, host.message);
        return;
      }
    }
    const path = (request.url ?? "/").split("?", 1)[0]!;
    if (oauth && serveOAuth && oauth.handles(path)) {
      enforceBodyDeadline(request, unauthenticatedBodyDeadlineMs, () => incomplete.record("deadline", { path: path.slice(0, 100), deadline_s: unauthenticatedBodyDeadlineMs / 1000 }));
      // The body has a deadline: a client waiting to be asked for it should not spend it waiting.
      if (request.headers.expect?.toLowerCase() === "100-continue") response.writeContinue();
      serveOAuth(request, response).catch((error: unknown) => logger.error("http_internal_error", { path, error }));
      return;
    }
    const origin = validateOriginHeader(request.headers.origin, allowedOriginHostnames);
    if (!origin.ok) {
      forbidden.record(origin.errorCode, { origin: request.headers.origin?.slice(0, 100) });
      refuse(request, response, origin.message);
      return;
    }
    if (!oauth && path.startsWith("/.well-known/")) {
      logger.debug("http_discovery_probe", { path });
      sendJson(
        request,
        response,
        404,
        { error: "not_found", error_description: "This server has no OAuth metadata: it takes a static bearer token, Authorization: Bearer <AUTH_TOKEN>." },
        { connection: "close" },
      );
      return;
    }
    if (oauth && path === "/mcp") {
      oauth.gate.check(request.headers.authorization).then(
        async (verdict) => {
          if (verdict instanceof Response) {
            unauthorized.record(String(verdict.status), {});
            const headers: Record<string, string> = { connection: "close" };
            for (const [name, value] of verdict.headers) if (name !== "content-type" && name !== "content-length") headers[name] = value;
            sendJson(request, response, verdict.status, await verdict.json(), headers);
            return;
          }
          // Node's adapter hands `request.auth` to the SDK's handler as the request's AuthInfo.
          (request as IncomingMessage & { auth?: AuthInfo }).auth = verdict;
          routeMcp(request, response, path);
        },
        (error: unknown) => {
          logger.error("http_internal_error", { path, error });
          sendJsonRpcError(request, response, 500, -32603, "Internal error in the MCP server; see its log.", { connection: "close" });
        },
      );
      return;
    }
    if (checkBearer && !checkBearer(request, response)) return;

    if (path === "/mcp") {
      routeMcp(request, response, path);
      return;
    }
    if (path === "/health" && (request.method === "GET" || request.method === "HEAD")) {
      options.health().then(
        (answer) => sendJson(request, response, answer.httpStatus, answer.body, { "cache-control": "no-store" }),
        (error: unknown) => {
          logger.error("http_internal_error", { path, error });
          sendJson(request, response, 500, { error: "internal_error", error_description: "The health check failed; see the server's log." });
        },
      );
      return;
    }
    sendJson(request, response, 404, { error: "not_found", error_description: `No route for ${request.method} ${path}; MCP is at POST /mcp.` });
  };

  return {
    listener,
    close: async () => {
      unauthorized.flush();
      forbidden.flush();
      overBudget.flush();
      rejected.flush();
      incomplete.flush();
      await handler.close();
    },
  };
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(",") : value;
}

function tooLargeMessage(maxBodyBytes: number): string {
  return (
    `Payload Too Large: the request body must not exceed ${maxBodyBytes} bytes (${(maxBodyBytes / 1_048_576).toFixed(0)} MiB); ` +
    "create_upload takes files up to 25 MB (about 35 MB as base64)."
  );
}
