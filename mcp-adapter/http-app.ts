/**
 * The express application of Form A over HTTP, in the order a request meets it:
 * 1. Host header check against DNS rebinding (when bound to loopback), from the SDK;
 * 2. bearer check, before anything else reads the request;
 * 3. GET /health; POST /mcp; any other method on /mcp is 405; anything else 404.
 * Every answer has a JSON body. There is no body-parser: POST /mcp reads its own body with a limit.
 *
 * The request listener in front of it takes one shortcut: a `POST /mcp` whose Host was accepted before
 * and whose bearer token is valid goes straight to the MCP handler, skipping the express router
 * (a measurable share of a call's CPU, see BENCHMARKS.md). Anything else, including every request
 * that would fail a check, goes through the app, so every error answer comes from one place.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import express, { type NextFunction, type Request, type Response } from "express";
import type { Logger } from "../tools/logger.ts";
import { healthAnswer } from "../tools/service-health.ts";
import type { CredentialHealth } from "../tools/token-manager.ts";
import { createBearerCheck, createBearerVerifier } from "./bearer-check.ts";
import { createHostCheck } from "./host-check.ts";
import { sendJson, sendJsonRpcError } from "./json-rpc-reply.ts";
import { createMcpPostHandler } from "./mcp-post-handler.ts";
import type { ServerIdentity } from "./server-identity.ts";
import type { StatelessHttpTransport } from "./stateless-http-transport.ts";
import type { UpstreamKind } from "./upstream-choice.ts";

export interface HttpAppOptions {
  identity: ServerIdentity;
  upstream: UpstreamKind;
  authToken: string;
  transport: StatelessHttpTransport;
  logger: Logger;
  /** Host names accepted in the Host header; undefined turns the check off (non-loopback binds). */
  allowedHostnames: string[] | undefined;
  maxBodyBytes?: number;
  /** Take the POST /mcp shortcut past the router (default true; the benchmark compares both). */
  shortcut?: boolean;
  /** The stored credentials' state for /health (TokenManager.health()). */
  credentialHealth?: (() => Promise<CredentialHealth>) | undefined;
}

export type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

export function createHttpApp(options: HttpAppOptions): RequestListener {
  const { logger } = options;
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  const hostCheck = options.allowedHostnames ? createHostCheck(options.allowedHostnames) : undefined;
  if (hostCheck) app.use(hostCheck.middleware);
  app.use(createBearerCheck({ token: options.authToken, logger }));

  const identity = { name: options.identity.name, version: options.identity.version, upstream: options.upstream };
  app.get("/health", (_request, response, next) => {
    // The stored credentials' state comes from the core (a dead refresh token answers 503; tools/service-health.ts).
    (options.credentialHealth?.() ?? Promise.resolve(undefined)).then((credentials) => {
      const answer = healthAnswer(identity, credentials);
      sendJson(response, answer.httpStatus, JSON.stringify(answer.body), { "cache-control": "no-store" });
    }, next);
  });

  const handlePost = createMcpPostHandler({ transport: options.transport, logger, maxBodyBytes: options.maxBodyBytes });
  app.post("/mcp", (request, response, next) => {
    handlePost(request, response).catch(next);
  });
  app.all("/mcp", (_request, response) => {
    // Stateless: no server-to-client SSE stream (GET) and no session to end (DELETE).
    sendJsonRpcError(response, 405, -32000, "Method not allowed: this stateless MCP endpoint takes POST only.", { allow: "POST" });
  });

  app.use((request: Request, response: Response) => {
    sendJson(response, 404, JSON.stringify({ error: "not_found", error_description: `No route for ${request.method} ${request.path}; MCP is at POST /mcp.` }));
  });
  app.use((error: unknown, request: Request, response: Response, _next: NextFunction) => {
    logger.error("http_internal_error", { method: request.method, path: request.path, error });
    if (response.headersSent) {
      response.destroy();
      return;
    }
    sendJsonRpcError(response, 500, -32603, "Internal error in the MCP server; see its log.");
  });

  if (options.shortcut === false) return app;
  const verifyBearer = createBearerVerifier(options.authToken);
  return (request, response) => {
    if (
      request.method === "POST" &&
      request.url === "/mcp" &&
      (hostCheck === undefined || hostCheck.isKnownGood(request.headers.host)) &&
      verifyBearer(request.headers.authorization) === "accepted"
    ) {
      handlePost(request, response).catch((error: unknown) => {
        logger.error("http_internal_error", { method: "POST", path: "/mcp", error });
        if (response.headersSent) response.destroy();
        else sendJsonRpcError(response, 500, -32603, "Internal error in the MCP server; see its log.");
      });
      return;
    }
    app(request, response);
  };
}
