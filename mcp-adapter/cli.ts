/**
 * `npm start` (HTTP on HOST:PORT, default 127.0.0.1:3000) and `npm start --silent -- --stdio`.
 *
 * Start-up order: settings first (a bad one exits non-zero before anything starts), then the upstream
 * (Strava credentials, or the embedded sandbox), then the one MCP server and its transport. SIGINT and
 * SIGTERM (and, over stdio, standard input closing) stop accepting, let running calls finish briefly, wait
 * for a token refresh in progress and its save (at most tokens.settleBoundMs), close everything and exit 0.
 * Every line this process writes on standard error is one JSON log event; standard output is protocol only.
 */
import { randomBytes } from "node:crypto";
import { createBatchedLineWriter } from "../tools/batched-line-writer.ts";
import { createJsonLogger, type Logger } from "../tools/logger.ts";
import { createToolDeps } from "../tools/create-tool-deps.ts";
import { toolTable } from "../tools/table.ts";
import { httpSettingsFromEnv, logLevelFromEnv, transportFromArgs } from "./adapter-settings.ts";
import { createMcpServer } from "./create-mcp-server.ts";
import { createNodeHttpFetch } from "./node-http-fetch.ts";
import { startHttpServer } from "./http-server.ts";
import { readServerIdentity } from "./server-identity.ts";
import { startStdioServer } from "./stdio-server.ts";
import { buildToolCatalog } from "./tool-catalog.ts";
import { chooseUpstream, type UpstreamChoice } from "./upstream-choice.ts";

/** Standard error, with the lines of one event-loop turn joined into one write (a line per tool call adds up). */
const logLines = createBatchedLineWriter(process.stderr);

async function main(): Promise<void> {
  let logger: Logger = createJsonLogger(logLines, "info", { service: "mcp" });
  let upstream: UpstreamChoice | undefined;
  try {
    logger = createJsonLogger(logLines, logLevelFromEnv(process.env), { service: "mcp" });
    const mode = transportFromArgs(process.argv.slice(2));
    const http = mode === "http" ? httpSettingsFromEnv(process.env) : undefined;
    const identity = readServerIdentity();

    upstream = await chooseUpstream(process.env, logger);
    const deps = createToolDeps({ store: upstream.store, logger, settings: upstream.settings, fetch: createNodeHttpFetch() });
    const mcpServer = createMcpServer({ identity, catalog: buildToolCatalog(toolTable), deps });
    mcpServer.onerror = (error) => logger.warn("mcp_protocol_error", { error });

    let stop: () => Promise<void> = async () => {};
    let stopping = false;
    const chosen = upstream;
    const shutdown = async (reason: string): Promise<void> => {
      if (stopping) return;
      stopping = true;
      logger.info("stopping", { reason });
      try {
        // Calls get their grace period while a token refresh in progress finishes and is saved (bounded: tokens.settleBoundMs).
        await Promise.all([stop(), deps.tokens.settle()]);
        await chosen.close();
        logger.info("stopped", { reason });
        process.exit(0);
      } catch (error) {
        logger.error("shutdown_failed", { error });
        process.exit(1);
      }
    };

    if (http) {
      let authToken = http.authToken;
      if (authToken === undefined) {
        authToken = randomBytes(32).toString("base64url");
        // Printed once, on purpose: without it nobody could call this server. Set AUTH_TOKEN to avoid it.
        logger.warn("auth_token_generated", {
          auth_token: authToken,
          message: "AUTH_TOKEN is not set, so this token was generated for this run; clients must send Authorization: Bearer <auth_token>. Set AUTH_TOKEN to choose your own.",
        });
      }
      const running = await startHttpServer({
        mcpServer,
        settings: { ...http, authToken },
        identity,
        upstream: upstream.kind,
        logger,
        credentialHealth: () => deps.tokens.health(),
      });
      logger.info("listening", { transport: "http", url: running.mcpUrl, port: running.port, upstream: upstream.kind, version: identity.version });
      stop = () => running.close();
    } else {
      const running = await startStdioServer(mcpServer);
      logger.info("listening", { transport: "stdio", upstream: upstream.kind, version: identity.version });
      stop = () => running.close();
      void running.ended.then(() => shutdown("stdin closed"));
    }
    process.once("SIGINT", () => void shutdown("SIGINT"));
    process.once("SIGTERM", () => void shutdown("SIGTERM"));
  } catch (error) {
    logger.error("startup_failed", { message: error instanceof Error ? error.message : String(error) });
    await upstream?.close().catch(() => {});
    process.exit(1);
  }
}

process.on("uncaughtException", (error) => {
  createJsonLogger(logLines, "error", { service: "mcp" }).error("uncaught_exception", { error });
  process.exit(1);
});

await main();
