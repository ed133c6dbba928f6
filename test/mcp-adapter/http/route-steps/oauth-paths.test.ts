/**
 * The route table's steps for the OAuth paths (mcp-adapter/http/route-steps/oauth-paths.ts): in OAuth mode the
 * app's own paths go to the app; without OAuth, a discovery probe gets a 404 saying which token to send, and
 * is logged at debug only (clients probe before every connection).
 */
import { describe, expect, it } from "vitest";
import { discoveryProbe, oauthRoutes } from "../../../../mcp-adapter/http/route-steps/oauth-paths.ts";
import type { OAuthPaths } from "../../../../mcp-adapter/http/route-steps/route-step.ts";
import { edgeRequest, refusalLogs } from "../../../support/refusal-logs.ts";

const oauth: OAuthPaths = {
  handles: (path) => path === "/token" || path.startsWith("/.well-known/"),
  takesAnyOrigin: () => false,
  gate: { check: () => Promise.reject(new Error("not asked here")) },
};

describe("the OAuth paths", () => {
  it("in OAuth mode, the app's paths go to the app and nothing else does", async () => {
    const step = oauthRoutes(oauth);
    expect(await step(edgeRequest("POST", "/token"))).toEqual({ kind: "oauth" });
    expect(await step(edgeRequest("GET", "/.well-known/oauth-authorization-server"))).toEqual({ kind: "oauth" });
    expect(await step(edgeRequest("POST", "/mcp"))).toBeUndefined();
    expect(await oauthRoutes(undefined)(edgeRequest("POST", "/token"))).toBeUndefined();
  });

  it("without OAuth, a discovery probe gets a 404 that says which token to send, logged at debug", async () => {
    const logs = refusalLogs();
    const step = discoveryProbe(undefined, logs.logger);
    expect(await step(edgeRequest("GET", "/.well-known/oauth-protected-resource/mcp"))).toEqual({
      kind: "answer",
      status: 404,
      body: {
        error: "not_found",
        error_description: "This server has no OAuth metadata: it takes a static bearer token, Authorization: Bearer <AUTH_TOKEN>.",
      },
      close: true,
    });
    expect(logs.events("http_discovery_probe")).toEqual([
      expect.objectContaining({ level: "debug", path: "/.well-known/oauth-protected-resource/mcp" }),
    ]);
    expect(await step(edgeRequest("POST", "/mcp"))).toBeUndefined();
  });

  it("in OAuth mode the discovery probe step leaves /.well-known/ to the app", async () => {
    expect(await discoveryProbe(oauth, refusalLogs().logger)(edgeRequest("GET", "/.well-known/anything"))).toBeUndefined();
  });
});
