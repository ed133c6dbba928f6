/**
 * The MCP server over stdio: newline-delimited JSON-RPC on standard input and output, for clients that start
 * the server themselves (Claude Desktop, Claude Code, Cursor, the Inspector), served by the SDK's
 * `serveStdio` from the same factory as HTTP (2026-07-28 and 2025-era clients alike).
 *
 * The SDK's stdio transport drops the calls still running when standard input ends. Here standard input
 * reaches the transport through a gate that this server ends itself: when the client closes its end (or
 * on SIGTERM), the gate stops taking messages, the calls in flight finish and are answered, and only
 * then does the transport see the end. The gate passes whole lines and answers those that are not one
 * JSON-RPC message or are too long (mcp-adapter/stdio/stdio-lines.ts). Standard output carries protocol
 * messages only.
 */
import { StdioLines } from "./stdio-lines.ts";
import type { Server } from "@modelcontextprotocol/server";
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { Logger } from "../../common/logger.ts";

export interface RunningStdioServer {
  /** Resolves when the client closes standard input (it has gone away, or wants the server to stop). */
  readonly ended: Promise<void>;
  /** Takes no further messages from standard input. */
  stopReading(): void;
  /** Ends the connection (after the calls in flight were answered). */
  close(): Promise<void>;
}

export function startStdioServer(options: { factory: () => Server; maxMessageBytes: number; logger: Logger }): RunningStdioServer {
  const gate = new StdioLines({
    maxLineBytes: options.maxMessageBytes,
    answer: (line) => process.stdout.write(line),
    logger: options.logger,
  });
  process.stdin.pipe(gate, { end: false });
  const ended = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  // The SDK's default line limit (10 MB) is below a base64 upload; the gate holds lines to what HTTP
  // allows, and hands the transport one line at a time (its newline on top).
  const transport = new StdioServerTransport(gate, process.stdout, { maxBufferSize: options.maxMessageBytes + 1 });
  const handle = serveStdio(options.factory, { transport, onerror: (error) => options.logger.warn("mcp_stdio_error", { error }) });
  return {
    ended,
    stopReading: () => {
      process.stdin.unpipe(gate);
      process.stdin.pause();
    },
    close: async () => {
      gate.end();
      await handle.close();
    },
  };
}
