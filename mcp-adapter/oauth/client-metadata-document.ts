/**
 * Client ID Metadata Documents: a client whose `client_id` is an https URL publishes its metadata
 * (`client_name`, `redirect_uris`, ...) as JSON at that URL, and this server fetches it. The fetch is a
 * server-side request to an address chosen by whoever sends an authorization request, so it is held
 * tight:
 *
 * - https only, on the default port or any other, never plain http;
 * - every address the host name resolves to must be public: loopback, private, link-local, carrier-grade
 *   NAT, multicast and reserved ranges are refused, checked on the address actually connected to (the
 *   lookup is ours), so DNS rebinding between a check and the connection cannot slip through. A server
 *   whose own PUBLIC_URL is loopback (one person's machine) also accepts loopback documents, so local
 *   clients work; no setting turns the check off;
 * - no redirects (a 3xx is an error), an answer within 5 seconds, a body of at most 10 KiB, JSON;
 * - the document must name itself (`client_id` equal to the URL), list its redirect URIs, and use no
 *   client secret (`token_endpoint_auth_method` absent or "none").
 *
 * Answers are cached per instance as their Cache-Control allows, between 1 minute and 24 hours
 * (5 minutes without one). Trust roots are Node's (NODE_EXTRA_CA_CERTS adds a test CA).
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request } from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { OAuthClientMetadataSchema } from "@modelcontextprotocol/core";
import { NamedError } from "../../common/named-error.ts";

export interface ClientMetadataDocument {
  client_id: string;
  client_name?: string;
  client_uri?: string;
  redirect_uris: string[];
  scope?: string;
}

export class ClientMetadataError extends NamedError {}

const maxBytes = 10 * 1024;
const timeoutMs = 5_000;

const nonPublic = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  nonPublic.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  nonPublic.addSubnet(network, prefix, "ipv6");
}
const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/**
 * Whether `address` may be fetched from: public, or loopback when `allowLoopback`. (IPv4-mapped IPv6
 * addresses are judged by the IPv4 address inside; Node's BlockList would match a mapped-range rule
 * against every IPv4 address.)
 */
export function isFetchableAddress(address: string, allowLoopback: boolean): boolean {
  const family = isIP(address) === 6 ? "ipv6" : "ipv4";
  if (allowLoopback && loopback.check(address, family)) return true;
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return isFetchableAddress(mapped[1], allowLoopback);
  return !nonPublic.check(address, family);
}

/** Whether a client_id is meant as a metadata document URL (https with a path). */
export function isClientMetadataUrl(clientId: string): boolean {
  const url = URL.parse(clientId);
  return url !== null && url.protocol === "https:" && url.pathname !== "/" && url.hash === "" && url.username === "" && url.password === "";
}

export class ClientMetadataFetcher {
  readonly #allowLoopback: boolean;
  readonly #now: () => number;
  readonly #cache = new Map<string, { document: ClientMetadataDocument; expiresAtMs: number }>();

  constructor(options: { allowLoopback: boolean; now?: () => number }) {
    this.#allowLoopback = options.allowLoopback;
    this.#now = options.now ?? Date.now;
  }

