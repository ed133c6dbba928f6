/**
 * Client ID Metadata Documents: a client whose `client_id` is an https URL publishes its metadata
 * (`client_name`, `redirect_uris`, ...) as JSON at that URL, and this server fetches it. The fetch is a
 * server-side request to an address chosen by whoever sends an authorization request, so it is held
 * tight:
 *
 * - https only, on the default port or any other, never plain http;
 * - every address the host name resolves to must be globally reachable (public-addresses.ts), checked on
 *   the address actually connected to (the lookup is ours), so DNS rebinding between a check and the
 *   connection cannot slip through. A server whose own PUBLIC_URL is loopback (one person's machine) also
 *   accepts loopback documents, so local clients work; no setting turns the check off;
 * - no redirects (a 3xx is an error), a body of at most 10 KiB, JSON, and everything (the lookup, the
 *   connection, TLS and the whole answer) within 2 seconds: a host that takes the connection and never
 *   answers holds a request (on Lambda, a paid invocation) no longer than that;
 * - a failure is remembered for 60 seconds: a host that could not be reached (no such name, a private
 *   address, refused, no TLS in time or a TLS failure) is not tried again for any document on it, and a
 *   document that got no answer in time, or an answer that was refused, is not fetched again. What happens
 *   after TLS is up is remembered for that document only, since it depends on the path: a slow or bad URL
 *   on a good host cannot shut out that host's real documents;
 * - one source (an address, an IPv6 /64) may make this server fetch at most 20 documents a minute, in
 *   this process: a client needs one fetch per cache period, so 20 different documents a minute is never
 *   a client, and one source can keep no more than 40 seconds of fetching going a minute;
 * - the document must name itself (`client_id` equal to the URL), list its redirect URIs under the rules a
 *   registration follows (redirect-uris.ts), and use no client secret (`token_endpoint_auth_method` absent
 *   or "none").
 *
 * Whoever sends the request sees why a document was refused, but never the client_id quoted back (the
 * message is shown on this server's pages) and never what the lookup or the connection found: a document
 * that could not be fetched at all, for whatever reason (no such name, a private address, refused, a
 * certificate, no answer), is "could not be fetched from a public https host", so that this server cannot
 * be used to probe names and addresses it can see. The detail goes to the server's log, at a bounded rate.
 *
 * Answers are cached per instance as their Cache-Control allows, between 1 minute and 24 hours
 * (5 minutes without one); so are failures, for 60 seconds, and the counts per source. Trust roots are
 * Node's (NODE_EXTRA_CA_CERTS adds a test CA). The request itself is document-request.ts.
 */
import { OAuthClientMetadataSchema } from "@modelcontextprotocol/core";
import { addressSource } from "../../common/address-networks.ts";
import type { RateLimitedLog } from "../../common/rate-limited-log.ts";
import { ClientMetadataError, requestDocument } from "./document-request.ts";
import { redirectUriProblem } from "./redirect-uris.ts";

export { ClientMetadataError } from "./document-request.ts";

export interface ClientMetadataDocument {
  client_id: string;
  client_name?: string;
  client_uri?: string;
  redirect_uris: string[];
  scope?: string;
}

/** How long a failure is remembered. */
const failureMemoryMs = 60_000;
/** Documents one source may make this process fetch a minute. */
export const fetchesPerSourcePerMinute = 20;
/** Entries kept in each memory of this process before it starts afresh (the memories are caches, never records). */
const memoryEntries = 10_000;

/** Whether a client_id is meant as a metadata document URL (https with a path). */
export function isClientMetadataUrl(clientId: string): boolean {
  const url = URL.parse(clientId);
  return url !== null && url.protocol === "https:" && url.pathname !== "/" && url.hash === "" && url.username === "" && url.password === "";
}

export class ClientMetadataFetcher {
  readonly #allowLoopback: boolean;
  readonly #now: () => number;
  readonly #failures: RateLimitedLog | undefined;
  readonly #cache = new Map<string, { document: ClientMetadataDocument; expiresAtMs: number }>();
  /** Failures remembered: "host <host>" for a host that could not be reached, "document <url>" for a refused answer. */
  readonly #failed = new Map<string, { error: ClientMetadataError; untilMs: number }>();
  readonly #fetches = new FetchesPerSource(fetchesPerSourcePerMinute);

  constructor(options: { allowLoopback: boolean; now?: () => number; failures?: RateLimitedLog }) {
    this.#allowLoopback = options.allowLoopback;
    this.#now = options.now ?? Date.now;
    this.#failures = options.failures;
  }

