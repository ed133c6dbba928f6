/**
 * The route table's credentials step (mcp-adapter/http/route-steps/credentials-check.ts). Bearer mode: every path
 * needs the token (401 with the RFC 6750 challenge and a body saying what to send; logged without the header's
 * value). OAuth mode: /mcp needs an access token the app's gate accepts, and the athlete it names goes with the
 * request; the gate's refusal (401 with its challenge, or 503) is passed on as it is. Run in process against the
 * real gate of OAuth mode on the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { credentialsCheck } from "../../../../mcp-adapter/http/route-steps/credentials-check.ts";
import { ManualOAuthClient } from "../../../support/manual-oauth-client.ts";
import { startOAuthInProcess, type InProcessOAuth } from "../../../support/oauth-in-process.ts";
import { edgeRequest, refusalLogs } from "../../../support/refusal-logs.ts";

const token = "a-bearer-token-of-32-characters!";

describe("bearer mode", () => {
  it("passes the right token on every path", async () => {
    const step = credentialsCheck({ bearerToken: token }, refusalLogs().unauthorized);
    for (const path of ["/mcp", "/health", "/anything"]) {
      expect(await step(edgeRequest("POST", path, { authorization: `Bearer ${token}` }))).toBeUndefined();
    }
    expect(await step(edgeRequest("POST", "/mcp", { authorization: `bearer   ${token}  ` }))).toBeUndefined();
  });

  it("answers none, another scheme and a wrong token with 401 and the challenge, and logs the verdict, never the header", async () => {
    const logs = refusalLogs();
    const step = credentialsCheck({ bearerToken: token }, logs.unauthorized);
    expect(await step(edgeRequest("POST", "/mcp"))).toEqual({
      kind: "answer",
      status: 401,
      body: { error: "unauthorized", error_description: "This server needs an Authorization header: Authorization: Bearer <AUTH_TOKEN>." },
      headers: { "www-authenticate": 'Bearer realm="openclaw-fitness"' },
      close: true,
    });
    expect(await step(edgeRequest("POST", "/mcp", { authorization: `Basic ${token}` }))).toMatchObject({
      body: { error_description: "Only the Bearer scheme is accepted: Authorization: Bearer <AUTH_TOKEN>." },
    });
    const wrong = `Bearer ${token.slice(0, -1)}?`;
    expect(await step(edgeRequest("GET", "/health", { authorization: wrong }))).toEqual({
      kind: "answer",
      status: 401,
      body: {
        error: "invalid_token",
        error_description: "The bearer token is not valid for this server. Send Authorization: Bearer <AUTH_TOKEN>.",
      },
      headers: {
        "www-authenticate":
          'Bearer realm="openclaw-fitness", error="invalid_token", error_description="The bearer token is not valid for this server"',
      },
      close: true,
    });
    logs.unauthorized.flush();
    expect(logs.events("http_unauthorized")[0]).toMatchObject({ reason: "missing", method: "POST", path: "/mcp" });
    expect(logs.lines.some((line) => line.includes(token.slice(0, 20)))).toBe(false);
  });

  it("has nothing to check when no token is set", async () => {
    expect(await credentialsCheck({}, refusalLogs().unauthorized)(edgeRequest("POST", "/mcp"))).toBeUndefined();
  });
});

describe("OAuth mode", () => {
  let server: InProcessOAuth;
  let accessToken: string;

  beforeAll(async () => {
    server = await startOAuthInProcess();
    const client = new ManualOAuthClient(server.issuer, { fetch: server.fetch });
    await client.register();
    const { code, verifier } = await client.code();
    accessToken = (await client.exchange(code, verifier)).body["access_token"] as string;
  });

  afterAll(async () => {
    await server?.close();
  });

  it("/mcp with an access token the gate accepts: the request goes on with the athlete it names", async () => {
    const step = credentialsCheck({ oauth: server.app }, refusalLogs().unauthorized);
    const decision = await step(edgeRequest("POST", "/mcp", { authorization: `Bearer ${accessToken}` }));
    expect(decision).toMatchObject({ kind: "mcp", auth: { extra: { athleteId: String(server.sandbox.athleteId) } } });
  });

  it("/mcp without one: the gate's 401 with its challenge, as it is; other paths need none", async () => {
    const logs = refusalLogs();
    const step = credentialsCheck({ oauth: server.app }, logs.unauthorized);
    const refused = await step(edgeRequest("POST", "/mcp"));
    expect(refused).toMatchObject({ kind: "answer", status: 401, close: true, body: { error: "invalid_token" } });
    const headers = (refused as { headers: Record<string, string> }).headers;
    expect(headers["www-authenticate"]).toContain(`resource_metadata="${server.issuer}/.well-known/oauth-protected-resource/mcp"`);
    expect(headers).not.toHaveProperty("content-type");
    expect(logs.events("http_unauthorized")[0]).toMatchObject({ reason: "401" });
    expect(await step(edgeRequest("GET", "/health"))).toBeUndefined();
  });
});
