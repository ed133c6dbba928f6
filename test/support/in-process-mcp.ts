/**
 * The MCP server's HTTP server started inside the calling process (the same modules `npm start` wires),
 * against a given upstream, so a test or benchmark can force garbage collection and read the heap. The sandbox
 * plays Strava by default; with `log: "intervals.icu"` the server serves intervals.icu's tools on its other face.
 * Or, with `startInProcessMcpFromEnv`, built from an environment by the same composition root as `npm start` (the
 * upstream choice, the store it names), for tests of what the server does that need no process of its own.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningSandbox } from "../../sandbox/server.ts";
import { createToolDeps } from "../../tools/runner/create-tool-deps.ts";
import { silentLogger, type Logger } from "../../common/logger.ts";
import { toolTable } from "../../tools/table.ts";
import { createIntervalsToolDeps } from "../../tools/runner/intervals-tool-deps.ts";
import { intervalsToolTable } from "../../tools/intervals-icu/table.ts";
import type { ToolDeps } from "../../tools/runner/tool-deps.ts";
import { TokenFileStore } from "../../credentials/stores/token-file-store.ts";
import { httpSettingsFromEnv } from "../../mcp-adapter/adapter-settings.ts";
import { CallsInFlight } from "../../mcp-adapter/server/calls-in-flight.ts";
import { createMcpServerFactory } from "../../mcp-adapter/server/create-mcp-server.ts";
import { healthBody } from "../../mcp-adapter/http/health.ts";
import { createMcpHttpRoutes } from "../../mcp-adapter/http/http-routes.ts";
import type { BodyBudget } from "../../mcp-adapter/http/body-budget.ts";
import { listenHttp, type HttpLimits } from "../../mcp-adapter/http/http-server.ts";
import { readServerIdentity } from "../../mcp-adapter/server-identity.ts";
import { buildToolCatalog } from "../../mcp-adapter/server/tool-catalog.ts";
import { chooseUpstream, coreSettingsFromEnv, type UpstreamChoice } from "../../mcp-adapter/upstream-choice.ts";

export interface InProcessMcp {
  mcpUrl: string;
  authToken: string;
  close(): Promise<void>;
}

export async function startInProcessMcp(
  sandbox: RunningSandbox,
  options: { logger?: Logger; authToken?: string; budget?: BodyBudget; limits?: HttpLimits; log?: "strava" | "intervals.icu" } = {},
): Promise<InProcessMcp> {
  const authToken = options.authToken ?? "in-process-token";
  const directory = await mkdtemp(join(tmpdir(), "mcp-in-process-"));
  const path = join(directory, "tokens.json");
  await writeFile(
    path,
    JSON.stringify({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret, refresh_token: sandbox.refreshToken() }),
    { mode: 0o600 },
  );
  // Default: logs dropped, since a logger that kept every line would itself grow with the calls.
  const logger = options.logger ?? silentLogger;
  const deps: ToolDeps =
    options.log === "intervals.icu"
      ? createIntervalsToolDeps({
          settings: { apiKey: sandbox.intervalsApiKey, athleteId: "0", apiBase: sandbox.intervalsApiBase },
          keyAdvice: "set INTERVALS_API_KEY",
          logger,
        })
      : createToolDeps({
          store: new TokenFileStore({ path }),
          logger,
          settings: { apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl },
        });
  const table = options.log === "intervals.icu" ? intervalsToolTable : toolTable;
  const identity = readServerIdentity();
  const settings = httpSettingsFromEnv({ HOST: "127.0.0.1", PORT: "0" });
  const listening = await listenHttp(settings, logger, options.limits);
  const exchanges = new CallsInFlight();
  const routes = createMcpHttpRoutes({
    factory: createMcpServerFactory({ identity, catalog: buildToolCatalog(table), deps, calls: new CallsInFlight(), logger }),
    authToken,
    allowedHostnames: settings.allowedHostnames,
    allowedOriginHostnames: settings.allowedOriginHostnames,
    health: () => healthBody({ identity, upstream: "sandbox", credentials: () => deps.credentials.health() }),
    exchanges,
    logger,
    budget: options.budget,
  });
  listening.serve(routes.listener);
  return {
    mcpUrl: listening.mcpUrl,
    authToken,
    close: async () => {
      listening.stopAccepting();
      listening.closeAllConnections();
      await routes.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * The server as `npm start` builds it from `env` (bearer mode over HTTP: AUTH_TOKEN, the core's settings through
 * the composition root), listening on a loopback port of this process; its log lines go to `logger`.
 */
export async function startInProcessMcpFromEnv(
  env: Record<string, string>,
  options: { logger?: Logger } = {},
): Promise<InProcessMcp & { upstream: UpstreamChoice }> {
  const logger = options.logger ?? silentLogger;
  const authToken = env["AUTH_TOKEN"];
  if (authToken === undefined) throw new Error("startInProcessMcpFromEnv needs AUTH_TOKEN in env");
  const upstream = await chooseUpstream(coreSettingsFromEnv(env), env, logger);
  const { deps, table } = upstream.opened;
  const identity = readServerIdentity();
  const settings = httpSettingsFromEnv({ HOST: "127.0.0.1", PORT: "0" });
  const listening = await listenHttp(settings, logger);
  const routes = createMcpHttpRoutes({
    factory: createMcpServerFactory({ identity, catalog: buildToolCatalog(table), deps, calls: new CallsInFlight(), logger }),
    authToken,
    allowedHostnames: settings.allowedHostnames,
    allowedOriginHostnames: settings.allowedOriginHostnames,
    health: () => healthBody({ identity, upstream: upstream.kind, log: upstream.log, credentials: () => deps.credentials.health() }),
    exchanges: new CallsInFlight(),
    logger,
  });
  listening.serve(routes.listener);
  return {
    mcpUrl: listening.mcpUrl,
    authToken,
    upstream,
    close: async () => {
      listening.stopAccepting();
      listening.closeAllConnections();
      await routes.close();
      await deps.credentials.settle();
      await upstream.close();
    },
  };
}

/** `global.gc`, enabled at run time (no --expose-gc flag needed on the command line). */
export async function garbageCollector(): Promise<() => void> {
  const { setFlagsFromString } = await import("node:v8");
  const { runInNewContext } = await import("node:vm");
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}
