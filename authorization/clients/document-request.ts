/**
 * One https GET of a client metadata document, held to the rules client-metadata-document.ts gives the
 * reasons for: every address the host name resolves to is checked on the lookup itself (so DNS rebinding
 * between a check and the connection cannot slip through), no redirects, at most 10 KiB, and one deadline of
 * 2 seconds for everything (the lookup, the connection, TLS and the whole answer). A failure is a
 * ClientMetadataError whose message tells whoever sent the request nothing about what the lookup or the
 * connection found; its detail is for the server's log.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { IncomingMessage } from "node:http";
import { request } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { NamedError } from "../../common/named-error.ts";
import { isPublicAddress } from "./public-addresses.ts";

/** Why a document was refused: `message` for whoever sent the request, `detail` for the server's log only. */
export class ClientMetadataError extends NamedError {
  readonly reason: string;
  readonly detail: string;
  constructor(reason: string, message: string, detail: string = message) {
    super(message);
    this.reason = reason;
    this.detail = detail;
  }
}

export const unreachableMessage =
  "The client metadata document could not be fetched from a public https host; the client_id must be the https URL of the document, on a host anybody can reach.";

const maxBytes = 10 * 1024;
/** Everything a fetch does, from the lookup to the answer's last byte. */
const deadlineMs = 2_000;

/** The document's text and how long it may be cached, or a ClientMetadataError. */
export function requestDocument(clientId: string, allowLoopback: boolean): Promise<{ body: string; maxAgeSeconds: number }> {
  const url = new URL(clientId);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) !== 0 && !isPublicAddress(host, allowLoopback)) {
    return Promise.reject(new ClientMetadataError("not_public", unreachableMessage, `${host} is not a globally reachable address`));
  }
  return new Promise((resolve, reject) => {
    const ending = new RequestEnding(resolve, reject);
    const outgoing = request(
      url,
      { method: "GET", headers: { accept: "application/json" }, lookup: checkedLookup(allowLoopback), timeout: deadlineMs, agent: false },
      (response) => readAnswer(response, ending),
    );
    // One deadline for everything: the lookup, the connection, TLS and the whole answer.
    ending.deadline = setTimeout(() => outgoing.destroy(new Error(`no answer within ${deadlineMs / 1000} s`)), deadlineMs);
    outgoing.on("timeout", () => outgoing.destroy(new Error(`no answer within ${deadlineMs / 1000} s`)));
    outgoing.once("socket", (socket) => socket.once("secureConnect", () => (ending.connected = true)));
    outgoing.on("error", (error: NodeJS.ErrnoException) => ending.unreachable(error));
    outgoing.end();
  });
}

/** A DNS lookup that fails (EADDRNOTPUBLIC) when any address the name resolves to may not be fetched from. */
function checkedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 4);
      const refused = addresses.find((entry) => !isPublicAddress(entry.address, allowLoopback));
      if (refused || addresses.length === 0) {
        const found = refused ? `${refused.address}, not a globally reachable address` : "no address";
        return callback(Object.assign(new Error(`${hostname} resolves to ${found}`), { code: "EADDRNOTPUBLIC" }), "", 4);
      }
      if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/** The answer: 200 only (a redirect is refused), its body read up to the limit. */
function readAnswer(response: IncomingMessage, ending: RequestEnding): void {
  const status = response.statusCode ?? 0;
  if (status >= 300 && status < 400) {
    response.destroy();
    ending.fail(`it answered ${status} (a redirect); the document must be served at the client_id URL itself.`);
    return;
  }
  if (status !== 200) {
    response.destroy();
    ending.fail(`it answered ${status}.`);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  response.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      response.destroy();
      ending.fail(`it is larger than ${maxBytes} bytes.`);
      return;
    }
    chunks.push(chunk);
  });
  response.on("end", () =>
    ending.succeed({ body: Buffer.concat(chunks).toString("utf8"), maxAgeSeconds: maxAge(response.headers["cache-control"]) }),
  );
  response.on("error", (error) => ending.unreachable(error));
  // Cut off before its end (the deadline): the answer never came whole.
  response.on("close", () => ending.unreachable(new Error(`no complete answer within ${deadlineMs / 1000} s`)));
}

/** How one request ends, once: with the document, or with the first failure (the deadline cleared either way). */
class RequestEnding {
  readonly #resolve: (answer: { body: string; maxAgeSeconds: number }) => void;
  readonly #reject: (error: ClientMetadataError) => void;
  #settled = false;
  deadline: NodeJS.Timeout | undefined;
  /** Until TLS is up a failure is the host's; after, it is this document's (the path decides how long an answer takes). */
  connected = false;

  constructor(resolve: (answer: { body: string; maxAgeSeconds: number }) => void, reject: (error: ClientMetadataError) => void) {
    this.#resolve = resolve;
    this.#reject = reject;
  }

  succeed(answer: { body: string; maxAgeSeconds: number }): void {
    this.#settle(() => this.#resolve(answer));
  }

  /** An answer came from a public address: its fault tells the sender nothing they could not see themselves. */
  fail(message: string): void {
    this.#settle(() => this.#reject(new ClientMetadataError("answer", `The client metadata document could not be used: ${message}`)));
  }

  unreachable(error: NodeJS.ErrnoException): void {
    const reason = error.code === "EADDRNOTPUBLIC" ? "not_public" : this.connected ? "no_answer" : "unreachable";
    this.#settle(() => this.#reject(new ClientMetadataError(reason, unreachableMessage, error.message)));
  }

  #settle(outcome: () => void): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.deadline);
    outcome();
  }
}

/** How long an answer may be cached, from its Cache-Control: between 1 minute and 24 hours, 5 minutes without one. */
function maxAge(header: string | undefined): number {
  const match = /(?:^|,)\s*max-age=(\d+)/i.exec(header ?? "");
  if (/no-store|no-cache/i.test(header ?? "")) return 60;
  const seconds = match?.[1] === undefined ? 300 : Number(match[1]);
  return Math.min(Math.max(seconds, 60), 86_400);
}
