/**
 * The MCP endpoint as a web-standard handler (mcp-adapter/http/mcp-http-handler.ts), with web Requests: a body that
 * is not JSON is a parse error (-32700) before either leg sees it; a 2025-era POST is answered with one JSON body
 * whose length is declared (no SSE stream); a 2026-07-28 request and GET go to the SDK's entry, which answers
 * the current revision and 405 for GET; what the SDK refuses is passed to `onerror`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Server } from "@modelcontextprotocol/server";
import { createMcpHttpHandler, type McpHttpHandler } from "../../../mcp-adapter/http/mcp-http-handler.ts";
import { CallsInFlight } from "../../../mcp-adapter/server/calls-in-flight.ts";
import { createMcpServerFactory } from "../../../mcp-adapter/server/create-mcp-server.ts";
import { readServerIdentity } from "../../../mcp-adapter/server-identity.ts";
import { buildToolCatalog } from "../../../mcp-adapter/server/tool-catalog.ts";
import { silentLogger } from "../../../common/logger.ts";
import { toolTable } from "../../../tools/table.ts";
import { fileBackedCore, type FileBackedCore } from "../../support/core-harness.ts";

let core: FileBackedCore;
let handler: McpHttpHandler;
const refused: string[] = [];

beforeAll(async () => {
  // tools/list and ping need no upstream: the core's credentials are never used here.
  core = await fileBackedCore({ credentials: { client_id: "1", client_secret: "s", refresh_token: "r" } });
  const factory = createMcpServerFactory({
    identity: readServerIdentity(),
    catalog: buildToolCatalog(toolTable),
    deps: core.deps,
    calls: new CallsInFlight(),
    logger: silentLogger,
  }) as () => Server;
  handler = createMcpHttpHandler(factory, { maxRequestBodySize: 1_000_000, onerror: (error) => refused.push(error.message) });
});

afterAll(async () => {
  await handler?.close();
  await core?.cleanup();
});

function post(body: string, headers: Record<string, string> = {}): Promise<Response> {
  return handler.fetch(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body,
    }),
  );
}

describe("the MCP endpoint", () => {
  it("a body that is not JSON, or none, is a parse error", async () => {
    for (const body of ["{not json", "", "   "]) {
      const answer = await post(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(await answer.json()).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON" }, id: null });
    }
  });

  it("a 2025-era POST gets one JSON body with its length declared, and no session", async () => {
    const answer = await post(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }), { "mcp-protocol-version": "2025-06-18" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("application/json");
    expect(answer.headers.get("mcp-session-id")).toBeNull();
    const text = await answer.text();
    expect(answer.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect((JSON.parse(text) as { id: number; result: { tools: unknown[] } }).result.tools).toHaveLength(toolTable.length);
  });

  it("a notification is accepted with 202 and no body", async () => {
    const answer = await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), {
      "mcp-protocol-version": "2025-11-25",
    });
    expect(answer.status).toBe(202);
    expect(await answer.text()).toBe("");
  });

  it("GET is the SDK's 405 with Allow: POST; what the SDK refuses reaches onerror", async () => {
    const get = await handler.fetch(new Request("http://127.0.0.1/mcp", { headers: { accept: "text/event-stream" } }));
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const before = refused.length;
    expect((await post(JSON.stringify({ hello: "world" }))).status).toBe(400);
    expect(refused.slice(before)).toEqual([
      "Rejected inbound request (invalid-json-rpc-body): Bad Request: the request body is not a valid JSON-RPC message",
    ]);
  });
});
