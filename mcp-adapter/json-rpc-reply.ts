/**
 * Writing answers on the HTTP side: one place for the JSON bodies (success and error) so every status
 * the endpoint can return has a JSON body and an exact Content-Length (keep-alive friendly).
 */
import type { ServerResponse } from "node:http";

export function sendJson(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
  });
  response.end(body);
}

/** A JSON-RPC error that belongs to no request (transport-level failures: 4xx before dispatch). */
export function sendJsonRpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(response, status, JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), headers);
}
