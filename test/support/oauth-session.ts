/**
 * Helpers for the OAuth end-to-end tests: sign a client in with the SDK client's OAuth support (one
 * redirect through the headless user agent) and call /mcp with a given access token as raw HTTP.
 */
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import type { RecordingOAuthProvider } from "./sdk-oauth-provider.ts";

/**
 * Connects the SDK client with `provider`, signing in when the server asks for it; undefined when the sign-in did not
 * come back. `fetcher`: the fetch of a server in the test's own process (test/support/oauth-in-process.ts).
 */
export async function connectWithOAuth(
  mcpUrl: string,
  provider: RecordingOAuthProvider,
  fetcher?: typeof fetch,
): Promise<Client | undefined> {
  const client = new Client({ name: "oauth-e2e", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  const over = fetcher ? { fetch: fetcher } : {};
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, ...over });
  try {
    await client.connect(transport);
    return client;
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
  }
  const callback = provider.outcome?.callback;
  if (!callback || callback.searchParams.has("error")) return undefined;
  await transport.finishAuth(callback.searchParams);
  const signedIn = new Client({ name: "oauth-e2e", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await signedIn.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, ...over }));
  return signedIn;
}

/** The text of a tool result's first content block. */
export function resultText(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content[0]?.text ?? "";
}

/** A 2025-era tools/call over raw HTTP with `accessToken` (to see the HTTP status a bad token gets); `fetcher` for a server in process. */
export async function rawToolCall(
  mcpUrl: string,
  accessToken: string | undefined,
  name: string,
  args: Record<string, unknown> = {},
  fetcher: typeof fetch = fetch,
): Promise<Response> {
  return fetcher(mcpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
}
