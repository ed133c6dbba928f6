/**
 * What a handler answers, as data: the server adds the rate-limit headers, applies injected faults
 * (truncation, non-JSON bodies) and writes it. Bodies are already-serialised JSON so hot routes can
 * hand back cached strings.
 */
export interface Reply {
  status: number;
  body: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export const jsonContentType = "application/json; charset=utf-8";

export function jsonReply(status: number, serialized: string): Reply {
  return { status, body: serialized };
}

export function redirectReply(location: string): Reply {
  return { status: 302, body: "", contentType: "text/html; charset=utf-8", headers: { Location: location } };
}
