/**
 * Form A wired exactly as mcp-adapter/cli.ts wires it over HTTP, with one thing that varies, for
 * comparison in the benchmark only:
 *
 *   --fetch node-http | builtin   the upstream fetch: ours on node:http keep-alive agents
 *                                 (mcp-adapter/node-http-fetch.ts, what cli.ts uses), or Node's built-in (undici)
 *
 * Prints the same `listening` log line as cli.ts.
 */
import { parseArgs } from "node:util";
import { createJsonLogger } from "../common/logger.ts";
import { createToolDeps } from "../tools/create-tool-deps.ts";
import { toolTable } from "../tools/table.ts";
import { httpSettingsFromEnv, logLevelFromEnv } from "../mcp-adapter/adapter-settings.ts";
import { CallsInFlight } from "../mcp-adapter/calls-in-flight.ts";
import { createMcpServerFactory } from "../mcp-adapter/create-mcp-server.ts";
import { healthBody } from "../mcp-adapter/health.ts";
import { createMcpHttpRoutes } from "../mcp-adapter/http-routes.ts";
import { listenHttp } from "../mcp-adapter/http-server.ts";
import { createNodeHttpFetch } from "../mcp-adapter/node-http-fetch.ts";
import { readServerIdentity } from "../mcp-adapter/server-identity.ts";
import { buildToolCatalog } from "../mcp-adapter/tool-catalog.ts";
import { chooseUpstream } from "../mcp-adapter/upstream-choice.ts";

const { values } = parseArgs({ options: { fetch: { type: "string", default: "node-http" } } });
if (values.fetch !== "node-http" && values.fetch !== "builtin") throw new Error(`--fetch must be node-http or builtin; got ${values.fetch}`);
const logger = createJsonLogger(process.stderr, logLevelFromEnv(process.env), { service: "mcp-variant" });
const settings = httpSettingsFromEnv(process.env);
const identity = readServerIdentity();
const listening = await listenHttp(settings, logger);
const upstream = await chooseUpstream(process.env, logger);
const deps = createToolDeps({
  store: upstream.store,
  logger,
  settings: upstream.settings,
  ...(values.fetch === "node-http" ? { fetch: createNodeHttpFetch() } : {}),
});
const routes = createMcpHttpRoutes({
  factory: createMcpServerFactory({ identity, catalog: buildToolCatalog(toolTable), deps, calls: new CallsInFlight(), logger }),
  authToken: settings.authToken ?? "bench",
  allowedHostnames: settings.allowedHostnames,
  allowedOriginHostnames: settings.allowedOriginHostnames,
  health: () => healthBody({ identity, upstream: upstream.kind, credentials: () => deps.tokens.health() }),
  exchanges: new CallsInFlight(),
  logger,
});
listening.serve(routes.listener);
logger.info("listening", { transport: "http", variant: `fetch-${values.fetch}`, port: listening.port, upstream: upstream.kind });

const stop = (): void => {
  listening.stopAccepting();
  listening.closeAllConnections();
  void routes.close().then(() => upstream.close()).then(() => process.exit(0));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
