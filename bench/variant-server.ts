/**
 * Alternative builds of the Form A HTTP server, for comparison in the benchmark only. Same settings,
 * same tool table, same bearer and Host checks as `mcp-adapter/cli.ts`; two things vary:
 *
 *   --transport ours             one long-lived Server on the stateless id-remapping transport (what cli.ts runs)
 *   --transport sdk-per-request  the SDK's documented stateless pattern: a new Server and a new
 *                                StreamableHTTPServerTransport (JSON response mode) for every POST
 *   --fetch node-http | builtin  the upstream fetch: ours on node:http, or Node's built-in (undici)
 *   --shortcut on | off          (ours only) POST /mcp past the express router, or through it
 *
 * Prints the same `listening` log line as cli.ts.
 */
import express from "express";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { hostHeaderValidation } from "@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createJsonLogger } from "../tools/logger.ts";
import { createToolDeps } from "../tools/create-tool-deps.ts";
import { toolTable } from "../tools/table.ts";
import { httpSettingsFromEnv, logLevelFromEnv } from "../mcp-adapter/adapter-settings.ts";
import { createBearerCheck } from "../mcp-adapter/bearer-check.ts";
import { createMcpServer } from "../mcp-adapter/create-mcp-server.ts";
import { startHttpServer } from "../mcp-adapter/http-server.ts";
import { createNodeHttpFetch } from "../mcp-adapter/node-http-fetch.ts";
import { maxRequestBodyBytes } from "../mcp-adapter/read-request-body.ts";
import { readServerIdentity } from "../mcp-adapter/server-identity.ts";
import { buildToolCatalog } from "../mcp-adapter/tool-catalog.ts";
import { chooseUpstream } from "../mcp-adapter/upstream-choice.ts";

const { values } = parseArgs({
  options: { transport: { type: "string", default: "ours" }, fetch: { type: "string", default: "node-http" }, shortcut: { type: "string", default: "on" } },
});
const logger = createJsonLogger(process.stderr, logLevelFromEnv(process.env), { service: "mcp-variant" });
const settings = httpSettingsFromEnv(process.env);
const authToken = settings.authToken ?? "bench";
const identity = readServerIdentity();
const upstream = await chooseUpstream(process.env, logger);
const deps = createToolDeps({
  store: upstream.store,
  logger,
  settings: upstream.settings,
  ...(values.fetch === "node-http" ? { fetch: createNodeHttpFetch() } : {}),
});
const catalog = buildToolCatalog(toolTable);

let close: () => Promise<void>;
let port: number;
if (values.transport === "ours") {
  const mcpServer = createMcpServer({ identity, catalog, deps });
  const running = await startHttpServer({
    mcpServer,
    settings: { ...settings, authToken },
    identity,
    upstream: upstream.kind,
    logger,
    shortcut: values.shortcut !== "off",
  });
  port = running.port;
  close = () => running.close();
} else if (values.transport === "sdk-per-request") {
  const app = express();
  app.disable("x-powered-by");
  if (settings.allowedHostnames) app.use(hostHeaderValidation(settings.allowedHostnames));
  app.use(createBearerCheck({ token: authToken, logger }));
  app.post("/mcp", express.json({ limit: maxRequestBodyBytes }), async (request, response) => {
    const server = createMcpServer({ identity, catalog, deps });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  });
  const server = createServer(app);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(settings.port, settings.host, resolve));
  port = (server.address() as AddressInfo).port;
  close = () => new Promise((resolve) => server.close(() => resolve()));
} else {
  throw new Error(`--transport must be ours or sdk-per-request; got ${values.transport}`);
}
logger.info("listening", { transport: "http", variant: `${values.transport}+${values.fetch}+shortcut-${values.shortcut}`, port, upstream: upstream.kind });

const stop = (): void => {
  void close().then(() => upstream.close()).then(() => process.exit(0));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
