/**
 * Client ID Metadata Documents end to end: the SDK client, given a metadata document URL, uses it as
 * its client_id (the server advertises client_id_metadata_document_supported) instead of registering;
 * the server fetches the document over HTTPS from a local host whose certificate comes from a test
 * authority it trusts through NODE_EXTRA_CA_CERTS, names the client on the consent page, and refuses
 * documents that redirect, are too large, name another client, do not list the redirect URI, or list
 * redirect URIs a registration could not have. A document's client gets no automatic redirect before
 * consent, and no more scope than its document declares.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RecordingOAuthProvider } from "../support/sdk-oauth-provider.ts";
import { connectWithOAuth, resultText } from "../support/oauth-session.ts";
import { startOAuthServer, type OAuthServer } from "../support/oauth-server.ts";
import { makeTestCertificates, type TestCertificates } from "../support/test-certificates.ts";
import { startClientMetadataHost, type ClientMetadataHost } from "../support/client-metadata-host.ts";
import { HeadlessUserAgent, linkBackToClient } from "../support/oauth-user-agent.ts";

let certificates: TestCertificates;
let host: ClientMetadataHost;
let server: OAuthServer;
const redirectUri = "http://127.0.0.1:47613/oauth/callback";

const document =
  (name: string, extra: Record<string, unknown> = {}) =>
  (url: string) => ({
    client_id: url,
    client_name: name,
    client_uri: "https://coach.example.com",
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    ...extra,
  });

beforeAll(async () => {
  certificates = makeTestCertificates();
  host = await startClientMetadataHost(certificates);
  server = await startOAuthServer({ NODE_EXTRA_CA_CERTS: certificates.caPath });
});

afterAll(async () => {
  await server?.stop();
  await host?.close();
  certificates?.remove();
});

function authorizeUrl(clientId: string, extra: Record<string, string> = {}): URL {
  const url = new URL(`${server.issuer}/authorize`);
  const params = {
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: "code",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    resource: server.mcpUrl,
    state: "s1",
    ...extra,
  };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url;
}

describe("Client ID Metadata Documents", () => {
  it("the SDK client signs in with its document URL as client_id; the consent page names it", async () => {
    host.publish("/coach/client.json", document("Coach Desk"));
    const provider = new RecordingOAuthProvider({ clientMetadataUrl: host.url("/coach/client.json") });
    const client = await connectWithOAuth(server.mcpUrl, provider);
    if (!client) throw new Error(`sign-in failed: ${JSON.stringify(provider.outcome?.page ?? provider.outcome?.callback)}`);
    expect(provider.clientInformation()?.client_id).toBe(host.url("/coach/client.json"));
    expect(provider.consentHtml).toContain("Coach Desk");
    expect(provider.consentHtml).toContain(new URL(host.origin).host);
    expect(resultText(await client.callTool({ name: "get_athlete", arguments: {} }))).toContain('"lastname":"Lindgren"');
    await client.close();
    expect(host.requests("/coach/client.json")).toBeGreaterThanOrEqual(1);
  });

  it("refuses documents that redirect, are too large, name another client, or lack the redirect URI, with a page and no redirect", async () => {
    host.redirect("/moved.json", host.url("/coach/client.json"));
    host.oversize("/big.json", 20_000);
    host.publish("/other.json", (url) => ({ ...document("Other")(url), client_id: host.url("/coach/client.json") }));
    host.publish("/no-redirect.json", document("Elsewhere", { redirect_uris: ["https://elsewhere.example.com/cb"] }));
    host.publish("/secret.json", document("Secretive", { token_endpoint_auth_method: "client_secret_basic" }));
    const agent = new HeadlessUserAgent();
    const cases: [string, RegExp][] = [
      ["/moved.json", /redirect/],
      ["/big.json", /larger than/],
      ["/other.json", /names another client_id/],
      ["/no-redirect.json", /redirect_uri is not exactly one/],
      ["/secret.json", /must use &quot;none&quot;|must use "none"/],
      ["/missing.json", /answered 404/],
    ];
    for (const [path, message] of cases) {
      const outcome = await agent.authorize(authorizeUrl(host.url(path)), { redirectUri });
      expect(outcome.callback, path).toBeUndefined();
      expect(outcome.page?.status, path).toBe(400);
      expect(outcome.page?.html, path).toMatch(message);
    }
    // A plain-http document URL is not a metadata document, and not registered either.
    const http = await agent.authorize(authorizeUrl("http://127.0.0.1:9/client.json"), { redirectUri });
    expect(http.page?.status).toBe(400);
    expect(http.page?.html).toContain("not an https URL");
  });

  it("a document's redirect URIs follow the rules a registration follows (https or loopback, an app's scheme; no fragment; no file, blob, about or ws)", async () => {
    const agent = new HeadlessUserAgent();
    const refused = [
      "http://evil.example.com/cb",
      "https://coach.example.com/cb#fragment",
      "file:///etc/passwd",
      "blob:https://coach.example.com/550e8400",
      "about:blank",
      "ws://127.0.0.1:47613/cb",
    ];
    for (const [index, uri] of refused.entries()) {
      const path = `/redirect-rule-${index}.json`;
      host.publish(path, document("Rule Breaker", { redirect_uris: [uri] }));
      const outcome = await agent.authorize(authorizeUrl(host.url(path), { redirect_uri: uri }), { redirectUri: uri });
      expect(outcome.callback, uri).toBeUndefined();
      expect(outcome.page?.status, uri).toBe(400);
      expect(outcome.page?.html, uri).toMatch(/lists a redirect URI that is not allowed/);
      expect(linkBackToClient(outcome.page?.html ?? ""), uri).toBeUndefined();
    }
    // What native apps and local clients use stays allowed.
    host.publish("/native.json", document("Native Coach", { redirect_uris: ["com.example.coach:/oauth", redirectUri] }));
    const native = await agent.authorize(authorizeUrl(host.url("/native.json"), { redirect_uri: "com.example.coach:/oauth" }), {
      redirectUri: "com.example.coach:/oauth",
      decision: "deny",
    });
    expect(native.callback?.searchParams.get("error")).toBe("access_denied");
  });

  it("a document's client gets the error page, not a redirect, for a wrong request before consent", async () => {
    host.publish("/wrong-request.json", document("Coach Desk"));
    const answer = await fetch(authorizeUrl(host.url("/wrong-request.json"), { response_type: "x" }), { redirect: "manual" });
    expect(answer.status).toBe(400);
    expect(answer.headers.get("location")).toBeNull();
    const back = linkBackToClient(await answer.text());
    expect(`${back?.origin}${back?.pathname}`).toBe(redirectUri);
    expect(back?.searchParams.get("error")).toBe("unsupported_response_type");
    expect(back?.searchParams.get("state")).toBe("s1");
  });

  it("a document that declares scope fitness:read is never offered write, and asking for more is refused before consent", async () => {
    host.publish("/read-only.json", document("Reader", { scope: "fitness:read" }));
    const agent = new HeadlessUserAgent();
    let consent = "";
    const granted = await agent.authorize(authorizeUrl(host.url("/read-only.json")), {
      redirectUri,
      decision: "deny",
      beforeConsent: (html) => (consent = html),
    });
    expect(granted.callback?.searchParams.get("error")).toBe("access_denied");
    expect(consent).toContain("asked for read-only access");
    expect(consent).not.toContain('name="allow_write"');
    const wider = await agent.authorize(authorizeUrl(host.url("/read-only.json"), { scope: "fitness:read fitness:write" }), {
      redirectUri,
    });
    expect(wider.callback).toBeUndefined();
    expect(wider.page?.status).toBe(400);
    expect(linkBackToClient(wider.page?.html ?? "")?.searchParams.get("error")).toBe("invalid_scope");
  });
});