  /** The document at `clientId`, fetched on behalf of `address` (the request's client address; unknown when absent). */
  async fetch(clientId: string, address?: string): Promise<ClientMetadataDocument> {
    const nowMs = this.#now();
    const cached = this.#cache.get(clientId);
    if (cached && cached.expiresAtMs > nowMs) return cached.document;
    const hostKey = `host ${URL.parse(clientId)?.host ?? ""}`;
    const documentKey = `document ${clientId}`;
    for (const key of [hostKey, documentKey]) {
      const failed = this.#failed.get(key);
      if (failed && failed.untilMs > nowMs) throw failed.error;
    }
    const admitted = this.#fetches.admit(addressSource(address), nowMs);
    if (!admitted.admitted) {
      const error = new ClientMetadataError(
        "too_many_fetches",
        `This address asked this server to fetch more than ${fetchesPerSourcePerMinute} client metadata documents in a minute; try again in ${admitted.retryAfterSeconds} s.`,
      );
      this.#failures?.record(error.reason, { source: addressSource(address) });
      throw error;
    }
    let document: ClientMetadataDocument;
    try {
      const { body, maxAgeSeconds } = await requestDocument(clientId, this.#allowLoopback);
      document = parseDocument(body, clientId);
      if (this.#cache.size > 1_000) this.#cache.clear();
      this.#cache.set(clientId, { document, expiresAtMs: this.#now() + maxAgeSeconds * 1000 });
    } catch (error) {
      if (error instanceof ClientMetadataError) {
        this.#failures?.record(error.reason, { host: URL.parse(clientId)?.host.slice(0, 120), detail: error.detail.slice(0, 300) });
        if (this.#failed.size >= memoryEntries) this.#failed.clear();
        const unreachable = error.reason === "unreachable" || error.reason === "not_public";
        this.#failed.set(unreachable ? hostKey : documentKey, { error, untilMs: this.#now() + failureMemoryMs });
      }
      throw error;
    }
    return document;
  }
}

/** How many documents each source made this process fetch in the current minute (bounded: starts afresh past its size). */
class FetchesPerSource {
  readonly #limit: number;
  #minute = -1;
  #counts = new Map<string, number>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  admit(source: string, nowMs: number): { admitted: true } | { admitted: false; retryAfterSeconds: number } {
    const minute = Math.floor(nowMs / 60_000);
    if (minute !== this.#minute || this.#counts.size >= memoryEntries) {
      this.#minute = minute;
      this.#counts = new Map();
    }
    const count = this.#counts.get(source) ?? 0;
    if (count >= this.#limit) return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil(((minute + 1) * 60_000 - nowMs) / 1000)) };
    this.#counts.set(source, count + 1);
    return { admitted: true };
  }
}

function parseDocument(body: string, clientId: string): ClientMetadataDocument {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ClientMetadataError("document", "The client metadata document is not JSON.");
  }
  const parsed = OAuthClientMetadataSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "document"}: ${issue.message}`).join("; ");
    throw new ClientMetadataError("document", "The client metadata document is not valid client metadata (RFC 7591 fields).", problems);
  }
  const record = json as Record<string, unknown>;
  if (record["client_id"] !== clientId) {
    throw new ClientMetadataError("document", "The client metadata document names another client_id; it must name its own URL exactly.");
  }
  const method = parsed.data.token_endpoint_auth_method;
  if (method !== undefined && method !== "none") {
    throw new ClientMetadataError(
      "document",
      'The client metadata document asks for a token_endpoint_auth_method other than "none"; clients identified by a metadata document must use "none" (PKCE) here.',
      `token_endpoint_auth_method ${method}`,
    );
  }
  if ("client_secret" in record)
    throw new ClientMetadataError("document", "The client metadata document contains a client_secret, which a public document must not.");
  const redirectUris = parsed.data.redirect_uris.map(String);
  if (redirectUris.length === 0) throw new ClientMetadataError("document", "The client metadata document lists no redirect_uris.");
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem !== undefined) {
      throw new ClientMetadataError(
        "document",
        "The client metadata document lists a redirect URI that is not allowed: each must be https, http on a loopback address, or an app's own scheme, without a fragment.",
        problem,
      );
    }
  }
  return {
    client_id: clientId,
    redirect_uris: redirectUris,
    ...(parsed.data.client_name ? { client_name: parsed.data.client_name } : {}),
    ...(parsed.data.client_uri ? { client_uri: String(parsed.data.client_uri) } : {}),
    ...(parsed.data.scope ? { scope: parsed.data.scope } : {}),
  };
}
