/**
 * A thin HTTP client for tests of the sandbox's intervals.icu face: the athlete's key as HTTP Basic credentials
 * (user API_KEY), raw answers (status, headers, body text) so tests can look at exact bytes.
 */
import type { RunningSandbox } from "../../sandbox/server.ts";
import type { RawAnswer, RequestBody } from "./sandbox-client.ts";

export interface IntervalsFaceClient {
  get(path: string, authorization?: string): Promise<RawAnswer>;
  send(method: "POST" | "PUT", path: string, body: RequestBody, contentType: string | null): Promise<RawAnswer>;
  json<T = unknown>(answer: RawAnswer): T;
}

export function basicAuthorization(key: string, user = "API_KEY"): string {
  return `Basic ${Buffer.from(`${user}:${key}`).toString("base64")}`;
}

export function intervalsFaceClient(sandbox: RunningSandbox): IntervalsFaceClient {
  const authorization = basicAuthorization(sandbox.intervalsApiKey);
  const raw = async (response: Response): Promise<RawAnswer> => ({
    status: response.status,
    headers: response.headers,
    text: await response.text(),
  });
  return {
    get: async (path, auth = authorization) =>
      raw(await fetch(sandbox.intervalsApiBase + path, { headers: auth === "" ? {} : { Authorization: auth } })),
    send: async (method, path, body, contentType) => {
      const headers: Record<string, string> = { Authorization: authorization };
      if (contentType) headers["Content-Type"] = contentType;
      return raw(await fetch(sandbox.intervalsApiBase + path, { method, headers, body }));
    },
    json: <T>(answer: RawAnswer) => JSON.parse(answer.text) as T,
  };
}
