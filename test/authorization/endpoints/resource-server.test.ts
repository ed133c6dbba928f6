/**
 * What the resource server (authorization/endpoints/resource-server.ts, the gate in front of /mcp) accepts, in
 * process (test/support/oauth-in-process.ts, the SDK's client signing in through it): the access token the
 * server issued works; an expired one, one for
 * another audience, one altered on the way, one of a revoked grant and none at all get 401 with the RFC
 * 9728 challenge naming the protected resource metadata, and nothing is served. Revocation (RFC 7009)
 * ends the grant: its refresh token and every access token of it stop working at once. A grant store that
 * cannot be read gets 503 with Retry-After, not a challenge that would make the client sign in again.
 */
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt, SignJWT } from "jose";
import { RecordingOAuthProvider } from "../../support/sdk-oauth-provider.ts";
import { connectWithOAuth, rawToolCall as rawToolCallOver, resultText } from "../../support/oauth-session.ts";
import { startOAuthInProcess, type InProcessOAuth } from "../../support/oauth-in-process.ts";

let server: InProcessOAuth;
let provider: RecordingOAuthProvider;
let fetch: typeof globalThis.fetch;

beforeAll(async () => {
  server = await startOAuthInProcess();
  fetch = server.fetch;
  provider = new RecordingOAuthProvider({ fetch });
  const client = await connectWithOAuth(server.mcpUrl, provider, fetch);
  await client?.close();
});

afterAll(async () => {
  await server?.close();
});

/** A tools/call sent in process. */
function rawToolCall(mcpUrl: string, accessToken: string | undefined, name: string): Promise<Response> {
  return rawToolCallOver(mcpUrl, accessToken, name, {}, fetch);
}

/** A token like `base` with some claims changed, signed with the server's own key. */
async function forged(base: string, changes: Record<string, unknown>): Promise<string> {
  const claims = { ...decodeJwt(base), ...changes };
  return new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "at+jwt" }).sign(server.signingKey());
}

async function expectChallenge(response: Response, description: RegExp): Promise<void> {
  expect(response.status).toBe(401);
  const challenge = response.headers.get("www-authenticate") ?? "";
  expect(challenge).toContain('error="invalid_token"');
  expect(challenge).toContain(`resource_metadata="${server.issuer}/.well-known/oauth-protected-resource/mcp"`);
  const body = (await response.json()) as { error: string; error_description: string };
  expect(body.error).toBe("invalid_token");
  expect(body.error_description).toMatch(description);
}

