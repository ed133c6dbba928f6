/** The result shape both front ends return (MCP `CallToolResult` and the OpenClaw tool result share it). */
export interface ToolResult {
  content: [{ type: "text"; text: string }];
  isError?: true;
  /** The upstream's HTTP status when a request was answered (absent for input errors and network failures). */
  upstreamStatus?: number;
}

export function textResult(text: string, upstreamStatus: number): ToolResult {
  return { content: [{ type: "text", text }], upstreamStatus };
}

/** The error shape every front end shows: `Error: <message>` with `isError: true`. */
export function errorResult(message: string, upstreamStatus?: number): ToolResult {
  const result: ToolResult = { content: [{ type: "text", text: `Error: ${message}` }], isError: true };
  if (upstreamStatus !== undefined) result.upstreamStatus = upstreamStatus;
  return result;
}
