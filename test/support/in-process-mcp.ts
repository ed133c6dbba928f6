/**
 * Form A's HTTP server started inside the calling process (the same modules `npm start` wires),
 * against a given upstream, so a test or benchmark can force garbage collection and read the heap.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningSandbox } from "../../sandbox/server.ts";
import { createToolDeps } from "../../tools/create-tool-deps.ts";
import { silentLogger, type Logger } from "../../tools/logger.ts";
import { toolTable } from "../../tools/table.ts";
import { TokenFileStore } from "../../tools/token-file-store.ts";
import { createMcpServer } from "../../mcp-adapter/create-mcp-server.ts";
import { buildToolCatalog } from "../../mcp-adapter/tool-catalog.ts";
import { startHttpServer } from "../../mcp-adapter/http-server.ts";
import { createNodeHttpFetch } from "../../mcp-adapter/node-http-fetch.ts";
import { readServerIdentity } from "../../mcp-adapter/server-identity.ts";

export interface InProcessMcp {
  mcpUrl: string;
  authToken: string;
  close(): Promise<void>;
}

export async function startInProcessMcp(sandbox: RunningSandbox, options: { logger?: Logger; authToken?: string } = {}): Promise<InProcessMcp> {
  const authToken = options.authToken ?? "in-process-token";
  const directory = await mkdtemp(join(tmpdir(), "mcp-in-process-"));
  const path = join(directory, "tokens.json");
  await writeFile(path, JSON.stringify({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret, refresh_token: sandbox.refreshToken() }), { mode: 0o600 });
  // Default: logs dropped, since a logger that kept every line would itself grow with the calls.
  const logger = options.logger ?? silentLogger;
  const deps = createToolDeps({
    store: new TokenFileStore({ path }),
    logger,
    settings: { apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl },
    fetch: createNodeHttpFetch(),
  });
  const identity = readServerIdentity();
  const server = await startHttpServer({
    mcpServer: createMcpServer({ identity, catalog: buildToolCatalog(toolTable), deps }),
    settings: { host: "127.0.0.1", port: 0, authToken, allowedHostnames: ["127.0.0.1", "localhost"] },
    identity,
    upstream: "sandbox",
    logger,
  });
  return {
    mcpUrl: server.mcpUrl,
    authToken,
    close: async () => {
      await server.close(0);
      await rm(directory, { recursive: true, force: true });
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
