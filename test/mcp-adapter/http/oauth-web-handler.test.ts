/**
 * OAuth mode's web-standard edge (mcp-adapter/http/oauth-web-handler.ts, what the hosted function serves), with
 * web Requests: the route table without a Host check (behind a function URL the host is AWS's), the Origin
 * checked against this server's own origin and loopback pages, the OAuth app's routes given the address the
 * platform saw the request come from, /mcp behind the access-token gate, /health without caching, 404 otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOAuthInProcess, type InProcessOAuth } from "../../support/oauth-in-process.ts";
import { clearOfWindowTurn, hourMs } from "../../support/window-turns.ts";

let server: InProcessOAuth;

beforeAll(async () => {
  server = await startOAuthInProcess();
});

afterAll(async () => {
  await server?.close();
});

const registration = JSON.stringify({ redirect_uris: ["http://127.0.0.1:47615/cb"], token_endpoint_auth_method: "none" });

function register(headers: Record<string, string> = {}, from = "127.0.0.1"): Promise<Response> {
  return server.fetchFrom(from)(`${server.issuer}/register`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: registration,
  });
}

describe("the web-standard edge", () => {
  it("checks no Host, and takes pages from this server's own origin and loopback only", async () => {
    expect((await register({ host: "abc123.lambda-url.us-west-2.on.aws" })).status).toBe(201);
    expect((await register({ origin: "http://localhost:5173" })).status).toBe(201);
    expect((await register({ origin: server.issuer })).status).toBe(201);
    const foreign = await register({ origin: "https://evil.example.com" });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: "access_denied" });
  });

  it("counts registrations against the address the platform saw, not a header the client sent", { timeout: 65_000 }, async () => {
    // Registrations are counted by the clock's hour: one turning between the 20th and the 21st would let the 21st in.
    await clearOfWindowTurn(hourMs, 30_000);
    for (let i = 0; i < 20; i++) expect((await register({}, "198.51.100.40")).status).toBe(201);
    expect((await register({ "x-forwarded-for": "192.0.2.1" }, "198.51.100.40")).status).toBe(429);
    expect((await register({}, "198.51.100.41")).status).toBe(201);
  });

  it("keeps /mcp behind the access-token gate, answers /health without caching, and 404 elsewhere", async () => {
    const mcp = await server.fetch(`${server.issuer}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get("www-authenticate")).toContain(`resource_metadata="${server.issuer}/.well-known/oauth-protected-resource/mcp"`);
    const health = await server.fetch(`${server.issuer}/health`);
    expect(health.status).toBe(200);
    expect(health.headers.get("cache-control")).toBe("no-store");
    expect(await health.json()).toMatchObject({ status: "ok", auth: "oauth", issuer: server.issuer });
    const nowhere = await server.fetch(`${server.issuer}/nowhere`);
    expect(nowhere.status).toBe(404);
    expect(await nowhere.json()).toEqual({ error: "not_found", error_description: "No route for GET /nowhere; MCP is at POST /mcp." });
  });
});