  async fetch(clientId: string): Promise<ClientMetadataDocument> {
    const cached = this.#cache.get(clientId);
    if (cached && cached.expiresAtMs > this.#now()) return cached.document;
    const { body, maxAgeSeconds } = await this.#get(clientId);
    const document = parseDocument(body, clientId);
    if (this.#cache.size > 1_000) this.#cache.clear();
    this.#cache.set(clientId, { document, expiresAtMs: this.#now() + maxAgeSeconds * 1000 });
    return document;
  }

  #get(clientId: string): Promise<{ body: string; maxAgeSeconds: number }> {
    const url = new URL(clientId);
    const allowLoopback = this.#allowLoopback;
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (isIP(host) !== 0 && !isFetchableAddress(host, allowLoopback)) {
      return Promise.reject(new ClientMetadataError(`The client_id ${clientId} points at a private or reserved address; its metadata document must be on a public https host.`));
    }
    const checkedLookup: LookupFunction = (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
        if (error) return callback(error, "", 4);
        const refused = addresses.find((entry) => !isFetchableAddress(entry.address, allowLoopback));
        if (refused || addresses.length === 0) {
          return callback(Object.assign(new Error(`${hostname} resolves to a private or reserved address`), { code: "EADDRNOTPUBLIC" }), "", 4);
        }
        if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
        const first = addresses[0] as LookupAddress;
        callback(null, first.address, first.family);
      });
    };
    return new Promise((resolve, reject) => {
      const fail = (message: string): void => reject(new ClientMetadataError(`Could not fetch the client metadata document ${clientId}: ${message}`));
      const outgoing = request(
        url,
        { method: "GET", headers: { accept: "application/json" }, lookup: checkedLookup, timeout: timeoutMs, agent: false },
        (response) => {
          const status = response.statusCode ?? 0;
          if (status >= 300 && status < 400) {
            response.destroy();
            fail(`it answered ${status} (a redirect); the document must be served at the client_id URL itself.`);
            return;
          }
          if (status !== 200) {
            response.destroy();
            fail(`it answered ${status}.`);
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              response.destroy();
              fail(`it is larger than ${maxBytes} bytes.`);
              return;
            }
            chunks.push(chunk);
          });
          response.on("end", () => resolve({ body: Buffer.concat(chunks).toString("utf8"), maxAgeSeconds: maxAge(response.headers["cache-control"]) }));
          response.on("error", (error) => fail(error.message));
        },
      );
      const deadline = setTimeout(() => outgoing.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
      outgoing.on("close", () => clearTimeout(deadline));
      outgoing.on("timeout", () => outgoing.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
      outgoing.on("error", (error: NodeJS.ErrnoException) =>
        fail(error.code === "EADDRNOTPUBLIC" ? `${error.message}; its metadata document must be on a public https host.` : error.message),
      );
      outgoing.end();
    });
  }
}

function maxAge(header: string | undefined): number {
  const match = /(?:^|,)\s*max-age=(\d+)/i.exec(header ?? "");
  if (/no-store|no-cache/i.test(header ?? "")) return 60;
  const seconds = match?.[1] === undefined ? 300 : Number(match[1]);
  return Math.min(Math.max(seconds, 60), 86_400);
}

function parseDocument(body: string, clientId: string): ClientMetadataDocument {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ClientMetadataError(`The client metadata document at ${clientId} is not JSON.`);
  }
  const parsed = OAuthClientMetadataSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "document"}: ${issue.message}`).join("; ");
    throw new ClientMetadataError(`The client metadata document at ${clientId} is not valid client metadata (${problems}).`);
  }
  const record = json as Record<string, unknown>;
  if (record["client_id"] !== clientId) {
    throw new ClientMetadataError(`The client metadata document at ${clientId} names another client_id; it must name its own URL exactly.`);
  }
  const method = parsed.data.token_endpoint_auth_method;
  if (method !== undefined && method !== "none") {
    throw new ClientMetadataError(
      `The client metadata document at ${clientId} asks for token_endpoint_auth_method "${method}"; clients identified by a metadata document must use "none" (PKCE) here.`,
    );
  }
  if ("client_secret" in record) throw new ClientMetadataError(`The client metadata document at ${clientId} contains a client_secret, which a public document must not.`);
  const redirectUris = parsed.data.redirect_uris.map(String);
  if (redirectUris.length === 0) throw new ClientMetadataError(`The client metadata document at ${clientId} lists no redirect_uris.`);
  return {
    client_id: clientId,
    redirect_uris: redirectUris,
    ...(parsed.data.client_name ? { client_name: parsed.data.client_name } : {}),
    ...(parsed.data.client_uri ? { client_uri: String(parsed.data.client_uri) } : {}),
    ...(parsed.data.scope ? { scope: parsed.data.scope } : {}),
  };
}
