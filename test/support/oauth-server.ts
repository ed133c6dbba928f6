/**
 * The MCP server in OAuth mode as `npm start` runs it (node mcp-adapter/start.mjs, MCP_AUTH=oauth), on the
 * built-in sandbox with its second athlete, its state in a scratch directory: for the end-to-end tests
 * of OAuth mode. `signIn` says who is signed in at the sandbox's authorize page (Strava's login).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { baseEnv, scratchDirectory, spawnMcpChild, type McpChild } from "../mcp-adapter/mcp-child.ts";
import { stravaWebhookPath } from "../../authorization/strava/webhook-path.ts";

export const maya = "48201735";
export const jonas = "61930114";

export interface OAuthServer {
  child: McpChild;
  /** PUBLIC_URL's origin (the issuer). */
  issuer: string;
  mcpUrl: string;
  sandboxBaseUrl: string;
  stateDirectory: string;
  /** The signing key the server keeps in its state directory (tests forge tokens with it). */
  signingKey(): Uint8Array;
  /** The address Strava's push subscription must post to (the webhook's secret path, made from the signing key). */
  webhookUrl(): string;
  signIn(athleteId: string): Promise<void>;
  deauthorize(athleteId: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startOAuthServer(
  extraEnv: Record<string, string> = {},
  options: { stateDirectory?: string; viaNpm?: boolean } = {},
): Promise<OAuthServer> {
  const scratch = options.stateDirectory ? undefined : scratchDirectory();
  const stateDirectory = options.stateDirectory ?? (scratch as { path: string }).path;
  const child = spawnMcpChild({
    env: baseEnv({ MCP_AUTH: "oauth", PORT: "0", FITNESS_OAUTH_DIR: stateDirectory, SANDBOX_SECOND_ATHLETE: "true", ...extraEnv }),
    ...(options.viaNpm ? { viaNpm: true } : {}),
  });
  let listening: Record<string, unknown>;
  try {
    listening = await child.waitForEvent("listening");
  } catch (error) {
    scratch?.remove();
    throw error;
  }
  const mcpUrl = String(listening["url"]);
  const sandboxBaseUrl = String(listening["sandbox"] ?? "");
  const control = async (name: string, athleteId: string): Promise<void> => {
    const response = await fetch(`${sandboxBaseUrl}/_sandbox/${name}`, {
      method: "POST",
      body: JSON.stringify({ athlete_id: Number(athleteId) }),
    });
    if (!response.ok) throw new Error(`sandbox ${name} failed: ${response.status} ${await response.text()}`);
  };
  return {
    child,
    issuer: new URL(mcpUrl).origin,
    mcpUrl,
    sandboxBaseUrl,
    stateDirectory,
    signingKey: () => Buffer.from(readFileSync(join(stateDirectory, "signing-key"), "utf8").trim(), "base64url"),
    webhookUrl: () =>
      `${new URL(mcpUrl).origin}${stravaWebhookPath(Buffer.from(readFileSync(join(stateDirectory, "signing-key"), "utf8").trim(), "base64url"))}`,
    signIn: (athleteId) => control("sign-in", athleteId),
    deauthorize: (athleteId) => control("deauthorize", athleteId),
    stop: async () => {
      await child.stop();
      scratch?.remove();
    },
  };
}
