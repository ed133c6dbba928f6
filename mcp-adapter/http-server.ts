/**
 * Form A over streamable HTTP: one `Server` connected once to the stateless transport, the express app
 * in front, and a listening `http.Server` with keep-alive tuned for clients behind load balancers.
 */
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Logger } from "../tools/logger.ts";
import type { HttpSettings } from "./adapter-settings.ts";
import { createHttpApp, type HttpAppOptions } from "./http-app.ts";
import type { ServerIdentity } from "./server-identity.ts";
import { StatelessHttpTransport } from "./stateless-http-transport.ts";
import type { UpstreamKind } from "./upstream-choice.ts";

export interface RunningHttpServer {
  /** e.g. http://127.0.0.1:3000/mcp */
  readonly mcpUrl: string;
  readonly port: number;
  /** Stops accepting, lets running calls finish (up to `graceMs`), then closes the MCP server. */
  close(graceMs?: number): Promise<void>;
}

export interface HttpServerOptions {
  mcpServer: Server;
  settings: HttpSettings & { authToken: string };
  identity: ServerIdentity;
  upstream: UpstreamKind;
  logger: Logger;
  /** See createHttpApp; the benchmark turns it off to measure what it saves. */
  shortcut?: boolean;
  /** See createHttpApp: the stored credentials' state for /health. */
  credentialHealth?: HttpAppOptions["credentialHealth"];
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const { settings, logger } = options;
  const transport = new StatelessHttpTransport({ logger });
  await options.mcpServer.connect(transport);
  const listener = createHttpApp({
    shortcut: options.shortcut,
    credentialHealth: options.credentialHealth,
    identity: options.identity,
    upstream: options.upstream,
    authToken: settings.authToken,
    transport,
    logger,
    allowedHostnames: settings.allowedHostnames,
  });
  const server: HttpServer = createServer(listener);
  // Longer than common load-balancer idle timeouts (60 s), so the balancer closes idle connections first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(settings.port, settings.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const hostInUrl = settings.host.includes(":") && !settings.host.startsWith("[") ? `[${settings.host}]` : settings.host;
  const mcpUrl = `http://${hostInUrl}:${port}/mcp`;
  if (!settings.allowedHostnames) {
    logger.warn("host_check_off", {
      host: settings.host,
      message: "Bound beyond loopback: the Host header is not checked; the bearer token is the only protection. Put TLS in front.",
    });
  }

  let closing: Promise<void> | undefined;
  return {
    mcpUrl,
    port,
    close: (graceMs = 5_000) =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
        await Promise.race([stopped, grace]);
        server.closeAllConnections();
        await options.mcpServer.close();
      })()),
  };
}
