/**
 * `/mcp` on node:http: the SDK's handler (`createMcpHandler`, which serves 2026-07-28 and 2025-era clients
 * statelessly and answers 405 for GET and DELETE; 2025-era POSTs get a JSON body, see mcp-http-handler.ts).
 * Before a POST's body is read, the cheap header checks that need no body answer first (Content-Type 415, a
 * declared length over the limit 413); then the request waits its turn (as many exchanges inside the SDK at
 * once as the core sends upstream at once) and its body reserves its bytes from the shared budget
 * (body-budget.ts), or is refused with 503 when the budget stays spent.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import pLimit from "p-limit";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { isJsonContentType, type Server } from "@modelcontextprotocol/server";
import type { Logger } from "../../common/logger.ts";
import { defaultMaxConcurrentRequests } from "../../strava/strava-client.ts";
import { meteredRequest, type BodyBudget } from "./body-budget.ts";
import type { EdgeLogs } from "./edge-logs.ts";
import { sendJsonRpcError } from "./http-answers.ts";
import { createMcpHttpHandler } from "./mcp-http-handler.ts";

export interface McpNodeRoute {
  route(request: IncomingMessage, response: ServerResponse, path: string): void;
  /** Closes the SDK's handler. */
  close(): Promise<void>;
}

export function createMcpNodeRoute(options: {
  factory: () => Server;
  maxBodyBytes: number;
  budget: BodyBudget;
  logger: Logger;
  logs: Pick<EdgeLogs, "rejected" | "overBudget">;
}): McpNodeRoute {
  const { maxBodyBytes, logger } = options;
  const handler = createMcpHttpHandler(options.factory, {
    maxRequestBodySize: maxBodyBytes,
    // Requests the SDK refused (a bad protocol version, a malformed envelope): the client got the answer.
    onerror: (error) => options.logs.rejected.record(error.name, { message: error.message }),
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
    if (headerRefusal(request, response, maxBodyBytes)) return;
    const left = new AbortController();
    response.once("close", () => {
      // Only a client that left before its answer aborts (an abort builds a DOMException with a stack).
      if (!response.writableFinished) left.abort();
    });
    await admit(() => serveWithinBudget(request, response, { serveMcp, budget: options.budget, left: left.signal, logs: options.logs }));
  };
  return {
    route: (request, response, path) => {
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
    },
    close: () => handler.close(),
  };
}

/** The checks a POST's headers allow before its body is read: 415 for a body that is not JSON, 413 for a declared length over the limit. */
function headerRefusal(request: IncomingMessage, response: ServerResponse, maxBodyBytes: number): boolean {
  if (!isJsonContentType(request.headers["content-type"])) {
    sendJsonRpcError(request, response, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    return true;
  }
  const declared = Number(request.headers["content-length"]);
  if (declared > maxBodyBytes) {
    sendJsonRpcError(request, response, 413, -32000, tooLargeMessage(maxBodyBytes));
    return true;
  }
  return false;
}

/** Once admitted: the body's bytes reserved from the budget (503 with Retry-After when they never are), then the SDK's handler. */
async function serveWithinBudget(
  request: IncomingMessage,
  response: ServerResponse,
  context: {
    serveMcp: (request: IncomingMessage, response: ServerResponse) => Promise<void>;
    budget: BodyBudget;
    left: AbortSignal;
    logs: Pick<EdgeLogs, "overBudget">;
  },
): Promise<void> {
  const { budget } = context;
  if (response.destroyed) return; // the client gave up while it waited
  const metered = await meteredRequest(request, budget, context.left);
  if (metered === undefined) {
    if (response.destroyed) return;
    context.logs.overBudget.record("wait_over", { budget_bytes: budget.capacity, wait_ms: budget.maxWaitMs });
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
  await context.serveMcp(metered.request, response);
}

function tooLargeMessage(maxBodyBytes: number): string {
  return (
    `Payload Too Large: the request body must not exceed ${maxBodyBytes} bytes (${(maxBodyBytes / 1_048_576).toFixed(0)} MiB); ` +
    "an activity file to upload may be up to 25 MB (about 35 MB as base64)."
  );
}
