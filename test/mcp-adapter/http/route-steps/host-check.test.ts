/**
 * The route table's Host check (mcp-adapter/http/route-steps/host-check.ts): on loopback only loopback names
 * (DNS rebinding gets 403, a JSON-RPC error that closes the connection, logged with the host it named); bound
 * beyond loopback, no list and no check.
 */
import { describe, expect, it } from "vitest";
import { hostCheck } from "../../../../mcp-adapter/http/route-steps/host-check.ts";
import { edgeRequest, refusalLogs } from "../../../support/refusal-logs.ts";

const loopback = ["localhost", "127.0.0.1", "[::1]"];

describe("the Host check", () => {
  it("lets loopback names through, with or without a port", async () => {
    const logs = refusalLogs();
    const step = hostCheck(loopback, logs.forbidden);
    for (const host of ["localhost", "127.0.0.1:3000", "[::1]:3000", "LOCALHOST:80"]) {
      expect(await step(edgeRequest("POST", "/mcp", { host })), host).toBeUndefined();
    }
    expect(logs.lines).toEqual([]);
  });

  it("refuses another name (DNS rebinding) or none with 403, closing the connection, and logs the host cut to 100 characters", async () => {
    const logs = refusalLogs();
    const step = hostCheck(loopback, logs.forbidden);
    expect(await step(edgeRequest("POST", "/mcp", { host: "evil.example.com" }))).toEqual({
      kind: "answer",
      status: 403,
      body: { jsonrpc: "2.0", error: { code: -32000, message: "Invalid Host: evil.example.com" }, id: null },
      close: true,
    });
    expect(await step(edgeRequest("GET", "/health"))).toMatchObject({ status: 403, body: { error: { message: "Missing Host header" } } });
    await step(edgeRequest("GET", "/health", { host: `${"a".repeat(150)}.example.com` }));
    logs.forbidden.flush();
    expect(logs.events("http_forbidden")[0]).toMatchObject({ level: "warn", reason: "invalid_host", host: "evil.example.com" });
    expect(logs.events("http_forbidden").at(-1)).toMatchObject({ repeated: { missing_host: 1, invalid_host: 1 } });
  });

  it("checks nothing when bound beyond loopback (no list)", async () => {
    const step = hostCheck(undefined, refusalLogs().forbidden);
    expect(await step(edgeRequest("POST", "/mcp", { host: "fitness.example.com" }))).toBeUndefined();
  });
});
