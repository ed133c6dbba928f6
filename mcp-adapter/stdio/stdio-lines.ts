/**
 * Standard input, as whole lines, on its way to the SDK's stdio transport; lines no JSON-RPC message can
 * be made of are answered here instead of passed on.
 *
 * Why not leave it all to the SDK's transport: its reader drops a line that is not JSON without a word
 * (the client waits for ever for an answer), answers a batch or a non-message with nothing but an error
 * event, closes itself on a line over its limit and then reads nothing more while the process lives on
 * (a client sees a server that hangs), and copies its whole buffer at every chunk (a 25 MB upload took
 * seconds of CPU). Here each line reaches it in one chunk, and a client always gets an answer:
 *
 * - not JSON: -32700 Parse error, `id` null (JSON-RPC 2.0);
 * - JSON but not one JSON-RPC message (a batch, which MCP no longer has since 2025-06-18, or anything the
 *   SDK's own message schema refuses): -32600 Invalid Request, with its `id` if it has a usable one;
 * - longer than the limit: the line is skipped to its end and answered -32600, `id` null (the id is in
 *   the part not kept), and reading goes on with the next line.
 *
 * Nothing of a refused line is logged but its size: it may hold anything, tokens included.
 */
import { Transform, type TransformCallback } from "node:stream";
import { parseJSONRPCMessage } from "@modelcontextprotocol/server";
import type { Logger } from "../../common/logger.ts";

const newline = 0x0a;

export interface StdioLinesOptions {
  maxLineBytes: number;
  /** Writes one answer (a JSON-RPC message and its newline) to the client. */
  answer: (line: string) => void;
  logger: Logger;
}

export class StdioLines extends Transform {
  readonly #options: StdioLinesOptions;
  /** The start of the current line, in the chunks it came in. */
  #parts: Buffer[] = [];
  #length = 0;
  /** Past the limit: the rest of this line is dropped (and counted, for the log). */
  #skipping = false;
  #skipped = 0;

  constructor(options: StdioLinesOptions) {
    super();
    this.#options = options;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(newline, start);
      if (end === -1) {
        this.#keep(chunk.subarray(start));
        break;
      }
      this.#keep(chunk.subarray(start, end));
      if (this.#skipping) this.#refuseOversized();
      else this.#line(this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts, this.#length));
      this.#parts = [];
      this.#length = 0;
      this.#skipping = false;
      this.#skipped = 0;
      start = end + 1;
    }
    done();
  }

  /**
   * Standard input ended inside a line: it is answered, not run (the server is stopping, and a message
   * ends with its newline).
   */
  override _flush(done: TransformCallback): void {
    if (this.#skipping) this.#refuseOversized();
    else if (this.#length > 0 && Buffer.concat(this.#parts, this.#length).toString("utf8").trim() !== "") {
      this.#refuse(
        -32600,
        "Invalid Request: standard input ended in the middle of a message (each message ends with a newline).",
        null,
        this.#length,
      );
    }
    done();
  }

  #keep(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.#skipping) {
      this.#skipped += piece.length;
      return;
    }
    if (this.#length + piece.length > this.#options.maxLineBytes) {
      this.#skipping = true;
      this.#skipped = this.#length + piece.length;
      this.#parts = [];
      this.#length = 0;
      return;
    }
    this.#parts.push(piece);
    this.#length += piece.length;
  }

  #line(line: Buffer): void {
    const bytes = line.at(-1) === 0x0d ? line.subarray(0, -1) : line;
    const text = bytes.toString("utf8");
    if (text.trim() === "") return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.#refuse(-32700, "Parse error: a line on standard input was not JSON. Send one JSON-RPC message per line.", null, bytes.length);
      return;
    }
    if (Array.isArray(message)) {
      this.#refuse(
        -32600,
        "Invalid Request: batches are not part of MCP (since 2025-06-18). Send one JSON-RPC message per line.",
        null,
        bytes.length,
      );
      return;
    }
    try {
      parseJSONRPCMessage(message);
    } catch {
      const id = typeof message === "object" && message !== null ? (message as { id?: unknown }).id : undefined;
      this.#refuse(
        -32600,
        'Invalid Request: not a JSON-RPC 2.0 message (it needs "jsonrpc": "2.0", a string or number "id" for a request, ' +
          'a "method" with object "params", and no other members; or a response with "result" or "error").',
        typeof id === "string" || typeof id === "number" ? id : null,
        bytes.length,
      );
      return;
    }
    this.push(Buffer.concat([bytes, Buffer.of(newline)]));
  }

  #refuseOversized(): void {
    const limit = this.#options.maxLineBytes;
    this.#refuse(
      -32600,
      `Invalid Request: a message on standard input is longer than ${limit} bytes, the most this server reads; it was skipped.`,
      null,
      this.#skipped,
    );
  }

  #refuse(code: number, message: string, id: string | number | null, bytes: number): void {
    this.#options.logger.warn("mcp_stdio_refused", { code, bytes, message });
    this.#options.answer(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`);
  }
}
