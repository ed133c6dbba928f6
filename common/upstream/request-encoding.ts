/**
 * A described request (upstream-request.ts) as it goes on the wire: its URL below an API base, and its body
 * with the Content-Type that names it. Both training logs' clients send through these, so a query or a body
 * is written the same way whichever log it goes to.
 */
import type { MultipartBody } from "./http-exchange.ts";
import type { UpstreamBody, UpstreamRequest } from "./upstream-request.ts";

/** `apiBase` + the request's path and query; commas stay literal, as they separate list values (`keys=time,distance`). */
export function requestUrl(apiBase: string, request: UpstreamRequest): string {
  let url = apiBase + request.path;
  if (request.query) {
    const params: string[] = [];
    for (const [key, value] of Object.entries(request.query)) {
      if (value === undefined) continue;
      params.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value)).replaceAll("%2C", ",")}`);
    }
    if (params.length > 0) url += `?${params.join("&")}`;
  }
  return url;
}

/** The body to send and its Content-Type (a multipart body's type, with its boundary, is set where it is encoded). */
export function encodedBody(body: UpstreamBody | undefined): { body?: string | MultipartBody; contentType?: string } {
  switch (body?.kind) {
    case "form":
      return { body: new URLSearchParams(body.fields).toString(), contentType: "application/x-www-form-urlencoded" };
    case "json":
      return { body: JSON.stringify(body.value), contentType: "application/json" };
    case "multipart":
      return { body };
    case undefined:
      return {};
  }
}
