/**
 * The route table (mcp-adapter/http/route-table.ts): the steps in the order a request meets them, the first
 * decision wins. A refusal of the Host comes before the Origin's, both before the credentials' (a page of
 * another site never learns whether its token was right), and the last step always decides.
 */
import { describe, expect, it } from "vitest";
import { createRouteTable, routeSteps } from "../../../mcp-adapter/http/route-table.ts";
import { edgeRequest, refusalLogs } from "../../support/refusal-logs.ts";

const token = "a-bearer-token-of-32-characters!";

function bearerTable() {
  const logs = refusalLogs();
  return createRouteTable({
    allowedHostnames: ["localhost", "127.0.0.1"],
    allowedOriginHostnames: ["localhost", "127.0.0.1"],
    bearerToken: token,
    logger: logs.logger,
    refused: logs,
  });
}

describe("the route table", () => {
  it("meets the steps in the documented order", () => {
    const logs = refusalLogs();
    const names = routeSteps({ allowedHostnames: undefined, allowedOriginHostnames: [], logger: logs.logger, refused: logs }).map(
      ([name]) => name,
    );
    expect(names).toEqual(["host", "origin", "oauth", "discovery", "credentials", "route"]);
  });

  it("refuses a foreign Host before anything else, then a foreign Origin, then a missing token", async () => {
    const decide = bearerTable();
    const everythingWrong = edgeRequest("POST", "/mcp", { host: "evil.example.com", origin: "https://evil.example.com" });
    expect(await decide(everythingWrong)).toMatchObject({ status: 403, body: { error: { message: "Invalid Host: evil.example.com" } } });
    const foreignPage = edgeRequest("POST", "/mcp", { host: "127.0.0.1:3000", origin: "https://evil.example.com" });
    expect(await decide(foreignPage)).toMatchObject({ status: 403, body: { error: { message: "Invalid Origin: evil.example.com" } } });
    expect(await decide(edgeRequest("POST", "/mcp", { host: "127.0.0.1:3000" }))).toMatchObject({ status: 401 });
  });

  it("a discovery probe is answered 404 before the token is asked for; a request with the token reaches its route", async () => {
    const decide = bearerTable();
    expect(await decide(edgeRequest("GET", "/.well-known/oauth-authorization-server", { host: "localhost" }))).toMatchObject({
      status: 404,
      body: { error: "not_found" },
    });
    const authorized = { host: "localhost", authorization: `Bearer ${token}` };
    expect(await decide(edgeRequest("POST", "/mcp", authorized))).toEqual({ kind: "mcp", auth: undefined });
    expect(await decide(edgeRequest("GET", "/health", authorized))).toEqual({ kind: "health" });
    expect(await decide(edgeRequest("GET", "/nowhere", authorized))).toMatchObject({ status: 404, close: false });
  });
});
