/**
 * The MCP server over node:http (`npm start`): the route table (route-table.ts, shared with the hosted
 * function's web-standard edge) decides, in its order, what a request gets; this edge carries out each
 * decision the node way:
 *
 * - refusals (403, 401, the 404 of a discovery probe) answer from the headers and close the connection
 *   without reading the body (http-answers.ts);
 * - OAuth mode's routes go to the OAuth app, whose bodies have a deadline (oauth-node-route.ts);
 * - /mcp goes to the SDK's handler, after the header checks that need no body and within the shared body
 *   budget (mcp-node-route.ts);
 * - /health answers what the front end says of the server and its credentials.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo, Server } from "@modelcontextprotocol/server";
import type { Logger } from "../../common/logger.ts";
import type { HealthAnswer } from "../../credentials/credential-health.ts";
import { BodyBudget, maxRequestBodyBytes } from "./body-budget.ts";
import type { CallsInFlight } from "../server/calls-in-flight.ts";
import { createEdgeLogs } from "./edge-logs.ts";
import { sendJson, sendJsonRpcError } from "./http-answers.ts";
import type { RequestListener } from "./http-server.ts";
import { createMcpNodeRoute, type McpNodeRoute } from "./mcp-node-route.ts";
import { createOAuthNodeRoute, headerText, type OAuthAppRoutes } from "./oauth-node-route.ts";
import { createRouteTable, type EdgeRequest, type RouteDecision } from "./route-table.ts";
import type { OAuthPaths } from "./route-steps/route-step.ts";

/** OAuth mode's part of the edge (authorization/oauth-app.ts): its paths in the route table, and its routes. */
export interface OAuthRoutes extends OAuthPaths, OAuthAppRoutes {}

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

/** The routes a decision may send a request to, each carried out the node way. */
interface NodeRoutes {
  oauth: ((request: IncomingMessage, response: ServerResponse, path: string) => void) | undefined;
  mcp: McpNodeRoute;
  health: () => Promise<HealthAnswer>;
  logger: Logger;
}

export function createMcpHttpRoutes(options: McpHttpRoutesOptions): McpHttpRoutes {
  const { logger, exchanges, oauth } = options;
  const logs = createEdgeLogs(logger);
  const routes: NodeRoutes = {
    oauth: oauth ? createOAuthNodeRoute(oauth, { logger, incomplete: logs.incomplete }) : undefined,
    mcp: createMcpNodeRoute({
      factory: options.factory,
      maxBodyBytes: options.maxBodyBytes ?? maxRequestBodyBytes,
      budget: options.budget ?? new BodyBudget(),
      logger,
      logs,
    }),
    health: options.health,
    logger,
  };
  const decide = createRouteTable({
    allowedHostnames: options.allowedHostnames,
    allowedOriginHostnames: options.allowedOriginHostnames,
    ...(oauth ? { oauth } : { bearerToken: options.authToken }),
    logger,
    refused: { forbidden: logs.forbidden, unauthorized: logs.unauthorized },
  });

  const listener: RequestListener = (request, response) => {
    exchanges.begin();
    response.once("close", () => exchanges.end());
    const path = (request.url ?? "/").split("?", 1)[0]!;
    const edgeRequest: EdgeRequest = { method: request.method ?? "GET", path, header: (name) => headerText(request.headers[name]) };
    decide(edgeRequest).then(
      (decision) => carryOut(decision, request, response, path, routes),
      (error: unknown) => {
        logger.error("http_internal_error", { path, error });
        sendJsonRpcError(request, response, 500, -32603, "Internal error in the MCP server; see its log.", { connection: "close" });
      },
    );
  };

  return {
    listener,
    close: async () => {
      logs.flush();
      await routes.mcp.close();
    },
  };
}

/** The route table's decision carried out on node:http. */
function carryOut(decision: RouteDecision, request: IncomingMessage, response: ServerResponse, path: string, routes: NodeRoutes): void {
  switch (decision.kind) {
    case "answer":
      sendJson(request, response, decision.status, decision.body, {
        ...decision.headers,
        ...(decision.close ? { connection: "close" } : {}),
      });
      return;
    case "oauth":
      routes.oauth?.(request, response, path);
      return;
    case "mcp":
      // Node's adapter hands `request.auth` to the SDK's handler as the request's AuthInfo.
      if (decision.auth !== undefined) (request as IncomingMessage & { auth?: AuthInfo }).auth = decision.auth;
      routes.mcp.route(request, response, path);
      return;
    case "health":
      routes.health().then(
        (answer) => sendJson(request, response, answer.httpStatus, answer.body, { "cache-control": "no-store" }),
        (error: unknown) => {
          routes.logger.error("http_internal_error", { path, error });
          sendJson(request, response, 500, {
            error: "internal_error",
            error_description: "The health check failed; see the server's log.",
          });
        },
      );
  }
}
