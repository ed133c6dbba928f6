/**
 * OAuth mode after Strava refuses an athlete's stored refresh token, as a person meets it: `npm start` in OAuth mode
 * on the sandbox, a client signs in, the server restarts on the same port and state (the built-in sandbox starts
 * over, so the stored Strava tokens are unknown to it). The server then ends the athlete's grants here, so their
 * client runs a full sign-in instead of calling into a tool error again and again:
 *
 * - the call that meets the refusal says to sign in again (never `npm run authorize`, which OAuth mode never reads);
 * - the next call gets HTTP 401 with the `WWW-Authenticate` challenge within 3 s, and the client's refresh token
 *   gets `invalid_grant`;
 * - the log names the athlete; /health says an athlete must sign in again (by id: this server listens on loopback);
 * - a new sign-in serves the athlete again, and /health is ok again.
 */
import { afterAll, describe, expect, it } from "vitest";
import { scratchDirectory } from "../mcp-adapter/mcp-child.ts";
import { freePort } from "../support/free-port.ts";
import { jsonRpcReply } from "../support/mcp-replies.ts";
import { maya, startOAuthServer, type OAuthServer } from "../support/oauth-server.ts";
import { connectWithOAuth, rawToolCall, resultText } from "../support/oauth-session.ts";
import { RecordingOAuthProvider } from "../support/sdk-oauth-provider.ts";
import { signInAgainHealth } from "../../authorization/sign-in-again.ts";

const state = scratchDirectory();
const servers: OAuthServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  state.remove();
});

async function started(env: Record<string, string>): Promise<OAuthServer> {
  const server = await startOAuthServer(env, { stateDirectory: state.path });
  servers.push(server);
  return server;
}

async function health(server: OAuthServer): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.issuer}/health`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("an athlete whose Strava refresh token the upstream refuses", () => {
  it("has their grants ended here, is told to sign in again, gets a 401 at the next call, and is served after a new sign-in", async () => {
    const port = String(await freePort());
    const provider = new RecordingOAuthProvider();
    const first = await started({ PORT: port });
    const client = await connectWithOAuth(first.mcpUrl, provider);
    expect(client).toBeDefined();
    expect((await client!.callTool({ name: "get_athlete", arguments: {} })).isError).toBeFalsy();
    await client!.close();
    await first.stop();

    // The same port and state, a new sandbox: Strava no longer knows the stored tokens.
    const server = await started({ PORT: port });
    expect(server.issuer).toBe(first.issuer);
    const accessToken = provider.tokens()?.access_token as string;

    const met = await rawToolCall(server.mcpUrl, accessToken, "get_athlete");
    let metText = "";
    if (met.status === 200) {
      const reply = jsonRpcReply(await met.text());
      expect(reply.result?.["isError"]).toBe(true);
      metText = resultText(reply.result);
      expect(metText).toMatch(/must sign in with Strava again from their MCP client/);
    } else {
      expect(met.status).toBe(401);
      await met.arrayBuffer();
    }
    expect(metText).not.toMatch(/npm run authorize/);

    const startedAt = performance.now();
    const next = await rawToolCall(server.mcpUrl, accessToken, "get_athlete");
    const nextMs = performance.now() - startedAt;
    expect(next.status).toBe(401);
    expect(next.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token".*resource_metadata="/);
    await next.arrayBuffer();
    expect(nextMs).toBeLessThan(3_000);

    const refresh = await fetch(`${server.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: provider.tokens()?.refresh_token as string,
        client_id: provider.clientInformation()?.client_id as string,
      }),
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: "invalid_grant" });

    const logged = await server.child.waitForEvent("athlete_must_sign_in_again", 5_000);
    expect(logged).toMatchObject({ level: "warn", athlete: maya, grants_ended: 1 });
    expect(String(logged["message"])).not.toMatch(/npm run authorize/);
    for (const line of server.child.stderrLines) expect(line).not.toMatch(/npm run authorize/);

    const signedOut = await health(server);
    expect(signedOut.status).toBe(200);
    expect(signedOut.body).toMatchObject({ status: "degraded", auth: "oauth", sign_in_again: { count: 1, athletes: [maya] } });
    expect(String((signedOut.body["sign_in_again"] as Record<string, unknown>)["message"])).toMatch(/must sign in with Strava again/);

    // The client finds its tokens refused and signs in again from the start (the SDK client does it by itself).
    const again = await connectWithOAuth(server.mcpUrl, provider);
    expect(again).toBeDefined();
    const athlete = await again!.callTool({ name: "get_athlete", arguments: {} });
    expect(athlete.isError).toBeFalsy();
    expect(JSON.parse(resultText(athlete)).id).toBe(Number(maya));
    await again!.close();
    expect(await health(server)).toMatchObject({ status: 200, body: { status: "ok" } });
    expect((await health(server)).body["sign_in_again"]).toBeUndefined();
  });
});

describe("what /health says of athletes who must sign in again", () => {
  it("names them only on a server that listens on loopback alone, and counts them elsewhere (it needs no token)", () => {
    expect(signInAgainHealth([], true)).toBeUndefined();
    expect(signInAgainHealth([maya, "61930114"], true)).toMatchObject({ count: 2, athletes: [maya, "61930114"] });
    const beyondLoopback = signInAgainHealth([maya], false);
    expect(beyondLoopback).toMatchObject({ count: 1 });
    expect(beyondLoopback).not.toHaveProperty("athletes");
    expect(JSON.stringify(beyondLoopback)).not.toContain(maya);
  });
});
