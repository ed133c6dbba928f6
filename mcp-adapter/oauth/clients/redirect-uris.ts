/**
 * Which redirect URIs a client may have, whether it registered them (registration-endpoint.ts) or lists
 * them in its Client ID Metadata Document (client-metadata-document.ts): one rule for both, since either
 * way the authorization server sends athletes' browsers there.
 *
 * - https, or plain http on a loopback address (native apps, RFC 8252 §7.3);
 * - or an app's private-use scheme (`com.example.app:/callback`, RFC 8252 §7.1);
 * - no fragment (RFC 6749 §3.1.2), and never a scheme a browser runs or reads locally instead of handing
 *   to an app (`javascript:`, `data:`, `file:`, `blob:`, `about:`, `ws:` ...).
 */
import { OAuthRequestError } from "../endpoints/oauth-answers.ts";
import { isLoopbackHostname } from "../oauth-settings.ts";

const refusedSchemes = new Set([
  "javascript",
  "data",
  "file",
  "vbscript",
  "about",
  "blob",
  "ftp",
  "ws",
  "wss",
  "filesystem",
  "view-source",
]);

/** What is wrong with `uri` as a redirect URI, or undefined when it is allowed. Quotes the URI (for its owner). */
export function redirectUriProblem(uri: string): string | undefined {
  const url = URL.parse(uri);
  if (url === null) return `${uri.slice(0, 200)} is not an absolute URI.`;
  if (url.hash !== "" || uri.includes("#")) return `${uri.slice(0, 200)} has a fragment, which a redirect URI must not have.`;
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (scheme === "https") return undefined;
  if (scheme === "http") {
    return isLoopbackHostname(url.hostname) ? undefined : `${uri.slice(0, 200)} uses plain http on a host that is not loopback; use https.`;
  }
  if (refusedSchemes.has(scheme)) return `${uri.slice(0, 200)} uses the ${scheme} scheme, which cannot be a redirect URI.`;
  return undefined;
}

/** Throws invalid_redirect_uri (RFC 7591 §3.2.2) when `uri` is not allowed. */
export function checkRedirectUri(uri: string): void {
  const problem = redirectUriProblem(uri);
  if (problem !== undefined) throw new OAuthRequestError("invalid_redirect_uri", problem);
}
