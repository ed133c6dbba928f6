/**
 * The route table's Origin check (mcp-adapter/http/route-steps/origin-check.ts): a request without an Origin (not
 * a browser) or from a page on an accepted host passes; a page of another site gets 403, a JSON-RPC error on the
 * MCP server's paths and an OAuth error on the OAuth app's, which may take pages of any site on its paths that
 * say so (`takesAnyOrigin`).
 */
import { describe, expect, it } from "vitest";
import { originCheck } from "../../../../mcp-adapter/http/route-steps/origin-check.ts";
import type { OAuthPaths } from "../../../../mcp-adapter/http/route-steps/route-step.ts";
import { edgeRequest, refusalLogs } from "../../../support/refusal-logs.ts";

const pages = ["localhost", "127.0.0.1", "[::1]"];

/** The OAuth app's paths as the route table sees them: /authorize takes any page, /register only this machine's. */
const oauth: OAuthPaths = {
  handles: (path) => path === "/authorize" || path === "/register",
  takesAnyOrigin: (path) => path === "/authorize",
  gate: { check: () => Promise.reject(new Error("the Origin check never asks the gate")) },
};

describe("the Origin check", () => {
  it("passes a request without an Origin, and one from a page on an accepted host", async () => {
    const step = originCheck(pages, undefined, refusalLogs().forbidden);
    expect(await step(edgeRequest("POST", "/mcp"))).toBeUndefined();
    for (const origin of ["http://localhost:5173", "http://127.0.0.1:6274", "http://[::1]:8080"]) {
      expect(await step(edgeRequest("POST", "/mcp", { origin })), origin).toBeUndefined();
    }
  });

  it("refuses another site on any port, and the opaque origin a sandboxed page or a file sends (null)", async () => {
    const step = originCheck(pages, undefined, refusalLogs().forbidden);
    for (const origin of ["http://evil.example:3000", "null", "http://localhost.evil.example"]) {
      expect(await step(edgeRequest("GET", "/health", { origin })), origin).toMatchObject({ kind: "answer", status: 403, close: true });
    }
  });

  it("refuses a page of another site at /mcp with a JSON-RPC 403 that closes the connection, logged with the origin", async () => {
    const logs = refusalLogs();
    const step = originCheck(pages, undefined, logs.forbidden);
    expect(await step(edgeRequest("POST", "/mcp", { origin: "https://evil.example.com" }))).toEqual({
      kind: "answer",
      status: 403,
      body: { jsonrpc: "2.0", error: { code: -32000, message: "Invalid Origin: evil.example.com" }, id: null },
      close: true,
    });
    expect(logs.events("http_forbidden")[0]).toMatchObject({ reason: "invalid_origin", origin: "https://evil.example.com" });
  });

  it("on the OAuth app's paths: a page of any site where the app takes it, else an OAuth error naming the pages that may call", async () => {
    const step = originCheck(pages, oauth, refusalLogs().forbidden);
    expect(await step(edgeRequest("GET", "/authorize", { origin: "https://evil.example.com" }))).toBeUndefined();
    expect(await step(edgeRequest("POST", "/register", { origin: "https://evil.example.com" }))).toEqual({
      kind: "answer",
      status: 403,
      body: {
        error: "access_denied",
        error_description:
          "This server is for this machine only: it takes requests only from pages on this machine (localhost, 127.0.0.1, [::1]), not from a page of another site (Invalid Origin: evil.example.com).",
      },
      close: true,
    });
    expect(await step(edgeRequest("POST", "/mcp", { origin: "https://evil.example.com" }))).toMatchObject({
      body: { jsonrpc: "2.0" },
    });
  });
});
