/**
 * The route table's last step, which always decides: /mcp to the SDK's handler (any method: it answers 405
 * for GET and DELETE itself), GET or HEAD /health, and 404 for anything else, saying where MCP is.
 */
import type { RouteDecision, RouteStep } from "./route-step.ts";

export const mcpOrHealth: RouteStep = (request): RouteDecision => {
  if (request.path === "/mcp") return { kind: "mcp", auth: undefined };
  if (request.path === "/health" && (request.method === "GET" || request.method === "HEAD")) return { kind: "health" };
  return {
    kind: "answer",
    status: 404,
    body: { error: "not_found", error_description: `No route for ${request.method} ${request.path}; MCP is at POST /mcp.` },
    close: false,
  };
};
