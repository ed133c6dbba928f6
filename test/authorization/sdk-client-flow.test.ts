/**
 * OAuth mode end to end with the MCP SDK's own client (v2): `npm start` itself (through npm) with MCP_AUTH=oauth on the
 * built-in sandbox, and the SDK's OAuth support doing discovery (RFC 9728, RFC 8414), dynamic client
 * registration, PKCE, the token request and the refresh, the way an MCP host does; the headless user
 * agent presses Continue on the consent page and the sandbox plays Strava's sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { RecordingOAuthProvider } from "../support/sdk-oauth-provider.ts";
import { maya, startOAuthServer, type OAuthServer } from "../support/oauth-server.ts";

let server: OAuthServer;

beforeAll(async () => {
  server = await startOAuthServer({}, { viaNpm: true });
});

afterAll(async () => {
  await server?.stop();
});

/** Connects the SDK client with `provider`, signing in (one redirect) when the server asks for it. */
async function connect(provider: RecordingOAuthProvider): Promise<Client> {
  const client = new Client({ name: "oauth-e2e", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  const transport = new StreamableHTTPClientTransport(new URL(server.mcpUrl), { authProvider: provider });
  try {
    await client.connect(transport);
    return client;
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
  }
  const callback = provider.outcome?.callback;
  if (!callback)
    throw new Error(`The sign-in did not come back to the client: ${JSON.stringify(provider.outcome, null, 1).slice(0, 2000)}`);
  await transport.finishAuth(callback.searchParams);
  const signedIn = new Client({ name: "oauth-e2e", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await signedIn.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl), { authProvider: provider }));
  return signedIn;
}

describe("the SDK client against OAuth mode", () => {
  it("registers, signs in with Strava (the sandbox), gets tokens and calls tools as the athlete", async () => {
    const provider = new RecordingOAuthProvider();
    const client = await connect(provider);
    const callback = provider.outcome?.callback as URL;
    expect(callback.searchParams.get("iss")).toBe(server.issuer);
    expect(provider.clientInformation()?.client_id).toMatch(/^fc_/);
    const tools = await client.listTools();
    expect(tools.tools).toHaveLength(11);
    const athlete = await client.callTool({ name: "get_athlete", arguments: {} });
    expect(athlete.isError).toBeFalsy();
    const text = (athlete.content as { type: string; text: string }[])[0]?.text ?? "";
    expect(JSON.parse(text).id).toBe(Number(maya));
    await client.close();

    // A refresh through the SDK: the refresh token rotates and the new access token works.
    const before = provider.tokens();
    expect(await auth(provider, { serverUrl: new URL(server.mcpUrl) })).toBe("AUTHORIZED");
    const after = provider.tokens();
    expect(after?.refresh_token).not.toBe(before?.refresh_token);
    expect(after?.access_token).not.toBe(before?.access_token);
    const again = await connect(provider);
    expect((await again.listTools()).tools).toHaveLength(11);
    await again.close();
  });
});
