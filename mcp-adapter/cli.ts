/**
 * The MCP server's entry: HTTP on HOST:PORT (default 127.0.0.1:3000), or stdio with --stdio. Started by
 * mcp-adapter/start.mjs from the built JavaScript (`npm start`, the package's bin, MCP clients).
 *
 * Start-up order: settings first (a bad one, or both training logs set at once, exits non-zero before anything
 * starts), then the HTTP port (a busy PORT is named before anything else starts), the bearer token, the upstream
 * (the composition root's: Strava or intervals.icu, or the embedded sandbox playing one), and the transport
 * serving the one server factory, with the tools of the log served. SIGINT,
 * SIGTERM and (stdio) the end of standard input run the one shutdown sequence (shutdown.ts). Each
 * transport's modules load only when it is chosen: a stdio client waits for nothing HTTP needs.
 * Every line this process writes on standard error is one JSON log event, except the short help text
 * for a person when standard error is a terminal; standard output is protocol only.
 */
import { createJsonLogger, stderrLogDestination, type Logger } from "../common/logger.ts";
import { commandFromArgs, httpSettingsFromEnv, logLevelFromEnv, type HttpSettings } from "./adapter-settings.ts";
import type { ListeningHttp } from "./http/http-server.ts";
import { CallsInFlight } from "./server/calls-in-flight.ts";
import { createMcpServerFactory } from "./server/create-mcp-server.ts";
import { readServerIdentity } from "./server-identity.ts";
import { createShutdown, httpShutdownSteps, type ShutdownSteps } from "./shutdown.ts";
import { buildToolCatalog } from "./server/tool-catalog.ts";
import { chooseUpstream, coreSettingsFromEnv, type UpstreamChoice } from "./upstream-choice.ts";
import { messageOf } from "../common/named-error.ts";
import { readSetting } from "../common/settings/setting.ts";
import { mcpAuth } from "../common/settings/server-variables.ts";

const logLines = stderrLogDestination();

async function main(): Promise<void> {
  // One logger, made once LOG_LEVEL is read (each costs a start the compiling of its redaction); a failure
  // before that is logged at the default level.
  let logger: Logger | undefined;
  let upstream: UpstreamChoice | undefined;
  try {
    const command = commandFromArgs(process.argv.slice(2));
    if ("print" in command) {
      process.stdout.write(command.print === "help" ? (await import("./usage-text.ts")).usage : `${readServerIdentity().version}\n`);
      return;
    }
    logger = createJsonLogger(logLines, logLevelFromEnv(process.env), { service: "mcp" });
    const http = command.run === "http" ? httpSettingsFromEnv(process.env) : undefined;
    const oauthMode = http !== undefined && readSetting(process.env, mcpAuth) === "oauth";
    // OAuth mode reads its own (Strava only: mcp-adapter/oauth-upstream.ts, through the same root).
    const core = oauthMode ? undefined : coreSettingsFromEnv(process.env);
    const identity = readServerIdentity();
    const web = http ? await loadHttpTransport() : undefined;
    const listening = http && web ? await web.listenHttp(http, logger) : undefined;
    if (http && listening && web && oauthMode) {
      // OAuth mode (MCP_AUTH=oauth): athletes sign in with Strava; mcp-adapter/http/serve-oauth-http.ts.
      const { serveOAuthHttp } = await import("./http/serve-oauth-http.ts");
      await serveOAuthHttp({
        http,
        listening,
        createMcpHttpRoutes: web.createMcpHttpRoutes,
        identity,
        logger,
        flushLogs: () => logLines.flushSync?.(),
      });
      return;
    }
    const auth =
      http && web
        ? await web.resolveAuthToken(process.env, logger, { host: http.host, exposed: http.allowedHostnames === undefined })
        : undefined;

    if (core === undefined) throw new Error("OAuth mode starts above");
    upstream = await chooseUpstream(core, process.env, logger);
    const { deps, table } = upstream.opened;
    const calls = new CallsInFlight();
    const factory = createMcpServerFactory({ identity, catalog: buildToolCatalog(table), deps, calls, logger });
    const served: Served = { identity, upstream, factory, calls, logger };
    const transport =
      listening && http && auth && web
        ? { steps: serveBearerHttp(served, { settings: http, listening, auth, web }), ended: undefined }
        : await serveStdio(served);
    const shutdown = createShutdown({ steps: transport.steps, logger });
    void transport.ended?.then(() => shutdown("stdin closed"));
    process.once("SIGINT", () => void shutdown("SIGINT"));
    process.once("SIGTERM", () => void shutdown("SIGTERM"));
  } catch (error) {
    (logger ?? createJsonLogger(logLines, "info", { service: "mcp" })).error("startup_failed", { message: messageOf(error) });
    await upstream?.close().catch(() => {});
    process.exit(1);
  }
}

