/**
 * `/mcp` on node:http (mcp-adapter/http/mcp-node-route.ts), in process against the sandbox: a POST whose headers
 * already say it cannot be served is answered before its body is read (415 for a body that is not JSON, 413 for
 * a declared length over the limit); a body the budget has no room for within its wait gets 503 with Retry-After,
 * logged a line per interval; GET and DELETE are the SDK's 405; a good POST is served, Expect: 100-continue
 * answered once it was admitted; a request the SDK refuses is logged as rejected.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateLimitedLog } from "../../../common/rate-limited-log.ts";
import { TokenFileStore } from "../../../credentials/stores/token-file-store.ts";
import { BodyBudget } from "../../../mcp-adapter/http/body-budget.ts";
import { createMcpNodeRoute, type McpNodeRoute } from "../../../mcp-adapter/http/mcp-node-route.ts";
import { CallsInFlight } from "../../../mcp-adapter/server/calls-in-flight.ts";
import { createMcpServerFactory } from "../../../mcp-adapter/server/create-mcp-server.ts";
import { readServerIdentity } from "../../../mcp-adapter/server-identity.ts";
import { buildToolCatalog } from "../../../mcp-adapter/server/tool-catalog.ts";
import { startSandbox, type RunningSandbox } from "../../../sandbox/server.ts";
import { createToolDeps } from "../../../tools/runner/create-tool-deps.ts";
import { toolTable } from "../../../tools/table.ts";
import { capturingLogger } from "../../support/core-harness.ts";
import { rawRequest, serveInProcess, type NodeHttpServer } from "../../support/node-http-server.ts";

const listBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
const mcpHeaders = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
};

let sandbox: RunningSandbox;
let directory: string;
const { logger, lines } = capturingLogger();
const events = (event: string) =>
  lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line["event"] === event);

/** The route on a server of its own, with a budget and a body limit of the test's choosing. */
async function routeOn(options: {
  budget: BodyBudget;
  maxBodyBytes: number;
}): Promise<{ server: NodeHttpServer; route: McpNodeRoute; logs: ReturnType<typeof routeLogs> }> {
  const path = join(directory, "tokens.json");
  const deps = createToolDeps({
    store: new TokenFileStore({ path }),
    logger,
    settings: { apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl },
  });
  const logs = routeLogs();
  const route = createMcpNodeRoute({
    factory: createMcpServerFactory({
      identity: readServerIdentity(),
      catalog: buildToolCatalog(toolTable),
      deps,
      calls: new CallsInFlight(),
      logger,
    }),
    maxBodyBytes: options.maxBodyBytes,
    budget: options.budget,
    logger,
    logs,
  });
  const server = await serveInProcess((request, response) => route.route(request, response, "/mcp"));
  return { server, route, logs };
}

function routeLogs() {
  return {
    rejected: createRateLimitedLog({ logger, event: "mcp_request_rejected" }),
    overBudget: createRateLimitedLog({ logger, event: "http_body_budget_exhausted", level: "warn" }),
  };
}

beforeAll(async () => {
  sandbox = await startSandbox({ rotateRefreshTokens: false });
  directory = await mkdtemp(join(tmpdir(), "mcp-node-route-"));
  await writeFile(
    join(directory, "tokens.json"),
    JSON.stringify({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret, refresh_token: sandbox.refreshToken() }),
    { mode: 0o600 },
  );
});

afterAll(async () => {
  await sandbox?.close();
  await rm(directory, { recursive: true, force: true });
});

