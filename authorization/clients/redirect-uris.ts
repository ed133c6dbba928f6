/**
 * Which redirect URIs a client may have, whether it registered them (registration-endpoint.ts) or lists
 * them in its Client ID Metadata Document (client-metadata-document.ts): one rule for both, since either
 * way the authorization server sends athletes' browsers there, with a code in the address.
 *
 * An allowlist, after RFC 8252 (OAuth 2.0 for Native Apps):
 * - https;
 * - plain http on a loopback address only (§7.3: the app listens on the machine itself);
 * - an app's private-use scheme (§7.1), which the RFC says must be named after a domain the app's maker
 *   controls, in reverse order (`com.example.app:/callback`): at least two labels between periods;
 * - and by name, `cursor:`, the one scheme without a period that a real MCP client registers (Cursor's
 *   `cursor://anysphere.cursor-mcp/oauth/callback`); a client that registers a URI we refuse gets no
 *   registration at all, so a refused Cursor would have no way in.
 * Anything else is refused: the schemes a browser or the system hands to something other than the app that
 * asked (`ms-msdt:`, `itms-services:`, `jar:`, `chrome:`, `javascript:`, `data:`, `file:` ...) cannot all be
 * listed, which is why this is not a blocklist. No URI may have a fragment (RFC 6749 §3.1.2).
 */
import { OAuthRequestError } from "../endpoints/oauth-answers.ts";
import { isLoopbackHostname } from "../oauth-settings.ts";

/** A scheme in reverse-domain form: two or more labels of letters, digits and inner hyphens, the first starting with a letter. */
const reverseDomainScheme = /^[a-z](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/** Schemes without a period that real MCP clients register, each named with the client. */
const knownAppSchemes = new Map([["cursor", "Cursor"]]);

/** What is wrong with `uri` as a redirect URI, or undefined when it is allowed. Quotes the URI (for its owner). */
export function redirectUriProblem(uri: string): string | undefined {
  const quoted = uri.slice(0, 200);
  const url = URL.parse(uri);
  if (url === null) return `${quoted} is not an absolute URI.`;
  if (url.hash !== "" || uri.includes("#")) return `${quoted} has a fragment, which a redirect URI must not have.`;
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (scheme === "https") return undefined;
  if (scheme === "http") {
    return isLoopbackHostname(url.hostname) ? undefined : `${quoted} uses plain http on a host that is not loopback; use https.`;
  }
  if (reverseDomainScheme.test(scheme) || knownAppSchemes.has(scheme)) return undefined;
  return (
    `${quoted} uses the ${scheme.slice(0, 60)}: scheme, which is not allowed for a redirect URI. Use https, http on a loopback address ` +
    "(127.0.0.1, [::1] or localhost), or your app's own scheme named after a domain you own in reverse order, such as " +
    "com.example.app:/callback (RFC 8252 §7.1)."
  );
}

/** Throws invalid_redirect_uri (RFC 7591 §3.2.2) when `uri` is not allowed. */
export function checkRedirectUri(uri: string): void {
  const problem = redirectUriProblem(uri);
  if (problem !== undefined) throw new OAuthRequestError("invalid_redirect_uri", problem);
}
