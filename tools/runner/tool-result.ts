/**
 * What a tool call answers: the result shape both front ends return (MCP `CallToolResult` and the OpenClaw tool
 * result share it), and how a success, an error and a training log's failure become one.
 */
import { UpstreamStatusError, type UpstreamError } from "../../common/upstream/upstream-errors.ts";

/** The result shape both front ends return. */
export interface ToolResult {
  content: [{ type: "text"; text: string }];
  isError?: true;
  /** The upstream's HTTP status when a request was answered (absent for input errors and network failures). */
  upstreamStatus?: number;
  /**
   * A failure's kind, for a caller that acts on it without a person reading the text (the plugin's
   * background check): the named error's class, such as "UpstreamTimeoutError" or "RefreshTokenRejectedError".
   * Never shown to a client.
   */
  errorKind?: string;
}

export function textResult(text: string, upstreamStatus: number): ToolResult {
  return { content: [{ type: "text", text }], upstreamStatus };
}

/** The error shape every front end shows: `Error: <message>` with `isError: true`. */
export function errorResult(message: string, upstreamStatus?: number, errorKind?: string): ToolResult {
  const result: ToolResult = { content: [{ type: "text", text: `Error: ${message}` }], isError: true };
  if (upstreamStatus !== undefined) result.upstreamStatus = upstreamStatus;
  if (errorKind !== undefined) result.errorKind = errorKind;
  return result;
}

/** A training log's failure as a call's error result: its message, the status when the log answered, its kind. */
export function upstreamErrorResult(error: UpstreamError): ToolResult {
  return errorResult(error.message, error instanceof UpstreamStatusError ? error.status : undefined, error.name);
}
