/**
 * Reads a request body up to a byte limit, without a body-parser: the MCP endpoint needs exactly one
 * `JSON.parse` of the bytes, and a clear 413 (not a half-read stream) when an upload is too large.
 */
import type { IncomingMessage } from "node:http";

/**
 * 40 MiB. The largest file create_upload accepts is 25 MB, which is about 35 MB as base64 (36 MB with
 * the line breaks the schema allows); the rest is room for the JSON-RPC envelope and other arguments.
 */
export const maxRequestBodyBytes = 40 * 1024 * 1024;

export type BodyRead = { ok: true; text: string } | { ok: false; tooLarge: true } | { ok: false; tooLarge: false; error: Error };

export function readRequestBody(request: IncomingMessage, limit: number = maxRequestBodyBytes): Promise<BodyRead> {
  const declared = Number(request.headers["content-length"]);
  if (declared > limit) return Promise.resolve({ ok: false, tooLarge: true });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let finished = false;
    const finish = (result: BodyRead): void => {
      if (finished) return;
      finished = true;
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > limit) {
        // Stop buffering; the caller answers 413 and closes the connection.
        request.pause();
        finish({ ok: false, tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received);
      finish({ ok: true, text: body.toString("utf8") });
    };
    const onError = (error: Error): void => finish({ ok: false, tooLarge: false, error });
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
  });
}