describe("/mcp on node:http", () => {
  it("answers from the headers, before any body: 415 for a body that is not JSON, 413 for a declared length over the limit", async () => {
    const { server, route } = await routeOn({ budget: new BodyBudget(), maxBodyBytes: 1_000 });
    try {
      const notJson = await rawRequest(server.port, {
        method: "POST",
        path: "/mcp",
        headers: { ...mcpHeaders, "content-type": "text/plain" },
        chunks: [listBody],
      });
      expect(notJson.status).toBe(415);
      expect(JSON.parse(notJson.body)).toEqual({
        jsonrpc: "2.0",
        error: { code: -32000, message: "Unsupported Media Type: Content-Type must be application/json" },
        id: null,
      });
      const tooLarge = await rawRequest(server.port, {
        method: "POST",
        path: "/mcp",
        headers: { ...mcpHeaders, "content-length": 1_001 },
        chunks: ["{"],
        end: false,
      });
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.headers["connection"]).toBe("close");
      expect(JSON.parse(tooLarge.body).error.message).toBe(
        "Payload Too Large: the request body must not exceed 1000 bytes (0 MiB); an activity file to upload may be up to 25 MB (about 35 MB as base64).",
      );
    } finally {
      await server.close();
      await route.close();
    }
  });

  it("serves a good POST (with Expect: 100-continue), and leaves GET and DELETE to the SDK's 405", async () => {
    const { server, route } = await routeOn({ budget: new BodyBudget(), maxBodyBytes: 1_000_000 });
    try {
      const listed = await rawRequest(server.port, {
        method: "POST",
        path: "/mcp",
        headers: { ...mcpHeaders, expect: "100-continue" },
        chunks: [listBody],
      });
      expect(listed.status).toBe(200);
      expect((JSON.parse(listed.body) as { result: { tools: unknown[] } }).result.tools).toHaveLength(toolTable.length);
      for (const method of ["GET", "DELETE"]) {
        const answer = await rawRequest(server.port, { method, path: "/mcp", headers: { accept: "text/event-stream" } });
        expect(answer.status, method).toBe(405);
        expect(answer.headers["allow"]).toBe("POST");
      }
    } finally {
      await server.close();
      await route.close();
    }
  });

  it("a body the budget has no room for within its wait gets 503 with Retry-After, logged with the budget", async () => {
    const budget = new BodyBudget({ capacity: 10_000, maxWaitMs: 100 });
    budget.tryReserve(10_000);
    const { server, route, logs } = await routeOn({ budget, maxBodyBytes: 1_000_000 });
    try {
      const answer = await rawRequest(server.port, {
        method: "POST",
        path: "/mcp",
        headers: { ...mcpHeaders, "content-length": listBody.length },
        chunks: [listBody],
      });
      expect(answer.status).toBe(503);
      expect(answer.headers["retry-after"]).toBe("5");
      expect(JSON.parse(answer.body).error.message).toBe(
        "Service Unavailable: the server is busy receiving other large requests; try again shortly.",
      );
      logs.overBudget.flush();
      expect(events("http_body_budget_exhausted")[0]).toMatchObject({ reason: "wait_over", budget_bytes: 10_000, wait_ms: 100 });
      budget.release(10_000);
      expect((await rawRequest(server.port, { method: "POST", path: "/mcp", headers: mcpHeaders, chunks: [listBody] })).status).toBe(200);
      expect(budget.used).toBe(0);
    } finally {
      await server.close();
      await route.close();
    }
  });

  it("a request the SDK refuses (not a JSON-RPC message) gets its answer and is logged as rejected, with the SDK's words", async () => {
    const { server, route, logs } = await routeOn({ budget: new BodyBudget(), maxBodyBytes: 1_000_000 });
    try {
      const answer = await rawRequest(server.port, {
        method: "POST",
        path: "/mcp",
        headers: mcpHeaders,
        chunks: [JSON.stringify({ hello: "world" })],
      });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: -32600 } });
      logs.rejected.flush();
      expect(events("mcp_request_rejected")[0]).toMatchObject({
        reason: "Error",
        message: "Rejected inbound request (invalid-json-rpc-body): Bad Request: the request body is not a valid JSON-RPC message",
      });
    } finally {
      await server.close();
      await route.close();
    }
  });
});
