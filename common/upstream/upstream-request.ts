/**
 * One request to the upstream REST API, described as data so that each tool definition can say what
 * it sends without knowing about tokens, timeouts or encodings.
 */
import type { MultipartBody } from "./http-exchange.ts";

export type QueryValue = string | number | boolean | undefined;

export type UpstreamBody =
  /** `application/x-www-form-urlencoded`: what Strava's POST /activities takes. */
  | { kind: "form"; fields: Record<string, string> }
  /** `application/json`: PUT /activities/{id}. */
  | { kind: "json"; value: unknown }
  /** `multipart/form-data`: POST /uploads, with the file as a real file part. */
  | MultipartBody;

export interface UpstreamRequest {
  method: "GET" | "POST" | "PUT";
  /** Path below the API base, starting with "/": "/activities/123". */
  path: string;
  query?: Record<string, QueryValue>;
  body?: UpstreamBody;
}

/** "GET /activities/123", for messages and logs (no host, no query, no token). */
export function describeRequest(request: UpstreamRequest): string {
  return `${request.method} ${request.path}`;
}
