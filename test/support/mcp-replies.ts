/**
 * The JSON-RPC messages in the body of an MCP HTTP answer, in either shape the transport allows: a JSON
 * body (what this server sends) or SSE events (`event: message` / `data: {...}`, what the SDK sends
 * when a handler streams), so raw-HTTP tests and benchmarks keep reading answers if that changes.
 */
export function jsonRpcMessages(body: string): unknown[] {
  const text = body.trimStart();
  if (text.startsWith("{") || text.startsWith("[")) {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed : [parsed];
  }
  const messages: unknown[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trimStart())
      .join("\n");
    if (data !== "") messages.push(JSON.parse(data));
  }
  return messages;
}

/** The one JSON-RPC message of an answer (throws when there is not exactly one). */
export function jsonRpcReply<T = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } }>(
  body: string,
): T {
  const messages = jsonRpcMessages(body);
  if (messages.length !== 1) throw new Error(`expected one JSON-RPC message, got ${messages.length}: ${body.slice(0, 300)}`);
  return messages[0] as T;
}
