/**
 * The MCP server itself, independent of any transport: the SDK's low-level `Server` (it takes JSON
 * Schema as is, which is what TypeBox produces) answering tools/list from the catalog and tools/call
 * through the core's `runTool`. The HTTP and stdio front ends each connect one of these, once.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
  type ListToolsResult,
} from "@modelcontextprotocol/sdk/types.js";
import { runTool } from "../tools/run-tool.ts";
import type { ToolDeps } from "../tools/create-tool-deps.ts";
import type { ToolResult } from "../tools/tool-result.ts";
import type { ServerIdentity } from "./server-identity.ts";
import type { ToolCatalog } from "./tool-catalog.ts";

export interface McpServerOptions {
  identity: ServerIdentity;
  catalog: ToolCatalog;
  deps: ToolDeps;
}

const instructions =
  "Tools for one athlete's Strava training log: list and read activities (detail, zones, streams), " +
  "the athlete's profile and statistics, club activities, create and update activities, and upload " +
  "activity files. Results are Strava's own JSON. Read an activity before updating it, and confirm " +
  "changes with the user first.";

export function createMcpServer(options: McpServerOptions): Server {
  const { catalog, deps } = options;
  const server = new Server(
    { name: options.identity.name, version: options.identity.version, title: "Strava fitness tools" },
    { capabilities: { tools: { listChanged: false } }, instructions },
  );
  // The same frozen object for every listing: nothing to build per request.
  const listing: ListToolsResult = { tools: [...catalog.tools] };
  server.setRequestHandler(ListToolsRequestSchema, () => listing);
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = catalog.byName.get(request.params.name);
    if (tool === undefined) {
      // A protocol error, as the MCP specification asks for unknown tools.
      throw protocolError(
        ErrorCode.InvalidParams,
        `Unknown tool "${request.params.name}". Available tools: ${[...catalog.byName.keys()].join(", ")}.`,
      );
    }
    return callToolResult(await runTool(tool, request.params.arguments ?? {}, deps, extra.signal));
  });
  return server;
}

/** The MCP shape of a tool result: content and, on failure, `isError` (the upstream status stays internal). */
export function callToolResult(result: ToolResult): CallToolResult {
  return result.isError ? { content: result.content, isError: true } : { content: result.content };
}

/** An error the SDK answers as a JSON-RPC error with this code and exactly this message. */
function protocolError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}
