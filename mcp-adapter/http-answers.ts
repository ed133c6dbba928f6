/**
 * The answers this edge writes itself (everything the SDK's MCP handler does not: refusals before it,
 * /health, 404), with a JSON body and an exact Content-Length.
 *
 * An answer to a request whose body nobody read closes the connection instead of reading the body:
 * with `Connection: close` Node ends the socket once the answer is out, so a client sending a body that
 * was never going to be used (a wrong bearer token with 4 GB behind it) costs one answer, not the
 * transfer. Refusals (403, 401) pass `connection: close` themselves, so a refused client cannot keep
 * idle connections either.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export function sendJson(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  const closing = headers["connection"] === "close" || hasUnreadBody(request);
  response.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    ...(closing ? { connection: "close" } : {}),
  });
  response.end(text);
}

/** A JSON-RPC error that belongs to no request (refused before any message was read). */
export function sendJsonRpcError(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(request, response, status, { jsonrpc: "2.0", error: { code, message }, id: null }, headers);
}

/** Whether the request announced a body (a length above zero, or chunked transfer) that nobody has read. */
export function hasUnreadBody(request: IncomingMessage): boolean {
  if (request.readableEnded) return false;
  const length = request.headers["content-length"];
  if (length !== undefined) return Number(length) > 0;
  return request.headers["transfer-encoding"] !== undefined;
}
