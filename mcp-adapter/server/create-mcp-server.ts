/**
 * The one server factory both transports serve: each call makes a fresh SDK `Server` (the low-level
 * one: it takes JSON Schema as is, which is what TypeBox produces) answering tools/list from the catalog
 * and tools/call through the core's `runTool`. The SDK's serving entries call it per HTTP request
 * (`createMcpHandler`) or per stdio connection (`serveStdio`), for 2026-07-28 and 2025-era clients alike,
 * so it stays cheap: the listing is built once, and nothing here compiles a schema.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ListToolsResult,
  type McpRequestContext,
  type Server,
} from "@modelcontextprotocol/server";
import type { Logger } from "../../common/logger.ts";
import { runTool } from "../../tools/runner/run-tool.ts";
import type { ToolDeps } from "../../tools/runner/tool-deps.ts";
import type { ToolResult } from "../../tools/runner/tool-result.ts";
import { besideTheTools } from "./beside-the-tools.ts";
import type { CallsInFlight } from "./calls-in-flight.ts";
import { ReadableErrorsServer } from "./readable-protocol-errors.ts";
import type { ServerIdentity } from "../server-identity.ts";
import type { ToolCatalog } from "./tool-catalog.ts";
import type { TrainingLog } from "../../common/upstream/training-log-client.ts";
import { toolTables } from "../../tools/table.ts";

/** What one request is served with: whose data (deps) and which tools (a read-only grant gets fewer). */
export interface McpSession {
  catalog: ToolCatalog;
  deps: ToolDeps;
  /** Tools of the full catalog this session may not call, and why (named in the error). */
  withheld?: { names: ReadonlySet<string>; reason: string };
}

export interface McpServerFactoryOptions {
  identity: ServerIdentity;
  /** The tools of the training log served (every session's catalog is this one or a part of it). */
  catalog: ToolCatalog;
  /** That training log, for the server's title and instructions (default: the fixed dependencies' log, else Strava). */
  log?: TrainingLog;
  /** Every request's dependencies (one athlete); absent in OAuth mode, where `session` says whose. */
  deps?: ToolDeps;
  /**
   * OAuth mode: the session of an authenticated request (from `ctx.authInfo`); when absent, every request
   * is served with `catalog` and `deps`.
   */
  session?: (ctx: McpRequestContext | undefined) => McpSession;
  /** Counts tool calls, so shutdown can let them finish. */
  calls: CallsInFlight;
  logger: Logger;
}

/** What a client's model reads first, per training log: which log the tools read, and the two rules of writing. */
const instructions: Record<TrainingLog, string> = {
  strava:
    "Tools for one athlete's Strava training log: list and read activities (detail, zones, streams), " +
    "the athlete's profile and statistics, club activities, create and update activities, and upload " +
    "activity files. Results are Strava's own JSON. Read an activity before updating it, and confirm " +
    "changes with the user first.",
  "intervals.icu":
    "Tools for one athlete's intervals.icu training log: list and read activities (detail, time in zones, streams), " +
    "the athlete's profile and sport settings, their daily wellness (HRV, resting heart rate, sleep, weight, how they " +
    "feel, and intervals.icu's fitness and fatigue), create and update activities, and upload activity files. Dates are " +
    "the athlete's local dates. Results are intervals.icu's own JSON, except activities synced from Strava, which " +
    "intervals.icu's API holds only as stubs: they are said to be stubs in words. Read an activity before updating it, " +
    "and confirm changes with the user first.",
};

/** The server's title as clients show it, per training log. */
const titles: Record<TrainingLog, string> = { strava: "Strava fitness tools", "intervals.icu": "intervals.icu fitness tools" };

/**
 * How long a 2026-07-28 client may keep tools/list and server/discover: the list only changes with a
 * new version of this server, and in bearer mode it is the same for every caller (no per-user tools), so
 * shared caches may keep it too; in OAuth mode it depends on the caller's grant, so only the caller may.
 */
const listCacheHint = { ttlMs: 5 * 60 * 1000, cacheScope: "public" } as const;
const privateListCacheHint = { ttlMs: 5 * 60 * 1000, cacheScope: "private" } as const;

export function createMcpServerFactory(options: McpServerFactoryOptions): (ctx?: McpRequestContext) => Server {
  const { calls, logger } = options;
  const log = options.log ?? options.deps?.log ?? "strava";
  const serverInfo = { name: options.identity.name, version: options.identity.version, title: titles[log] };
  const serverOptions = {
    capabilities: { tools: { listChanged: false } },
    instructions: instructions[log],
    // In OAuth mode the list depends on the grant (a read-only one has no write tools): no shared caching.
    cacheHints: options.session
      ? { "tools/list": privateListCacheHint, "server/discover": privateListCacheHint }
      : { "tools/list": listCacheHint, "server/discover": listCacheHint },
  };
  // Resources (the MCP Apps views, the skill's file), the coaching prompt and the Skills extension.
  // The skill names the tools of either log; the names it may use are every table's (its text per log is the skill's own).
  const toolNames = [...new Set(toolTables.flatMap(([, table]) => table.map((tool) => tool.name)))];
  const beside = besideTheTools({ toolNames, cacheHint: serverOptions.cacheHints["tools/list"] });
  const listings = new Map<ToolCatalog, { listing: ListToolsResult; toolNames: string }>();
  const listingOf = (catalog: ToolCatalog): { listing: ListToolsResult; toolNames: string } => {
    let entry = listings.get(catalog);
    if (entry === undefined) {
      entry = { listing: { tools: beside.listing(catalog) }, toolNames: [...catalog.byName.keys()].join(", ") };
      listings.set(catalog, entry);
    }
    return entry;
  };
  const fixed: McpSession | undefined = options.deps ? { catalog: options.catalog, deps: options.deps } : undefined;
  if (!fixed && !options.session) throw new TypeError("createMcpServerFactory needs deps or a session resolver");

  return (ctx?: McpRequestContext) => {
    const { catalog, deps, withheld } = options.session ? options.session(ctx) : (fixed as McpSession);
    const { listing, toolNames } = listingOf(catalog);
    const server = new ReadableErrorsServer(serverInfo, serverOptions);
    server.onerror = (error) => logger.debug("mcp_protocol_error", { error });
    beside.install(server);
    server.setRequestHandler("tools/list", () => listing);
    server.setRequestHandler("tools/call", (request, ctx) => {
      const tool = catalog.byName.get(request.params.name);
      if (tool === undefined && withheld?.names.has(request.params.name)) {
        return { content: [{ type: "text", text: `Error: ${request.params.name} ${withheld.reason}` }], isError: true };
      }
      if (tool === undefined) {
        // A protocol error, as the MCP specification asks for unknown tools.
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool "${request.params.name}". Available tools: ${toolNames}.`);
      }
      return calls.track(async () => callToolResult(await runTool(tool, request.params.arguments ?? {}, deps, ctx.mcpReq.signal)));
    });
    return server;
  };
}

/** The MCP shape of a tool result: content and, on failure, `isError` (the upstream status stays internal). */
export function callToolResult(result: ToolResult): CallToolResult {
  return result.isError ? { content: result.content, isError: true } : { content: result.content };
}
