/**
 * A thin HTTP client for the sandbox tests: starts a sandbox (usually on a clock the test controls),
 * gets an access token through the real token endpoint, and returns raw answers (status, headers,
 * body text) so tests can look at exact bytes.
 */
import { startSandbox } from "../../sandbox/server.ts";
import type { RunningSandbox, SandboxOptions } from "../../sandbox/server.ts";

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** What fetch takes as a body (the DOM's BodyInit is not in this project's lib). */
export type RequestBody = string | URLSearchParams | FormData | Uint8Array;

export interface SandboxSession {
  sandbox: RunningSandbox;
  /** A fresh access token from the token endpoint (rotating the refresh token). */
  token(): Promise<string>;
  get(path: string, accessToken?: string): Promise<RawAnswer>;
  send(method: "POST" | "PUT", path: string, body: RequestBody, contentType: string | null, accessToken?: string): Promise<RawAnswer>;
  tokenRequest(params: Record<string, string>): Promise<RawAnswer>;
  json<T = unknown>(answer: RawAnswer): T;
}

export async function openSession(options: SandboxOptions = {}): Promise<SandboxSession> {
  const sandbox = await startSandbox(options);
  let cached: string | null = null;
  const tokenRequest = async (params: Record<string, string>): Promise<RawAnswer> =>
    raw(await fetch(sandbox.tokenUrl, { method: "POST", body: new URLSearchParams(params) }));
  const token = async (): Promise<string> => {
    const answer = await tokenRequest({
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
      grant_type: "refresh_token",
      refresh_token: sandbox.refreshToken(),
    });
    if (answer.status !== 200) throw new Error(`token request failed: ${answer.status} ${answer.text}`);
    cached = (JSON.parse(answer.text) as { access_token: string }).access_token;
    return cached;
  };
  // Concurrent first requests share one token request (the refresh token rotates on each).
  let first: Promise<string> | null = null;
  const bearer = async (accessToken?: string): Promise<string> => accessToken ?? cached ?? (await (first ??= token()));
  return {
    sandbox,
    token,
    tokenRequest,
    get: async (path, accessToken) =>
      raw(await fetch(sandbox.apiBase + path, { headers: { Authorization: `Bearer ${await bearer(accessToken)}` } })),
    send: async (method, path, body, contentType, accessToken) => {
      const headers: Record<string, string> = { Authorization: `Bearer ${await bearer(accessToken)}` };
      if (contentType) headers["Content-Type"] = contentType;
      return raw(await fetch(sandbox.apiBase + path, { method, headers, body }));
    },
    json: <T>(answer: RawAnswer) => JSON.parse(answer.text) as T,
  };
}

async function raw(response: Response): Promise<RawAnswer> {
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Form body for POST /activities. */
export function form(fields: Record<string, string>): URLSearchParams {
  return new URLSearchParams(fields);
}

export interface ActivityLike {
  id: number;
  name: string;
  sport_type: string;
  type: string;
  start_date: string;
  start_date_local: string;
  elapsed_time: number;
  moving_time: number;
  distance: number;
  private: boolean;
  manual: boolean;
  [key: string]: unknown;
}
