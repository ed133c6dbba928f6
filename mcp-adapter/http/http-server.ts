/**
 * The listening socket of the MCP server over HTTP, bound before anything else starts (a busy PORT is reported
 * at once, naming PORT, before the sandbox or the upstream is touched), with the limits that keep file
 * descriptors and memory for legitimate clients when others misbehave:
 *
 * - a connection cap: past it, new connections are closed at once (counted in the log) instead of
 *   exhausting the process's file descriptors, which the upstream connections and the token file need;
 * - a cap per source (an IPv4 address, an IPv6 /64: common/address-networks.ts) of a sixteenth of that,
 *   256 of 4,096: one host alone can no longer hold every connection (it takes 16 sources to fill the
 *   server), while a proxy or an office's shared address in front of many clients still gets far more than
 *   any client opens (a browser 6 per host, an MCP client a handful). Behind a proxy on this machine every
 *   connection is the proxy's, so this server's few athletes never come near it;
 * - a header timeout: a connection that has not sent its complete headers within 10 s is closed (408),
 *   so slow connections cannot hold the cap (checked every second, not Node's default 30 s);
 * - a request timeout: the whole request, body included, within 2 minutes (a 40 MiB upload needs about
 *   30 s at 10 Mbit/s);
 * - keep-alive longer than common load-balancer idle timeouts (60 s), so the balancer closes first.
 *
 * Requests that arrive between binding and `serve` wait for the server to be ready.
 */
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { addressSource } from "../../common/address-networks.ts";
import type { Logger } from "../../common/logger.ts";
import type { HttpSettings } from "../adapter-settings.ts";
import { createRateLimitedLog } from "../../common/rate-limited-log.ts";
import { StartupError } from "../startup-error.ts";

export type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

export interface HttpLimits {
  maxConnections: number;
  /** Connections at once from one source (an IPv4 address, an IPv6 /64). */
  maxConnectionsPerSource: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

export function defaultHttpLimits(): HttpLimits {
  const maxConnections = connectionCap();
  return {
    maxConnections,
    maxConnectionsPerSource: Math.max(16, Math.floor(maxConnections / 16)),
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 120_000,
  };
}

export interface ListeningHttp {
  /** e.g. http://127.0.0.1:3000/mcp */
  readonly mcpUrl: string;
  readonly port: number;
  /** Starts answering requests (those that arrived before wait for this). */
  serve(listener: RequestListener): void;
  /** Stops accepting connections and closes the idle ones; requests under way continue. */
  stopAccepting(): void;
  /** Closes every connection, idle or not. */
  closeAllConnections(): void;
}

export async function listenHttp(settings: HttpSettings, logger: Logger, limits: HttpLimits = defaultHttpLimits()): Promise<ListeningHttp> {
  const ready = Promise.withResolvers<RequestListener>();
  const server: HttpServer = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: 1_000,
      keepAliveTimeout: 65_000,
    },
    (request, response) => void ready.promise.then((listener) => listener(request, response)),
  );
  server.maxConnections = limits.maxConnections;
  const dropped = createRateLimitedLog({ logger, event: "http_connection_dropped", level: "warn", firstOfEachReason: true });
  server.on("drop", (data?: { remoteAddress?: string }) =>
    dropped.record("max_connections", { max_connections: limits.maxConnections, remote: data?.remoteAddress }),
  );
  const perSource = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const source = addressSource(socket.remoteAddress);
    const held = perSource.get(source) ?? 0;
    if (held >= limits.maxConnectionsPerSource) {
      dropped.record("per_source", { per_source: limits.maxConnectionsPerSource, remote: source });
      socket.destroy();
      return;
    }
    perSource.set(source, held + 1);
    socket.once("close", () => {
      const left = (perSource.get(source) ?? 1) - 1;
      if (left > 0) perSource.set(source, left);
      else perSource.delete(source);
    });
  });
  // Expect: 100-continue is answered by the listener once the headers passed its checks, so a refused
  // upload is never sent (Node would otherwise ask for every body at once).
  server.on("checkContinue", (request: IncomingMessage, response: ServerResponse) => server.emit("request", request, response));

  await once(server.listen(settings.port, settings.host), "listening").catch((error: NodeJS.ErrnoException) => {
    throw listenError(error, settings);
  });
  server.on("error", (error) => logger.error("http_server_error", { error }));
  const port = (server.address() as AddressInfo).port;
  const hostInUrl = settings.host.includes(":") && !settings.host.startsWith("[") ? `[${settings.host}]` : settings.host;
  return {
    mcpUrl: `http://${hostInUrl}:${port}/mcp`,
    port,
    serve: (listener) => ready.resolve(listener),
    stopAccepting: () => {
      server.close();
      server.closeIdleConnections();
      dropped.flush();
    },
    closeAllConnections: () => server.closeAllConnections(),
  };
}

/** Why HOST:PORT could not be listened on, as a one-line StartupError naming the variable to change (npm start and npm run hosted). */
export function listenError(error: NodeJS.ErrnoException, settings: { host: string; port: number }): Error {
  switch (error.code) {
    case "EADDRINUSE":
      return new StartupError(
        `PORT ${settings.port} is already in use on ${settings.host}: another process (perhaps another copy of this server) listens there. ` +
          "Stop it, or set PORT to a free port (PORT=0 picks one and logs it).",
      );
    case "EACCES":
      return new StartupError(
        `PORT ${settings.port} on ${settings.host} needs privileges this process does not have; set PORT to 1024 or above.`,
      );
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new StartupError(
        `HOST ${settings.host} is not an address of this machine; set HOST to one of its addresses (default 127.0.0.1).`,
      );
    default:
      return new StartupError(`Could not listen on ${settings.host}:${settings.port} (HOST, PORT): ${error.message}.`);
  }
}

/**
 * Connections at once: 4,096, or half the open-file limit when that is lower, so the rest stays for
 * upstream connections and files. (Node raises its soft limit to the hard limit at start; this reads
 * what it got.)
 */
function connectionCap(): number {
  const fallback = 4096;
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((text) => text.startsWith("Max open files"));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isFinite(soft) && soft > 0 ? Math.max(64, Math.min(fallback, Math.floor(soft / 2))) : fallback;
  } catch {
    return fallback;
  }
}
