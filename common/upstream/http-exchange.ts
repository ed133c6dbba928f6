/**
 * The core's one seam to the network: send one HTTP request, get its status, headers and body text. The
 * upstream client (the Strava API) and the OAuth calls (token, revoke) go through it; tests swap the
 * connection layer underneath (undici's MockAgent) or wrap the function.
 *
 * On undici, Node's own HTTP client library, used directly: `fetch` (undici behind the WHATWG Request,
 * Response and stream objects) costs more CPU per call for the same exchange, and nothing here needs those
 * objects. One connection pool per origin, kept alive, at most `connectionsPerOrigin` connections: as many
 * as one athlete's core sends at once, so the pool never opens sockets nobody can use. (In OAuth mode the
 * athletes share one sender; calls beyond its connections wait for one, within their own timeout.)
 *
 * What it guarantees: the body is the whole body (undici fails a response that ends before its declared
 * length or its last chunk, so a cut-off body is a `network` failure, never a short success); responses are
 * asked for gzip-compressed and inflated here (Strava's streams compress several times over); every failure is
 * an `HttpExchangeError` saying whether the caller cancelled, the time ran out, or the network failed, and
 * why (never with a header or body in it). Redirects are returned, not followed (Strava's API and token
 * endpoint do not redirect).
 *
 * undici is loaded on the first exchange, not with this module: it is a large library, and an MCP client
 * that starts the server waits for its tool list, which needs no network.
 */
import { promisify } from "node:util";
import type * as Undici from "undici";
import { messageOf, NamedError } from "../named-error.ts";

/** A multipart/form-data body as data: its text fields and one file part. */
export interface MultipartBody {
  kind: "multipart";
  fields: Record<string, string>;
  file: { field: string; filename: string; contentType: string; bytes: Uint8Array };
}

export interface HttpRequest {
  method: "GET" | "POST" | "PUT";
  url: string;
  headers: Record<string, string>;
  /** Text (JSON, a form) or a multipart form (encoded here; the boundary goes into Content-Type). */
  body?: string | MultipartBody | undefined;
  /** The caller's cancellation. */
  signal?: AbortSignal | undefined;
  /** The whole exchange, headers and body, must be done within this. */
  timeoutMs: number;
}

export interface HttpAnswer {
  status: number;
  /** Lower-case names; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  bodyText: string;
}

export type SendHttp = (request: HttpRequest) => Promise<HttpAnswer>;

/** Why an exchange failed: the caller cancelled it, it ran out of time, or the connection failed. */
export type HttpFailureKind = "cancelled" | "timeout" | "network";

export class HttpExchangeError extends NamedError {
  readonly kind: HttpFailureKind;
  /** "connection refused (ECONNREFUSED)", for messages. */
  readonly detail: string;
  constructor(kind: HttpFailureKind, detail: string) {
    super(`${kind}: ${detail}`);
    this.kind = kind;
    this.detail = detail;
  }
}

export interface HttpSenderOptions {
  /** Connections per origin (default 64). */
  connectionsPerOrigin?: number;
  /** The connection layer (tests give undici's MockAgent); by default a keep-alive Agent of our own. */
  dispatcher?: Undici.Dispatcher;
}

/** Inflates a gzip body; node:zlib loads with the first compressed answer, not with every start. */
function inflate(bytes: Uint8Array): Promise<Buffer> {
  return promisify(process.getBuiltinModule("node:zlib").gunzip)(bytes);
}

let undiciLoaded: Promise<typeof Undici> | undefined;
// undici is CommonJS: Node's loader gives a dynamic import its named exports, an esbuild bundle only the default.
const loadUndici = (): Promise<typeof Undici> =>
  (undiciLoaded ??= import("undici").then((loaded) => ("Agent" in loaded ? loaded : (loaded as { default: typeof Undici }).default)));

export function createHttpSender(options: HttpSenderOptions = {}): SendHttp {
  let dispatcher = options.dispatcher;
  return async (request) => {
    // One controller for both ways an exchange ends early, and a timer cleared as soon as it is done:
    // AbortSignal.timeout would keep every finished exchange's signal alive until its timeout passed.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, request.timeoutMs);
    const onCancel = (): void => controller.abort();
    if (request.signal?.aborted) onCancel();
    else request.signal?.addEventListener("abort", onCancel, { once: true });
    const signal = controller.signal;
    try {
      const undici = await loadUndici();
      dispatcher ??= new undici.Agent({ connections: options.connectionsPerOrigin ?? 64 });
      const answer = await dispatcher.request({
        ...splitUrl(request.url),
        method: request.method,
        headers: { ...request.headers, "accept-encoding": "gzip" },
        body: typeof request.body === "object" ? multipartForm(undici, request.body) : request.body,
        signal,
      });
      const headers = plainHeaders(answer.headers);
      const encoding = headers["content-encoding"]?.toLowerCase();
      let bodyText: string;
      if (encoding === "gzip" || encoding === "x-gzip") {
        bodyText = (await inflate(await answer.body.bytes())).toString("utf8");
      } else if (encoding === undefined || encoding === "identity") {
        bodyText = await answer.body.text();
      } else {
        await answer.body.dump();
        throw new HttpExchangeError("network", `the answer is encoded as "${encoding}", which was not asked for`);
      }
      return { status: answer.statusCode, headers, bodyText };
    } catch (error) {
      if (error instanceof HttpExchangeError) throw error;
      if (request.signal?.aborted) throw new HttpExchangeError("cancelled", "the caller cancelled the call");
      if (timedOut) throw new HttpExchangeError("timeout", `no complete answer within ${request.timeoutMs} ms`);
      throw new HttpExchangeError("network", networkCause(error));
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onCancel);
    }
  };
}

function multipartForm(undici: typeof Undici, body: MultipartBody): Undici.FormData {
  const form = new undici.FormData();
  const { file } = body;
  form.append(file.field, new Blob([file.bytes], { type: file.contentType }), file.filename);
  for (const [name, value] of Object.entries(body.fields)) form.append(name, value);
  return form;
}

function splitUrl(url: string): { origin: string; path: string } {
  const parsed = URL.parse(url);
  if (parsed === null || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    throw new HttpExchangeError("network", `"${url}" is not an http(s) URL`);
  }
  return { origin: parsed.origin, path: parsed.pathname + parsed.search };
}

function plainHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const plain: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) plain[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return plain;
}

/** "connection refused (ECONNREFUSED)" from a socket error or one of undici's, through its `cause`s. */
function networkCause(error: unknown): string {
  const known: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ECONNRESET: "connection reset",
    EPIPE: "connection closed while sending",
    ENOTFOUND: "host not found",
    EAI_AGAIN: "DNS lookup failed",
    ETIMEDOUT: "connection timed out",
    UND_ERR_CONNECT_TIMEOUT: "connection timed out",
    UND_ERR_SOCKET: "the connection closed before the answer was complete",
    UND_ERR_RES_CONTENT_LENGTH_MISMATCH: "the connection closed before the whole answer arrived",
    Z_DATA_ERROR: "the compressed answer is damaged",
    Z_BUF_ERROR: "the compressed answer is cut off",
  };
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code !== undefined && known[code] !== undefined) return `${known[code]} (${code})`;
  }
  return messageOf(error);
}
