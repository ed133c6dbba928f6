/**
 * The answers the node:http edge writes itself (mcp-adapter/http/http-answers.ts): JSON with an exact
 * Content-Length; an answer to a request whose body nobody read goes out whole and then closes the connection
 * from the server's side, without reading the body; a JSON-RPC error that belongs to no request has id null.
 */
import { afterEach, describe, expect, it } from "vitest";
import { hasUnreadBody, sendJson, sendJsonRpcError } from "../../../mcp-adapter/http/http-answers.ts";
import { rawRequest, serveInProcess, type NodeHttpServer } from "../../support/node-http-server.ts";

const servers: NodeHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe("answers of the edge", () => {
  it("JSON with its exact length, the connection kept when there is no body to skip", async () => {
    const server = await serveInProcess((request, response) => sendJson(request, response, 404, { error: "not_found", é: "ü" }));
    servers.push(server);
    const answer = await rawRequest(server.port, { method: "GET", path: "/", headers: { connection: "keep-alive" } });
    expect(answer.status).toBe(404);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(answer.headers["content-length"]).toBe(String(Buffer.byteLength(answer.body)));
    expect(answer.headers["connection"]).toBe("keep-alive");
    expect(JSON.parse(answer.body)).toEqual({ error: "not_found", é: "ü" });
  });

  it("a refusal of a request whose body was never read: the whole answer at once, the body never waited for, and the connection closed", async () => {
    const unread: boolean[] = [];
    const server = await serveInProcess((request, response) => {
      unread.push(hasUnreadBody(request));
      sendJsonRpcError(request, response, 401, -32000, "refused");
    });
    servers.push(server);
    const answer = await rawRequest(server.port, {
      method: "POST",
      path: "/mcp",
      headers: { "content-length": 10_000_000, connection: "keep-alive" },
      chunks: ["{"],
      end: false,
    });
    expect(unread).toEqual([true]);
    expect(answer.status).toBe(401);
    // Answered though 9,999,999 bytes of the declared body were never sent.
    expect(answer.headers["connection"]).toBe("close");
    expect(JSON.parse(answer.body)).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: "refused" }, id: null });
  });

  it("counts a declared length above zero and a chunked body as unread, an empty one as not", async () => {
    const seen: boolean[] = [];
    const server = await serveInProcess((request, response) => {
      seen.push(hasUnreadBody(request));
      response.end();
    });
    servers.push(server);
    await rawRequest(server.port, { method: "POST", path: "/", headers: { "content-length": 0 } });
    await rawRequest(server.port, { method: "POST", path: "/", headers: { "transfer-encoding": "chunked" }, chunks: ["x"] });
    await rawRequest(server.port, { method: "GET", path: "/", headers: {} });
    expect(seen).toEqual([false, true, false]);
  });
});
