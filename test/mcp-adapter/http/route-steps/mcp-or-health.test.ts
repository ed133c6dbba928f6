/**
 * The route table's last step (mcp-adapter/http/route-steps/mcp-or-health.ts): it always decides. /mcp goes to the
 * SDK's handler whatever the method (the SDK answers 405 for GET and DELETE), GET and HEAD /health to the health
 * check, anything else 404 naming where MCP is, without closing the connection.
 */
import { describe, expect, it } from "vitest";
import { mcpOrHealth } from "../../../../mcp-adapter/http/route-steps/mcp-or-health.ts";
import { edgeRequest } from "../../../support/refusal-logs.ts";

describe("the last step", () => {
  it("sends /mcp to the SDK's handler whatever the method", async () => {
    for (const method of ["POST", "GET", "DELETE"]) {
      expect(await mcpOrHealth(edgeRequest(method, "/mcp"))).toEqual({ kind: "mcp", auth: undefined });
    }
  });

  it("answers GET and HEAD /health; any other method or path is 404 naming POST /mcp", async () => {
    expect(await mcpOrHealth(edgeRequest("GET", "/health"))).toEqual({ kind: "health" });
    expect(await mcpOrHealth(edgeRequest("HEAD", "/health"))).toEqual({ kind: "health" });
    expect(await mcpOrHealth(edgeRequest("POST", "/health"))).toEqual({
      kind: "answer",
      status: 404,
      body: { error: "not_found", error_description: "No route for POST /health; MCP is at POST /mcp." },
      close: false,
    });
    expect(await mcpOrHealth(edgeRequest("GET", "/"))).toMatchObject({ status: 404, close: false });
  });
});
