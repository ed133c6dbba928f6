/**
 * OAuth mode as one web-standard handler (Request in, Response out) for hosts whose HTTP surface is a
 * fetch function, such as the hosted Lambda function (mcp-adapter/hosted/lambda-handler.ts). The route
 * table it follows is the node:http edge's own (mcp-adapter/http/route-table.ts): the OAuth app's routes,
 * the Origin check (this server's own origin or a loopback page), `/mcp` behind the access-token gate and
 * the SDK's handler (mcp-adapter/http/mcp-http-handler.ts), `/health`, and 404 for anything else. Behind a
 * function URL the Host is AWS's, so it is not checked; the node:http edge's limits on connections and
 * bodies are AWS's front end's business here.
 */
import type { McpRequestContext, Server } from "@modelcontextprotocol/server";
import { createRateLimitedLog } from "../../common/rate-limited-log.ts";
import { createRouteTable } from "./route-table.ts";
import type { Logger } from "../../common/logger.ts";
import { createMcpHttpHandler } from "./mcp-http-handler.ts";
import type { OAuthApp } from "../../authorization/oauth-app.ts";

export interface OAuthWebHandler {
  /** `connectionAddress`: the address the platform saw the request come from (a function URL's sourceIp). */
  fetch(request: Request, connectionAddress?: string): Promise<Response>;
  close(): Promise<void>;
}

export function createOAuthWebHandler(options: {
  app: OAuthApp;
  factory: (ctx?: McpRequestContext) => Server;
  health: () => Record<string, unknown> | Promise<Record<string, unknown>>;
  logger: Logger;
  maxRequestBodySize: number;
}): OAuthWebHandler {
  const { app, logger } = options;
  const mcp = createMcpHttpHandler(options.factory, {
    maxRequestBodySize: options.maxRequestBodySize,
    onerror: (error) => logger.info("mcp_request_rejected", { message: error.message }),
  });
  const refused = {
    forbidden: createRateLimitedLog({ logger, event: "http_forbidden", level: "warn" }),
    unauthorized: createRateLimitedLog({ logger, event: "http_unauthorized" }),
  };
  const decide = createRouteTable({
    // Behind a function URL the host is AWS's (or the operator's domain): only the Origin is checked.
    allowedHostnames: undefined,
    allowedOriginHostnames: [new URL(app.issuer).hostname, "localhost", "127.0.0.1", "[::1]"],
    oauth: app,
    logger,
    refused,
  });
  return {
    fetch: async (request, connectionAddress) => {
      const url = new URL(request.url);
      const decision = await decide({
        method: request.method,
        path: url.pathname,
        header: (name) => request.headers.get(name) ?? undefined,
      });
      switch (decision.kind) {
        case "answer":
          return Response.json(decision.body, { status: decision.status, ...(decision.headers ? { headers: decision.headers } : {}) });
        case "oauth":
          return app.route(
            request,
            app.originOf((name) => request.headers.get(name), connectionAddress),
          );
        case "mcp":
          return mcp.fetch(request, decision.auth ? { authInfo: decision.auth } : {});
        case "health":
          return Response.json(await options.health(), { headers: { "cache-control": "no-store" } });
      }
    },
    close: async () => {
      refused.forbidden.flush();
      refused.unauthorized.flush();
      await mcp.close();
    },
  };
}
