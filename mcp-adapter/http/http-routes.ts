/**
 * The MCP server over node:http (`npm start`): the route table (route-table.ts, shared with the hosted
 * function's web-standard edge) decides, in its order, what a request gets; this edge carries out each
 * decision the node way:
 *
 * - refusals (403, 401, the 404 of a discovery probe) answer from the headers and close the connection
 *   without reading the body (http-answers.ts);
 * - OAuth mode's routes go to the OAuth app, whose bodies have a deadline (body-deadline.ts);
 * - /mcp goes to the SDK's handler (`createMcpHandler`, which serves 2026-07-28 and 2025-era clients
 *   statelessly and answers 405 for GET and DELETE; 2025-era POSTs get a JSON body, see mcp-http-handler.ts).
 *   Before it reads a body, the cheap header checks that need no body (Content-Type 415, a declared length
 *   over the limit 413) answer first, and the body reserves its bytes from the shared budget.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import pLimit from "p-limit";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { isJsonContentType, type AuthInfo, type Server } from "@modelcontextprotocol/server";
import type { Logger } from "../../common/logger.ts";
import type { HealthAnswer } from "../../credentials/credential-health.ts";
import { defaultMaxConcurrentRequests } from "../../strava/strava-client.ts";
import { BodyBudget, maxRequestBodyBytes, meteredRequest } from "./body-budget.ts";
import { BodyDeadlineError, enforceBodyDeadline, unauthenticatedBodyDeadlineMs } from "./body-deadline.ts";
import type { CallsInFlight } from "../server/calls-in-flight.ts";
import { sendJson, sendJsonRpcError } from "./http-answers.ts";
import type { RequestListener } from "./http-server.ts";
import { createMcpHttpHandler } from "./mcp-http-handler.ts";
import { createRouteTable, type EdgeRequest } from "./route-table.ts";
import { createRateLimitedLog } from "../../common/rate-limited-log.ts";

/** OAuth mode's part of the edge (authorization/oauth-app.ts). */
export interface OAuthRoutes {
  handles(path: string): boolean;
  /** A path of its own as a log line may show it (a secret in it left out). */
  loggedPath(path: string): string;
  /** Whether a page of any site may call this route (route-table.ts). */
  takesAnyOrigin(path: string): boolean;
  route(request: Request, origin: { address: string | undefined }): Promise<Response>;
  originOf(
    headerValue: (name: string) => string | null | undefined,
    connectionAddress: string | undefined,
  ): { address: string | undefined };
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
  const serveOAuth = oauth
    ? (request: IncomingMessage, response: ServerResponse): Promise<void> => {
        const origin = oauth.originOf((name) => headerText(request.headers[name]), request.socket.remoteAddress);
        return toNodeHandler(
          { fetch: (web: Request) => oauth.route(web, origin) },
          {
            maxRequestBodySize: 64 * 1024,
            // Reading the body is the only step that fails here (the app answers its own faults): a client
            // that left, or one cut off at the deadline (already counted), is no fault of the server's.
            onerror: (error) => {
              if (error instanceof BodyDeadlineError) return;
              if ((error as NodeJS.ErrnoException).code === "ECONNRESET") incomplete.record("client_left");
              else logger.error("http_internal_error", { path: "oauth", error });
            },
          },
        )(request, response);
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
        sendJsonRpcError(
          request,
          response,
          503,
          -32000,
          "Service Unavailable: the server is busy receiving other large requests; try again shortly.",
          {
            "retry-after": "5",
          },
        );
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

  const decide = createRouteTable({
    allowedHostnames,
    allowedOriginHostnames,
    ...(oauth ? { oauth } : { bearerToken: options.authToken }),
    logger,
    refused: { forbidden, unauthorized },
  });

  const listener: RequestListener = (request, response) => {
    exchanges.begin();
    response.once("close", () => exchanges.end());
    const path = (request.url ?? "/").split("?", 1)[0]!;
    const edgeRequest: EdgeRequest = { method: request.method ?? "GET", path, header: (name) => headerText(request.headers[name]) };
    decide(edgeRequest).then(
      (decision) => {
        switch (decision.kind) {
          case "answer":
            sendJson(request, response, decision.status, decision.body, {
              ...decision.headers,
              ...(decision.close ? { connection: "close" } : {}),
            });
            return;
          case "oauth": {
            const logged = oauth?.loggedPath(path) ?? path;
            enforceBodyDeadline(request, unauthenticatedBodyDeadlineMs, () =>
              incomplete.record("deadline", { path: logged, deadline_s: unauthenticatedBodyDeadlineMs / 1000 }),
            );
            // The body has a deadline: a client waiting to be asked for it should not spend it waiting.
            if (request.headers.expect?.toLowerCase() === "100-continue") response.writeContinue();
            serveOAuth?.(request, response).catch((error: unknown) => logger.error("http_internal_error", { path: logged, error }));
            return;
          }
          case "mcp":
            // Node's adapter hands `request.auth` to the SDK's handler as the request's AuthInfo.
            if (decision.auth !== undefined) (request as IncomingMessage & { auth?: AuthInfo }).auth = decision.auth;
            routeMcp(request, response, path);
            return;
          case "health":
            options.health().then(
              (answer) => sendJson(request, response, answer.httpStatus, answer.body, { "cache-control": "no-store" }),
              (error: unknown) => {
                logger.error("http_internal_error", { path, error });
                sendJson(request, response, 500, {
                  error: "internal_error",
                  error_description: "The health check failed; see the server's log.",
                });
              },
            );
        }
      },
      (error: unknown) => {
        logger.error("http_internal_error", { path, error });
        sendJsonRpcError(request, response, 500, -32603, "Internal error in the MCP server; see its log.", { connection: "close" });
      },
    );
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
    "an activity file to upload may be up to 25 MB (about 35 MB as base64)."
  );
}
