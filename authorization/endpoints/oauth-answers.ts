/**
 * How the authorization server answers: OAuth error bodies (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 8707)
 * with the status each error takes, JSON without caching, redirects carrying `iss` (RFC 9207), and
 * request bodies read up to a small limit. Error descriptions name what is wrong and how to fix it; they
 * never quote a code, token or secret.
 */
import { NamedError } from "../../common/named-error.ts";

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "access_denied"
  | "server_error"
  | "temporarily_unavailable"
  | "invalid_redirect_uri"
  | "invalid_client_metadata";

export class OAuthRequestError extends NamedError {
  readonly code: OAuthErrorCode;
  readonly description: string;
  constructor(code: OAuthErrorCode, description: string) {
    super(`${code}: ${description}`);
    this.code = code;
    this.description = description;
  }

  get status(): number {
    if (this.code === "invalid_client") return 401;
    if (this.code === "server_error") return 500;
    if (this.code === "temporarily_unavailable") return 503;
    return 400;
  }
}

const noStore = { "cache-control": "no-store", pragma: "no-cache" };

export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...noStore, ...headers } });
}

export function oauthErrorAnswer(error: OAuthRequestError, headers: Record<string, string> = {}): Response {
  const extra: Record<string, string> = { ...headers };
  // RFC 6749 §5.2: a client that tried HTTP Basic gets the matching challenge.
  if (error.code === "invalid_client") extra["www-authenticate"] = 'Basic realm="openclaw-fitness"';
  return jsonAnswer(error.status, { error: error.code, error_description: error.description }, extra);
}

/** The client's redirect URI with the given parameters plus `iss` (RFC 9207). */
export function clientRedirectUrl(redirectUri: string, params: Record<string, string | undefined>, issuer: string): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  url.searchParams.set("iss", issuer);
  return url.toString();
}

/** A redirect to the client's redirect URI with the given parameters plus `iss`. */
export function redirectToClient(redirectUri: string, params: Record<string, string | undefined>, issuer: string): Response {
  return new Response(null, { status: 302, headers: { location: clientRedirectUrl(redirectUri, params, issuer), ...noStore } });
}

export class BodyTooLargeError extends NamedError {}

/** The request body as text, refusing more than `limit` bytes (declared or sent). */
export async function readBodyText(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw new BodyTooLargeError(`The request body is larger than ${limit} bytes.`);
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new BodyTooLargeError(`The request body is larger than ${limit} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * A form body (application/x-www-form-urlencoded, as RFC 6749 requires for the token and revocation
 * endpoints). A parameter sent twice is refused (RFC 6749 §3.1).
 */
export async function readForm(request: Request, limit = 16 * 1024): Promise<URLSearchParams> {
  const type = request.headers.get("content-type")?.split(";", 1)[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw new OAuthRequestError(
      "invalid_request",
      `The body must be application/x-www-form-urlencoded (got ${type ?? "no content type"}).`,
    );
  }
  let text: string;
  try {
    text = await readBodyText(request, limit);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new OAuthRequestError("invalid_request", error.message);
    throw error;
  }
  const form = new URLSearchParams(text);
  const seen = new Set<string>();
  for (const key of form.keys()) {
    if (seen.has(key)) throw new OAuthRequestError("invalid_request", `The parameter ${key} is sent more than once.`);
    seen.add(key);
  }
  return form;
}

/** CORS for the endpoints browser-based clients call directly (metadata, registration, token, revocation). */
export const corsHeaders: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
  "access-control-max-age": "600",
};

export function withCors(response: Response): Response {
  const headers = new Headers(response.headers);
  for (const [key, value] of Object.entries(corsHeaders)) headers.set(key, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
