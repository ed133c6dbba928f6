/**
 * The `fetch` Form A hands to the core (`createToolDeps({ fetch })`): the subset of fetch the upstream
 * client and token manager use, on `node:http`/`node:https` keep-alive agents.
 *
 * Why: the built-in fetch (undici behind WHATWG Request/Response/streams) still costs more CPU per call
 * than a plain `http.request` on Node 24, and Form A with it measured worse per call and in throughput
 * in the same benchmark run (BENCHMARKS.md, "Form A with Node's built-in fetch upstream"). The core's own
 * network seam is not this file's business: it takes any fetch.
 *
 * What it keeps from fetch: the same call shape; `Accept-Encoding: gzip, deflate, br` with transparent
 * decompression; `signal` aborts the request and rejects with the signal's reason; network failures
 * reject with `TypeError("fetch failed", { cause })` as undici does, so the core's messages still name
 * the cause (ECONNRESET, ECONNREFUSED...). What it leaves out: redirects are returned, not followed
 * (Strava's API and token endpoint do not redirect), and bodies other than text or URLSearchParams
 * (the multipart upload's FormData) go to the built-in fetch, which encodes them.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { defaultMaxConcurrentRequests } from "../tools/upstream-client.ts";

/** Methods a retry cannot duplicate the effect of. */
const idempotent = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

/**
 * Connections per upstream origin: as many as the core sends at once (tools/upstream-client.ts), so the
 * pool never holds sockets nobody can use. The cap also bounds memory if anything else sends through
 * this fetch during a burst (the rest wait for a free connection, within their timeout).
 */
export const maxUpstreamSockets = defaultMaxConcurrentRequests;

export function createNodeHttpFetch(
  // Looked up when first needed: reading `globalThis.fetch` loads Node's fetch implementation, which a
  // server that never uploads need not pay for at start-up.
  fallback: typeof fetch = (input, init) => globalThis.fetch(input, init),
): typeof fetch {
  const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: maxUpstreamSockets });
  const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: maxUpstreamSockets });

  const nodeFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const body = init.body;
    const textBody = typeof body === "string" ? body : body instanceof URLSearchParams ? body.toString() : undefined;
    if ((body !== undefined && body !== null && textBody === undefined) || input instanceof Request) {
      return fallback(input, init);
    }
    const url = typeof input === "string" ? new URL(input) : input;
    if (url.protocol !== "http:" && url.protocol !== "https:") return fallback(input, init);
    const method = (init.method ?? "GET").toUpperCase();
    const headers = plainHeaders(init.headers);
    headers["accept-encoding"] ??= "gzip, deflate, br";
    if (textBody !== undefined) {
      if (body instanceof URLSearchParams) headers["content-type"] ??= "application/x-www-form-urlencoded;charset=UTF-8";
      headers["content-length"] = Buffer.byteLength(textBody);
    }
    const signal = init.signal ?? undefined;
    if (signal?.aborted) throw signal.reason;

    const send = (): Promise<NodeResponse> =>
      new Promise((resolve, reject) => {
        let settled = false;
        let gotResponse = false;
        const finish = (error: unknown, response?: NodeResponse): void => {
          if (settled) return;
          settled = true;
          signal?.removeEventListener("abort", onAbort);
          if (response) resolve(response);
          else reject(error);
        };
        const onAbort = (): void => {
          request.destroy();
          finish(signal!.reason);
        };
        const options = {
          method,
          hostname: url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          headers,
          agent: url.protocol === "https:" ? httpsAgent : httpAgent,
        };
        const request: ClientRequest = (url.protocol === "https:" ? httpsRequest : httpRequest)(options, (message) => {
          gotResponse = true;
          readText(message).then(
            (text) => finish(undefined, new NodeResponse(message, text, url.href)),
            (error: unknown) => finish(new TypeError("fetch failed", { cause: error })),
          );
        });
        request.on("error", (error: NodeJS.ErrnoException) => {
          // A kept-alive socket the server closed just as it was reused: the request never arrived.
          if (!gotResponse && request.reusedSocket && error.code === "ECONNRESET" && idempotent.has(method) && !signal?.aborted) {
            finish(retry);
            return;
          }
          finish(new TypeError("fetch failed", { cause: error }));
        });
        signal?.addEventListener("abort", onAbort, { once: true });
        request.end(textBody);
      });

    try {
      return (await send()) as unknown as Response;
    } catch (error) {
      if (error !== retry) throw error;
      return (await send()) as unknown as Response;
    }
  };
  return nodeFetch as typeof fetch;
}

/** Marker rejection: send once more on a fresh connection. */
const retry = Symbol("retry on a fresh connection");

function plainHeaders(headers: RequestInit["headers"]): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  if (headers === undefined) return out;
  if (headers instanceof Headers || Array.isArray(headers)) {
    for (const [name, value] of new Headers(headers)) out[name] = value;
    return out;
  }
  for (const [name, value] of Object.entries(headers as Record<string, string>)) out[name.toLowerCase()] = value;
  return out;
}

function readText(message: IncomingMessage): Promise<string> {
  const encoding = message.headers["content-encoding"]?.trim().toLowerCase();
  let stream: Readable = message;
  if (encoding === "gzip" || encoding === "x-gzip") stream = message.pipe(createGunzip());
  else if (encoding === "deflate") stream = message.pipe(createInflate());
  else if (encoding === "br") stream = message.pipe(createBrotliDecompress());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    stream.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
    });
    stream.on("end", () => resolve((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length)).toString("utf8")));
    stream.on("error", reject);
    if (stream !== message) message.on("error", reject);
    // A connection closed before the declared length arrived: a cut-off body, not a short success.
    message.on("aborted", () => reject(Object.assign(new Error("the connection closed in the middle of the body"), { code: "ECONNRESET" })));
  });
}

/** The parts of `Response` the upstream client and token manager read. */
class NodeResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly url: string;
  readonly redirected = false;
  readonly headers: Headers;
  readonly #text: string;

  constructor(message: IncomingMessage, text: string, url: string) {
    this.status = message.statusCode ?? 0;
    this.statusText = message.statusMessage ?? "";
    this.ok = this.status >= 200 && this.status < 300;
    this.url = url;
    this.headers = new IncomingHeaders(message.headers) as unknown as Headers;
    this.#text = text;
  }

  async text(): Promise<string> {
    return this.#text;
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.#text);
  }
}

/** A read-only `Headers` view of Node's (already lower-cased) response headers, built without copying. */
class IncomingHeaders {
  readonly #raw: IncomingMessage["headers"];

  constructor(raw: IncomingMessage["headers"]) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    const value = this.#raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(", ") : value;
  }

  has(name: string): boolean {
    return this.#raw[name.toLowerCase()] !== undefined;
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.#raw).sort()) yield [name, this.get(name)!];
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  forEach(callback: (value: string, name: string, parent: this) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}
