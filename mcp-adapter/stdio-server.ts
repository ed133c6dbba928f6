/**
 * Form A over stdio: newline-delimited JSON-RPC on standard input and output, for clients that start
 * the server themselves (Claude Desktop, Cursor, the Inspector). Standard output carries protocol
 * messages only; every log line goes to standard error.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { maxRequestBodyBytes } from "./read-request-body.ts";

export interface RunningStdioServer {
  /** Resolves when the client closes standard input (it has gone away). */
  readonly ended: Promise<void>;
  close(): Promise<void>;
}

export async function startStdioServer(mcpServer: Server): Promise<RunningStdioServer> {
  // The SDK's default line limit (10 MB) is below a base64 upload; allow what HTTP allows.
  const transport = new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize: maxRequestBodyBytes });
  const ended = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  await mcpServer.connect(transport);
  return { ended, close: () => mcpServer.close() };
}
