/**
 * Reads a request's whole body up to a byte limit, for the local servers (the sandbox, the voice API's local
 * gateway). A body that declares more than the limit is refused before a byte of it is read; one that only
 * turns out longer while streaming is read no further (the request is destroyed). Either way the caller
 * answers 413 if the connection still stands, and closes it.
 */
import type { IncomingMessage } from "node:http";
import { NamedError } from "./named-error.ts";

export class RequestBodyTooLargeError extends NamedError {
  readonly limitBytes: number;
  constructor(limitBytes: number) {
    super(`The request body is larger than ${limitBytes} bytes.`);
    this.limitBytes = limitBytes;
  }
}

export async function readRequestBody(request: IncomingMessage, limitBytes: number): Promise<Buffer> {
  if (Number(request.headers["content-length"]) > limitBytes) throw new RequestBodyTooLargeError(limitBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Leaving the loop destroys the request: nothing more is read.
    if (size > limitBytes) throw new RequestBodyTooLargeError(limitBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}
