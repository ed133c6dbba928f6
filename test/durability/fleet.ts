/**
 * Real MCP servers (what `npm start` runs, one process each) sharing one credential store, for the
 * token-durability scenarios: start them on a token file, a Secrets Manager secret or an athlete's DynamoDB
 * item (OAuth mode: dynamodb-athlete.ts), call tools over their HTTP endpoint, and make a fresh grant at the
 * sandbox when a scenario needs one.
 *
 * Only the network edge is fake: the sandbox plays Strava and moto_server plays Secrets Manager and DynamoDB.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { RunningSandbox } from "../../sandbox/server.ts";
import { baseEnv, spawnMcpChild, type McpChild } from "../mcp-adapter/mcp-child.ts";
import type { DynamoDbAthlete } from "./dynamodb-athlete.ts";

export const authToken = `durability-${randomBytes(12).toString("hex")}`;

export interface RunningServer {
  child: McpChild;
  mcpUrl: string;
  origin: string;
  pid: number;
  /** The bearer token its /mcp takes (the fleet's own, or the athlete's OAuth access token). */
  bearer: () => string;
}

export type StoreChoice =
  | { kind: "file"; directory: string; refreshToken: string }
  | { kind: "secrets-manager"; secretName: string; awsEnv: Record<string, string> }
  | { kind: "dynamodb"; athlete: DynamoDbAthlete };

/** The environment of a server on `sandbox` with credentials in `store`. */
export function serverEnv(sandbox: RunningSandbox, store: StoreChoice, extra: Record<string, string> = {}): Record<string, string> {
  if (store.kind === "dynamodb") return store.athlete.serverEnv(extra);
  const common = { PORT: "0", AUTH_TOKEN: authToken, STRAVA_API_BASE: sandbox.apiBase, STRAVA_TOKEN_URL: sandbox.tokenUrl };
  if (store.kind === "file") {
    return baseEnv({
      ...common,
      STRAVA_CLIENT_ID: sandbox.clientId,
      STRAVA_CLIENT_SECRET: sandbox.clientSecret,
      STRAVA_REFRESH_TOKEN: store.refreshToken,
      FITNESS_TOKEN_FILE: join(store.directory, "tokens.json"),
      ...extra,
    });
  }
  return baseEnv({ ...common, ...store.awsEnv, FITNESS_SECRET_NAME: store.secretName, ...extra });
}

/** What a server on `store` takes as its bearer token. */
export function bearerFor(store: StoreChoice): () => string {
  return store.kind === "dynamodb" ? () => store.athlete.accessToken() : () => authToken;
}

export async function startServer(
  env: Record<string, string>,
  args: string[] = [],
  bearer = (): string => authToken,
): Promise<RunningServer> {
  const child = spawnMcpChild({ env, args });
  const listening = await child.waitForEvent("listening", 60_000);
  // Its own address: in OAuth mode `url` is PUBLIC_URL's, which a balancer serves.
  const mcpUrl = `http://127.0.0.1:${String(listening["port"])}/mcp`;
  return { child, mcpUrl, origin: new URL(mcpUrl).origin, pid: child.process.pid ?? 0, bearer };
}

export interface ToolOutcome {
  ok: boolean;
  /** The tool's text (an error message when not ok), or what went wrong with the HTTP exchange. */
  text: string;
}

let nextId = 1;

/** One tools/call over HTTP. Never throws: a failed exchange is a failed call. */
export async function callTool(
  server: RunningServer,
  name: string,
  args: Record<string, unknown> = {},
  signal?: AbortSignal,
): Promise<ToolOutcome> {
  try {
    const response = await fetch(server.mcpUrl, {
      method: "POST",
      headers: {
        authorization: `Bearer ${server.bearer()}`,
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: args } }),
      signal: signal ?? AbortSignal.timeout(60_000),
    });
    if (response.status === 401) return { ok: false, text: `HTTP 401: ${response.headers.get("www-authenticate") ?? ""}` };
    const body = (await response.json()) as {
      result?: { isError?: boolean; content?: Array<{ text: string }> };
      error?: { message: string };
    };
    if (!body.result) return { ok: false, text: `JSON-RPC error: ${body.error?.message ?? response.status}` };
    return { ok: body.result.isError !== true, text: body.result.content?.[0]?.text ?? "" };
  } catch (error) {
    return { ok: false, text: `HTTP exchange failed: ${(error as Error).message}` };
  }
}

export async function health(server: RunningServer): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.origin}/health`, { headers: { authorization: `Bearer ${server.bearer()}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * A new grant for the sandbox's athlete, through its authorize page (which approves at once) and the
 * code exchange: what `npm run authorize` does, without the browser.
 */
export async function newGrant(sandbox: RunningSandbox): Promise<{ refresh_token: string; access_token: string; expires_at: number }> {
  const authorize = new URL(sandbox.authorizeUrl);
  authorize.search = new URLSearchParams({
    client_id: sandbox.clientId,
    redirect_uri: "http://127.0.0.1/callback",
    response_type: "code",
    scope: "read,activity:read_all,activity:write,profile:read_all",
  }).toString();
  const redirect = await fetch(authorize, { redirect: "manual" });
  const code = new URL(redirect.headers.get("location") ?? "").searchParams.get("code");
  if (!code) throw new Error("the sandbox's authorize page gave no code");
  const answer = await fetch(sandbox.tokenUrl, {
    method: "POST",
    body: new URLSearchParams({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret, grant_type: "authorization_code", code }),
  });
  return (await answer.json()) as { refresh_token: string; access_token: string; expires_at: number };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
