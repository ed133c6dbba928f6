/**
 * What an MCP request is served with in OAuth mode: the tools of the athlete its access token names, on that
 * athlete's own dependencies (authorization/athlete-sessions.ts: their token manager and fair share), and the
 * read-only tool list for a read-only grant (fitness:read), whose writes are named as withheld with why; and
 * OAuth mode's server factory on it, the one npm start's HTTP server and the hosted function both serve.
 */
import type { McpRequestContext, Server } from "@modelcontextprotocol/server";
import type { Logger } from "../../common/logger.ts";
import { athleteOf } from "../../authorization/endpoints/resource-server.ts";
import { allowsWrite } from "../../authorization/tokens/scopes.ts";
import type { ToolDeps } from "../../tools/runner/tool-deps.ts";
import { readOnlyTools, toolTable } from "../../tools/table.ts";
import type { ServerIdentity } from "../server-identity.ts";
import { CallsInFlight } from "./calls-in-flight.ts";
import { createMcpServerFactory, type McpSession } from "./create-mcp-server.ts";
import { buildToolCatalog } from "./tool-catalog.ts";

export function athleteSessionOf(depsFor: (athleteId: string) => ToolDeps): (ctx: McpRequestContext | undefined) => McpSession {
  const fullCatalog = buildToolCatalog(toolTable);
  const readTools = readOnlyTools(toolTable);
  const readCatalog = buildToolCatalog(readTools);
  const withheld = {
    names: new Set(toolTable.filter((tool) => !readTools.includes(tool)).map((tool) => tool.name)),
    reason:
      "changes the athlete's Strava data, and this connection was granted read-only access (fitness:read). Connect again and allow changes to use it.",
  };
  return (ctx) => {
    const athleteId = athleteOf(ctx?.authInfo);
    // The HTTP edge lets no request without a verified token reach the factory.
    if (athleteId === undefined) throw new Error("An MCP request reached the server without a verified athlete.");
    const deps = depsFor(athleteId);
    return allowsWrite(ctx?.authInfo?.scopes ?? []) ? { catalog: fullCatalog, deps } : { catalog: readCatalog, deps, withheld };
  };
}

/** OAuth mode's MCP server factory: every tool, each request served for the athlete its access token names. */
export function oauthMcpServerFactory(options: {
  sessions: { depsFor(athleteId: string): ToolDeps };
  identity: ServerIdentity;
  logger: Logger;
}): (ctx?: McpRequestContext) => Server {
  return createMcpServerFactory({
    identity: options.identity,
    catalog: buildToolCatalog(toolTable),
    calls: new CallsInFlight(),
    logger: options.logger,
    session: athleteSessionOf((athleteId) => options.sessions.depsFor(athleteId)),
  });
}
