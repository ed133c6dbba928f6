/**
 * OAuth mode's routes on node:http (mcp-adapter/http/oauth-node-route.ts), in process, with the OAuth app as OAuth
 * mode puts it together: the request reaches the app as a web Request with the address it came from (the
 * connection's, or the one the operator's proxy names), Expect: 100-continue is answered at once (its body has a
 * deadline), and a client that leaves halfway through its body is counted, not logged as a fault. The 10 s
 * deadline itself is test/authorization/slow-bodies.test.ts and test/mcp-adapter/http/body-deadline.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "node:http";
import { createRateLimitedLog } from "../../../common/rate-limited-log.ts";
import { createOAuthNodeRoute } from "../../../mcp-adapter/http/oauth-node-route.ts";
import { capturingLogger } from "../../support/core-harness.ts";
import { rawRequest, serveInProcess, type NodeHttpServer } from "../../support/node-http-server.ts";
import { startOAuthInProcess, type InProcessOAuth } from "../../support/oauth-in-process.ts";
import { clearOfWindowTurn, hourMs } from "../../support/window-turns.ts";

let oauth: InProcessOAuth;
let server: NodeHttpServer;
const { logger, lines } = capturingLogger();
const incomplete = createRateLimitedLog({ logger, event: "http_body_incomplete" });
const events = (event: string) =>
  lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line["event"] === event);

beforeAll(async () => {
  oauth = await startOAuthInProcess({ env: { MCP_CLIENT_ADDRESS_HEADER: "x-forwarded-for" } });
  const route = createOAuthNodeRoute(oauth.app, { logger, incomplete });
  server = await serveInProcess((incoming, response) => route(incoming, response, (incoming.url ?? "/").split("?", 1)[0]!));
});

afterAll(async () => {
  await server?.close();
  await oauth?.close();
});

const registration = JSON.stringify({ redirect_uris: ["http://127.0.0.1:47615/cb"], token_endpoint_auth_method: "none" });

describe("OAuth mode's routes on node:http", () => {
  it("serve the app, counting a registration against the address the operator's proxy names", { timeout: 65_000 }, async () => {
    // Registrations are counted by the clock's hour: one turning between the 20th and the 21st would let the 21st in.
    await clearOfWindowTurn(hourMs, 30_000);
    const from = (address: string) =>
      rawRequest(server.port, {
        method: "POST",
        path: "/register",
        headers: { "content-type": "application/json", "x-forwarded-for": `192.0.2.9, ${address}` },
        chunks: [registration],
      });
    for (let i = 0; i < 20; i++) expect((await from("198.51.100.60")).status).toBe(201);
    expect((await from("198.51.100.60")).status).toBe(429);
    expect((await from("198.51.100.61")).status).toBe(201);
  });

  it("answers Expect: 100-continue at once, before the body", async () => {
    const answer = await rawRequest(server.port, {
      method: "POST",
      path: "/register",
      headers: { "content-type": "application/json", expect: "100-continue", "x-forwarded-for": "198.51.100.62" },
      chunks: [registration],
    });
    expect(answer.status).toBe(201);
  });

  it("a client that leaves halfway through its body is counted, not logged as a fault", async () => {
    await new Promise<void>((resolve) => {
      const outgoing = request({
        host: "127.0.0.1",
        port: server.port,
        method: "POST",
        path: "/token",
        headers: { "content-length": 500 },
      });
      outgoing.on("error", () => {});
      outgoing.write("grant_type=refr");
      setTimeout(() => {
        outgoing.destroy();
        setTimeout(resolve, 100);
      }, 100);
    });
    incomplete.flush();
    expect(events("http_body_incomplete")[0]).toMatchObject({ reason: "client_left" });
    expect(events("http_internal_error")).toEqual([]);
  });
});
