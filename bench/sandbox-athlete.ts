/**
 * The sandbox's athlete as the benchmarks that start the MCP server use it (bench/mcp-bench.ts,
 * bench/mcp-memory-phases.ts): its grant, an access token of the load generator's own, the activities the
 * calls ask for, and the environment that starts the MCP server on that grant with its token in a file.
 */
import type { LeanHttpClient, LeanResponse } from "./lean-http-client.ts";

export interface SandboxAddresses {
  apiBase: string;
  tokenUrl: string;
}

export interface SandboxGrant {
  client_id: string;
  client_secret: string;
  refresh_token: string;
}

export type SandboxControl = (method: "GET" | "POST", name: string) => Promise<Record<string, unknown>>;

/** The sandbox's control endpoints (`/_sandbox/NAME`) through `upstream`. */
export function sandboxControl(upstream: LeanHttpClient): SandboxControl {
  return async (method, name) =>
    JSON.parse((await upstream.send({ method, path: `/_sandbox/${name}`, headers: {} })).body) as Record<string, unknown>;
}

export async function sandboxGrant(control: SandboxControl): Promise<SandboxGrant> {
  return (await control("GET", "credentials")) as unknown as SandboxGrant;
}

/** An access token from a refresh of the load generator's own (the sandbox does not rotate refresh tokens here). */
export async function sandboxAccessToken(upstream: LeanHttpClient, sandbox: SandboxAddresses, grant: SandboxGrant): Promise<string> {
  const answer = await upstream.send({
    method: "POST",
    path: new URL(sandbox.tokenUrl).pathname,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...grant, grant_type: "refresh_token" }).toString(),
  });
  if (answer.status !== 200) throw new Error(`the benchmark's own token refresh failed: ${answer.status} ${answer.body}`);
  return (JSON.parse(answer.body) as { access_token: string }).access_token;
}

export interface BenchActivity {
  id: number;
  elapsed_time: number;
  sport_type: string;
}

/** A typical activity (a run, 13 KB as JSON) for per-call figures, and the longest ride for the streams. */
export async function benchActivities(
  upstream: LeanHttpClient,
  sandbox: SandboxAddresses,
  accessToken: string,
): Promise<{ typical: BenchActivity; longRide: BenchActivity }> {
  const path = `${new URL(sandbox.apiBase).pathname}/athlete/activities?per_page=200`;
  const activities = JSON.parse(
    (await upstream.send({ method: "GET", path, headers: { authorization: `Bearer ${accessToken}` } })).body,
  ) as BenchActivity[];
  const typical = activities.find((a) => a.sport_type === "Run") ?? activities[0]!;
  const longRide = activities.reduce((a, b) => (b.elapsed_time > a.elapsed_time ? b : a));
  return { typical, longRide };
}

/** The environment of a the MCP server on the sandbox's grant, over HTTP on a free loopback port, tokens in `tokenFile`. */
export function mcpServerEnvOnSandbox(
  sandbox: SandboxAddresses,
  grant: SandboxGrant,
  authToken: string,
  tokenFile: string,
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOST: "127.0.0.1",
    PORT: "0",
    AUTH_TOKEN: authToken,
    LOG_LEVEL: "info",
    STRAVA_CLIENT_ID: grant.client_id,
    STRAVA_CLIENT_SECRET: grant.client_secret,
    STRAVA_REFRESH_TOKEN: grant.refresh_token,
    STRAVA_API_BASE: sandbox.apiBase,
    STRAVA_TOKEN_URL: sandbox.tokenUrl,
    FITNESS_TOKEN_FILE: tokenFile,
  };
}

/** A tools/call answered with a result that is not a tool error. */
export function mcpCallOk(response: LeanResponse): boolean {
  return response.status === 200 && !response.body.includes('"isError":true') && response.body.includes('"result"');
}
