/**
 * The answers this edge writes itself (everything the SDK's MCP handler does not: refusals before it,
 * /health, 404), with a JSON body and an exact Content-Length.
 *
 * An answer to a request whose body nobody read closes the connection instead of reading the body, so
 * a client sending a body that was never going to be used (a wrong bearer token with 4 GB behind it)
 * costs one answer, not the transfer. Refusals (403, 401) pass `connection: close` themselves, so a
 * refused client cannot keep idle connections either.
 *
 * How the connection is closed matters when the client is still sending: Node would read and discard
 * the rest of the body to finish the exchange, or, told to close, destroy the socket at once, and the
 * reset that closing with unread data sends makes many clients (Node's fetch among them) report a
 * broken connection instead of the answer. So the answer goes out in full, the server's side is closed
 * (FIN) without another byte read (an unread request body stops Node reading the socket), and the
 * socket is destroyed when the client closes it or after `lingerMs`.
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
  const unread = hasUnreadBody(request);
  const closing = headers["connection"] === "close" || unread;
  response.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    ...(closing ? { connection: "close" } : {}),
  });
  if (!unread || response.socket === null) {
    response.end(text);
    return;
  }
  // The exchange is never ended for Node (that would read or reset): the answer is written whole, then
  // the connection is closed from this side.
  const socket = response.socket;
  response.write(text);
  socket.end();
  const lingering = setTimeout(() => socket.destroy(), lingerMs).unref();
  socket.once("close", () => clearTimeout(lingering));
}

/** How long a refused client that is still sending gets to read its answer before the connection is reset. */
export const lingerMs = 1_000;

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