/** What either transport serves: the one server factory on the chosen upstream, and the calls it has under way. */
interface Served {
  identity: ReturnType<typeof readServerIdentity>;
  upstream: UpstreamChoice;
  factory: ReturnType<typeof createMcpServerFactory>;
  calls: CallsInFlight;
  logger: Logger;
}

type HttpTransport = Awaited<ReturnType<typeof loadHttpTransport>>;

/** Bearer mode over HTTP: the routes on the listening socket, what start-up says, and the steps its shutdown takes. */
function serveBearerHttp(
  served: Served,
  http: {
    settings: HttpSettings;
    listening: ListeningHttp;
    auth: Awaited<ReturnType<HttpTransport["resolveAuthToken"]>>;
    web: HttpTransport;
  },
): ShutdownSteps {
  const { identity, upstream, logger } = served;
  const { settings, listening, auth, web } = http;
  const { deps } = upstream.opened;
  const exchanges = new CallsInFlight();
  const routes = web.createMcpHttpRoutes({
    factory: served.factory,
    authToken: auth.token,
    allowedHostnames: settings.allowedHostnames,
    allowedOriginHostnames: settings.allowedOriginHostnames,
    health: () => web.healthBody({ identity, upstream: upstream.kind, log: upstream.log, credentials: () => deps.credentials.health() }),
    exchanges,
    logger,
  });
  listening.serve(routes.listener);
  if (!settings.allowedHostnames) {
    logger.warn("host_check_off", {
      host: settings.host,
      message: "Bound beyond loopback: the Host header is not checked; the bearer token is the only protection. Put TLS in front.",
    });
  }
  logger.info("listening", {
    transport: "http",
    url: listening.mcpUrl,
    port: listening.port,
    upstream: upstream.kind,
    log: upstream.log,
    version: identity.version,
  });
  if (process.stderr.isTTY) {
    logLines.flushSync?.();
    process.stderr.write(
      web.httpBanner({
        mcpUrl: listening.mcpUrl,
        version: identity.version,
        upstream: upstream.kind,
        log: upstream.log,
        token: auth.source,
        unusedTokenFile: upstream.unusedTokenFile,
      }),
    );
  }
  return httpShutdownSteps({
    listening,
    exchanges,
    routes,
    settleCore: () => deps.credentials.settle(),
    closeUpstream: () => upstream.close(),
  });
}

/** stdio: the server on standard input and output, what start-up says, the steps its shutdown takes, and when standard input ends. */
async function serveStdio(served: Served): Promise<{ steps: ShutdownSteps; ended: Promise<unknown> }> {
  const { identity, upstream, calls, logger } = served;
  if (readSetting(process.env, mcpAuth) === "oauth") {
    logger.warn("mcp_auth_ignored", {
      message: "MCP_AUTH=oauth applies to HTTP; over stdio the client starts the server itself and no authorization is needed.",
    });
  }
  const { startStdioServer, maxRequestBodyBytes, stdioBanner } = await loadStdioTransport();
  const stdio = startStdioServer({ factory: served.factory, maxMessageBytes: maxRequestBodyBytes, logger });
  logger.info("listening", { transport: "stdio", upstream: upstream.kind, log: upstream.log, version: identity.version });
  if (process.stdin.isTTY && process.stderr.isTTY) {
    logLines.flushSync?.();
    process.stderr.write(stdioBanner);
  }
  const steps: ShutdownSteps = {
    stopAccepting: () => stdio.stopReading(),
    finishCalls: (graceMs) => calls.finished(graceMs),
    callsRunning: () => calls.running,
    closeTransport: () => stdio.close(),
    settleCore: () => upstream.opened.deps.credentials.settle(),
    closeUpstream: () => upstream.close(),
  };
  return { steps, ended: stdio.ended };
}

/** What HTTP needs (the SDK's Node adapter among it), loaded only for HTTP. */
async function loadHttpTransport() {
  const [server, routes, token, health, banner] = await Promise.all([
    import("./http/http-server.ts"),
    import("./http/http-routes.ts"),
    import("./auth-token.ts"),
    import("./http/health.ts"),
    import("./terminal-banner.ts"),
  ]);
  return {
    listenHttp: server.listenHttp,
    createMcpHttpRoutes: routes.createMcpHttpRoutes,
    resolveAuthToken: token.resolveAuthToken,
    healthBody: health.healthBody,
    httpBanner: banner.httpBanner,
  };
}

/** What stdio needs, loaded only for stdio. */
async function loadStdioTransport() {
  const [stdio, budget, banner] = await Promise.all([
    import("./stdio/stdio-server.ts"),
    import("./http/body-budget.ts"),
    import("./terminal-banner.ts"),
  ]);
  return { startStdioServer: stdio.startStdioServer, maxRequestBodyBytes: budget.maxRequestBodyBytes, stdioBanner: banner.stdioBanner };
}

process.on("uncaughtException", (error) => {
  createJsonLogger(logLines, "error", { service: "mcp" }).error("uncaught_exception", { error });
  process.exit(1);
});

await main();
