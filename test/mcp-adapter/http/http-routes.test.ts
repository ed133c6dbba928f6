/**
 * The node:http edge (mcp-adapter/http/http-routes.ts), in process: the route table's decisions carried out the
 * node way. A refusal closes the connection, a 404 keeps it; /health answers without caching, and a health check
 * that fails is a 500 saying to read the log; every exchange is counted from its start to the end of its answer
 * (what shutdown waits for); `close` writes the counts the refusal logs still hold. In OAuth mode the app's
 * routes go to the app and /mcp is served for the athlete the access token names.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../../common/logger.ts";
import type { HealthAnswer } from "../../../credentials/credential-health.ts";
import { createMcpHttpRoutes, type McpHttpRoutes } from "../../../mcp-adapter/http/http-routes.ts";
import { oauthMcpHttpRoutes } from "../../../mcp-adapter/http/serve-oauth-http.ts";
import { CallsInFlight } from "../../../mcp-adapter/server/calls-in-flight.ts";
import { createMcpServerFactory } from "../../../mcp-adapter/server/create-mcp-server.ts";
import { readServerIdentity } from "../../../mcp-adapter/server-identity.ts";
import { buildToolCatalog } from "../../../mcp-adapter/server/tool-catalog.ts";
import { toolTable } from "../../../tools/table.ts";
import { capturingLogger, fileBackedCore, type FileBackedCore } from "../../support/core-harness.ts";
import { ManualOAuthClient } from "../../support/manual-oauth-client.ts";
import { rawRequest, serveInProcess, type NodeHttpServer } from "../../support/node-http-server.ts";
import { startOAuthInProcess, type InProcessOAuth } from "../../support/oauth-in-process.ts";

const authToken = `routes-${randomBytes(16).toString("hex")}`;

describe("bearer mode", () => {
  let core: FileBackedCore;
  let routes: McpHttpRoutes;
  let server: NodeHttpServer;
  const exchanges = new CallsInFlight();
  const { logger, lines } = capturingLogger();
  let health: () => Promise<HealthAnswer> = async () => ({ httpStatus: 200, body: { status: "ok" } });

  beforeAll(async () => {
    core = await fileBackedCore({ credentials: { client_id: "1", client_secret: "s", refresh_token: "r" } });
    routes = createMcpHttpRoutes({
      factory: createMcpServerFactory({
        identity: readServerIdentity(),
        catalog: buildToolCatalog(toolTable),
        deps: core.deps,
        calls: new CallsInFlight(),
        logger: silentLogger,
      }),
      authToken,
      allowedHostnames: ["localhost", "127.0.0.1"],
      allowedOriginHostnames: ["localhost", "127.0.0.1"],
      health: () => health(),
      exchanges,
      logger,
    });
    server = await serveInProcess(routes.listener);
  });

  afterAll(async () => {
    await server?.close();
    await routes?.close();
    await core?.cleanup();
  });

  const authorized = { authorization: `Bearer ${authToken}`, connection: "keep-alive" };

  it("a refusal closes the connection; a 404 keeps it", async () => {
    const refused = await rawRequest(server.port, { method: "GET", path: "/health", headers: { connection: "keep-alive" } });
    expect(refused.status).toBe(401);
    expect(refused.headers["connection"]).toBe("close");
    expect(refused.headers["www-authenticate"]).toBe('Bearer realm="openclaw-fitness"');
    const missing = await rawRequest(server.port, { method: "GET", path: "/nowhere", headers: authorized });
    expect(missing.status).toBe(404);
    expect(missing.headers["connection"]).toBe("keep-alive");
  });

  it("/health answers what the front end says, without caching; a failing check is a 500 saying to read the log", async () => {
    health = async () => ({ httpStatus: 503, body: { status: "needs_authorization" } });
    const answer = await rawRequest(server.port, { method: "GET", path: "/health", headers: authorized });
    expect(answer.status).toBe(503);
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(JSON.parse(answer.body)).toEqual({ status: "needs_authorization" });
    health = async () => {
      throw new Error("the store blew up");
    };
    const failed = await rawRequest(server.port, { method: "GET", path: "/health", headers: authorized });
    expect(failed.status).toBe(500);
    expect(JSON.parse(failed.body)).toEqual({
      error: "internal_error",
      error_description: "The health check failed; see the server's log.",
    });
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line["event"] === "http_internal_error");
    expect(logged).toMatchObject({ level: "error", path: "/health" });
  });

  it("/mcp goes to the SDK's handler, and every exchange is counted until its answer has gone", async () => {
    const answer = await rawRequest(server.port, {
      method: "POST",
      path: "/mcp",
      headers: {
        ...authorized,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      chunks: [JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })],
    });
    expect(JSON.parse(answer.body)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(exchanges.running).toBe(0);
  });

  it("close writes the counts the refusal logs still hold", async () => {
    for (let i = 0; i < 3; i++)
      await rawRequest(server.port, { method: "GET", path: "/health", headers: { authorization: "Bearer wrong" } });
    await routes.close();
    const summary = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line["event"] === "http_unauthorized" && line["repeated"] !== undefined);
    expect(summary.at(-1)).toMatchObject({ repeated: { invalid_token: 3 } });
  });
});

describe("OAuth mode", () => {
  let oauth: InProcessOAuth;
  let routes: McpHttpRoutes;
  let server: NodeHttpServer;

  beforeAll(async () => {
    oauth = await startOAuthInProcess();
    routes = oauthMcpHttpRoutes(
      {
        app: oauth.app,
        upstream: oauth.upstream,
        settings: oauth.settings,
        issuer: oauth.issuer,
        http: { allowedHostnames: ["localhost", "127.0.0.1", "[::1]"], allowedOriginHostnames: ["localhost", "127.0.0.1", "[::1]"] },
        identity: readServerIdentity(),
        logger: silentLogger,
        exchanges: new CallsInFlight(),
      },
      createMcpHttpRoutes,
    );
    server = await serveInProcess(routes.listener);
  });

  afterAll(async () => {
    await server?.close();
    await routes?.close();
    await oauth?.close();
  });

  it("the app's routes go to the app: a discovery document through the node edge", async () => {
    const answer = await rawRequest(server.port, { method: "GET", path: "/.well-known/oauth-authorization-server", headers: {} });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ issuer: oauth.issuer, token_endpoint: `${oauth.issuer}/token` });
  });

  it("/health needs no token and says OAuth mode, its issuer and what plays Strava", async () => {
    const answer = await rawRequest(server.port, { method: "GET", path: "/health", headers: {} });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({
      status: "ok",
      name: "openclaw-fitness",
      version: readServerIdentity().version,
      upstream: "sandbox",
      auth: "oauth",
      issuer: oauth.issuer,
    });
  });

  it("/mcp is served for the athlete the access token names", async () => {
    const client = new ManualOAuthClient(oauth.issuer, { fetch: oauth.fetch });
    await client.register();
    const { code, verifier } = await client.code();
    const accessToken = (await client.exchange(code, verifier)).body["access_token"] as string;
    const answer = await rawRequest(server.port, {
      method: "POST",
      path: "/mcp",
      headers: {
        authorization: `Bearer ${accessToken}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      chunks: [JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_athlete", arguments: {} } })],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain(`\\"id\\":${oauth.sandbox.athleteId}`);
  });
});