describe("access tokens at /mcp", () => {
  it("the issued token works", async () => {
    const response = await rawToolCall(server.mcpUrl, provider.tokens()?.access_token, "get_athlete");
    expect(response.status).toBe(200);
    expect(resultText(((await response.json()) as { result: unknown }).result)).toContain('"firstname":"Maya"');
  });

  it("no token: 401 naming the protected resource metadata, which names the authorization server", async () => {
    const response = await rawToolCall(server.mcpUrl, undefined, "get_athlete");
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("resource_metadata=");
    const metadata = (await (await fetch(`${server.issuer}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(metadata["resource"]).toBe(server.mcpUrl);
    expect(metadata["authorization_servers"]).toEqual([server.issuer]);
    const root = (await (await fetch(`${server.issuer}/.well-known/oauth-protected-resource`)).json()) as Record<string, unknown>;
    expect(root).toEqual(metadata);
    const as = (await (await fetch(`${server.issuer}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as).toMatchObject({
      issuer: server.issuer,
      code_challenge_methods_supported: ["S256"],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      revocation_endpoint: `${server.issuer}/revoke`,
    });
    expect((await fetch(`${server.issuer}/.well-known/openid-configuration`)).status).toBe(404);
  });

  it("an expired token: 401", async () => {
    // Hours before the server issued the real token: its own clock, whatever the test's says.
    const issuedAt = decodeJwt(provider.tokens()?.access_token as string).iat as number;
    const token = await forged(provider.tokens()?.access_token as string, { iat: issuedAt - 7200, exp: issuedAt - 3600 });
    await expectChallenge(await rawToolCall(server.mcpUrl, token, "get_athlete"), /expired/);
  });

  it("a token for another audience: 401", async () => {
    const token = await forged(provider.tokens()?.access_token as string, { aud: "https://other.example.com/mcp" });
    await expectChallenge(await rawToolCall(server.mcpUrl, token, "get_athlete"), /another resource/);
  });

  it("a token altered on the way (claims changed, signature kept): 401", async () => {
    const [header, payload, signature] = (provider.tokens()?.access_token as string).split(".");
    const claims = JSON.parse(Buffer.from(payload as string, "base64url").toString("utf8")) as Record<string, unknown>;
    const altered = Buffer.from(JSON.stringify({ ...claims, scope: "fitness:read fitness:write", sub: "61930114" })).toString("base64url");
    await expectChallenge(await rawToolCall(server.mcpUrl, `${header}.${altered}.${signature}`, "get_athlete"), /signature/);
  });

  it("a token signed with another key: 401", async () => {
    const claims = decodeJwt(provider.tokens()?.access_token as string);
    const token = await new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "at+jwt" }).sign(new Uint8Array(32).fill(7));
    await expectChallenge(await rawToolCall(server.mcpUrl, token, "get_athlete"), /signature/);
  });

  it("revocation (RFC 7009) ends the grant: its access token gets 401 at once and its refresh token is refused", async () => {
    const second = new RecordingOAuthProvider({ fetch });
    (await connectWithOAuth(server.mcpUrl, second, fetch))?.close();
    const tokens = second.tokens();
    const clientId = second.clientInformation()?.client_id as string;
    expect((await rawToolCall(server.mcpUrl, tokens?.access_token, "get_athlete")).status).toBe(200);
    const revoked = await fetch(`${server.issuer}/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens?.refresh_token as string, token_type_hint: "refresh_token", client_id: clientId }),
    });
    expect(revoked.status).toBe(200);
    await expectChallenge(await rawToolCall(server.mcpUrl, tokens?.access_token, "get_athlete"), /revoked/);
    const refresh = await fetch(`${server.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens?.refresh_token as string, client_id: clientId }),
    });
    expect(refresh.status).toBe(400);
    expect(((await refresh.json()) as { error: string }).error).toBe("invalid_grant");
    // Revoking again, or revoking nonsense, is answered 200 (RFC 7009 §2.2).
    for (const token of [tokens?.refresh_token as string, "not-a-token"]) {
      const again = await fetch(`${server.issuer}/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token, client_id: clientId }),
      });
      expect(again.status).toBe(200);
    }
    // The first client's grant is untouched.
    expect((await rawToolCall(server.mcpUrl, provider.tokens()?.access_token, "get_athlete")).status).toBe(200);
  });

  it("no line of the server's log holds a token or a code", async () => {
    const secrets = [
      provider.tokens()?.access_token,
      provider.tokens()?.refresh_token,
      provider.outcome?.callback?.searchParams.get("code"),
    ].filter((value): value is string => typeof value === "string" && value.length > 0);
    expect(secrets.length).toBe(3);
    for (const line of server.logs) for (const secret of secrets) expect(line).not.toContain(secret);
  });
});

describe("a store that cannot be read", () => {
  it("answers 503 with Retry-After, not a challenge that would make the client sign in again; then recovers", async () => {
    const own = new RecordingOAuthProvider({ fetch });
    (await connectWithOAuth(server.mcpUrl, own, fetch))?.close();
    // The grants' folder replaced by a file: every read of a grant fails.
    const grants = join(server.stateDirectory, "grants");
    renameSync(grants, `${grants}.aside`);
    writeFileSync(grants, "");
    try {
      const broken = await rawToolCall(server.mcpUrl, own.tokens()?.access_token, "get_athlete");
      expect(broken.status).toBe(503);
      expect(broken.headers.get("retry-after")).toBe("5");
      expect(broken.headers.get("www-authenticate")).toBeNull();
      expect(await broken.json()).toEqual({
        error: "temporarily_unavailable",
        error_description: "The server could not check the token's grant just now; try again shortly.",
      });
    } finally {
      rmSync(grants);
      renameSync(`${grants}.aside`, grants);
    }
    expect((await rawToolCall(server.mcpUrl, own.tokens()?.access_token, "get_athlete")).status).toBe(200);
  });
});
