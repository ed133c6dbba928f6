/**
 * OAuth mode as one web-standard handler (Request in, Response out) for hosts whose HTTP surface is a
 * fetch function, such as the hosted Lambda function (mcp-adapter/hosted/lambda-handler.ts): the OAuth
 * app's routes, `/mcp` behind the access-token gate and the SDK's handler (the same composition as
 * `npm start`, mcp-adapter/http/mcp-http-handler.ts), `/health`, and 404 for anything else. A browser page
 * may call `/mcp` only from this server's own origin or a loopback page (the SDK's Origin validator).
 * `npm start` keeps its node:http edge (http-routes.ts) with the hardening against hostile clients that
 * a function behind AWS's front end does not need.
 */
import { validateOriginHeader, type McpRequestContext, type Server } from "@modelcontextprotocol/server";
import type { Logger } from "../../common/logger.ts";
import { createMcpHttpHandler } from "../http/mcp-http-handler.ts";
import type { OAuthApp } from "./oauth-app.ts";

export interface OAuthWebHandler {
  /** `connectionAddress`: the address the platform saw the request come from (a function URL's sourceIp). */
  fetch(request: Request, connectionAddress?: string): Promise<Response>;
  close(): Promise<void>;
}

export function createOAuthWebHandler(options: {
  app: OAuthApp;
  factory: (ctx?: McpRequestContext) => Server;
  health: () => Record<string, unknown>;
  logger: Logger;
  maxRequestBodySize: number;
}): OAuthWebHandler {
  const { app, logger } = options;
  const mcp = createMcpHttpHandler(options.factory, {
    maxRequestBodySize: options.maxRequestBodySize,
    onerror: (error) => logger.info("mcp_request_rejected", { message: error.message }),
  });
  const allowedOrigins = [new URL(app.issuer).hostname, "localhost", "127.0.0.1", "[::1]"];
  return {
    fetch: async (request, connectionAddress) => {
      const path = new URL(request.url).pathname;
      if (app.handles(path)) return app.route(request, app.originOf((name) => request.headers.get(name), connectionAddress));
      if (path === "/mcp") {
        const origin = validateOriginHeader(request.headers.get("origin"), allowedOrigins);
        if (!origin.ok) return Response.json({ jsonrpc: "2.0", error: { code: -32000, message: origin.message }, id: null }, { status: 403 });
        const verdict = await app.gate.check(request.headers.get("authorization"));
        if (verdict instanceof Response) return verdict;
        return mcp.fetch(request, { authInfo: verdict });
      }
      if (path === "/health" && (request.method === "GET" || request.method === "HEAD")) {
        return Response.json(options.health(), { headers: { "cache-control": "no-store" } });
      }
      return Response.json({ error: "not_found", error_description: `No route for ${request.method} ${path}; MCP is at POST /mcp.` }, { status: 404 });
    },
    close: () => mcp.close(),
  };
}
