/**
 * What a client, or whoever crafts a link, can make this server's pages say, through the real server over
 * HTTP: a client's name loses the characters that reorder or hide text (bidi overrides, zero-width and
 * line separators) and is isolated in `<bdi>`; error pages show this server's own words, never a client_id,
 * parameter name or scope from the link; and a metadata document that cannot be fetched gets one answer
 * whatever the lookup or the connection found, with the detail in the server's log only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startClientMetadataHost, type ClientMetadataHost } from "../support/client-metadata-host.ts";
import { ManualOAuthClient, manualRedirectUri } from "../support/manual-oauth-client.ts";
import { startOAuthServer, type OAuthServer } from "../support/oauth-server.ts";
import { makeTestCertificates, type TestCertificates } from "../support/test-certificates.ts";

let certificates: TestCertificates;
let host: ClientMetadataHost;
let server: OAuthServer;

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

/** Characters that move or hide text: Unicode Cc (but the page's own line breaks), Cf, Zl, Zp. */
const invisible = /[\p{Cf}\p{Zl}\p{Zp}]|(?!\n)\p{Cc}/u;
const phishing = "Your Strava account is locked, call 555-0100";

/** What a person reads on a page: its text without tags or attribute values. */
function visibleText(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/, "")
    .replace(/<[^>]*>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"');
}

function authorizeUrl(clientId: string, extra: Record<string, string> = {}): URL {
  const url = new URL(`${server.issuer}/authorize`);
  const params = {
    client_id: clientId,
    redirect_uri: manualRedirectUri,
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

async function page(url: URL): Promise<{ status: number; html: string }> {
  const answer = await fetch(url, { redirect: "manual" });
  return { status: answer.status, html: await answer.text() };
}

describe("names a client chose", () => {
  it("a registered name loses bidi overrides, isolates, zero-width and line separators, and is isolated on the consent page", async () => {
    const client = new ManualOAuthClient(server.issuer);
    await client.register({ client_name: "Coach\u202e Desk\u200b\u2028\u2066 Pro\u00ad\u2069" });
    const consent = await page(client.authorizeUrl({ code_challenge: client.pkce().challenge }));
    expect(consent.status).toBe(200);
    expect(consent.html).not.toMatch(invisible);
    expect(consent.html).toContain('<span class="client"><bdi>Coach Desk Pro</bdi></span>');
    expect(consent.html).toContain("<title>Allow Coach Desk Pro to use your Strava training log?</title>");
  });

  it("a document's name cannot turn its verified host around: the host is isolated from the name", async () => {
    // Beside an unisolated U+202E, "(127.0.0.1:PORT)" would be shown reversed; a registrable host such as
    // ia.edualc.ws would read (sw.claude.ai).
    host.publish("/reversed.json", (url) => ({
      client_id: url,
      client_name: "Claude \u202e",
      redirect_uris: [manualRedirectUri],
      token_endpoint_auth_method: "none",
    }));
    const consent = await page(authorizeUrl(host.url("/reversed.json")));
    expect(consent.status).toBe(200);
    expect(consent.html).not.toMatch(invisible);
    expect(consent.html).toContain(`<bdi>Claude</bdi></span> <span class="muted">(<bdi>${new URL(host.origin).host}</bdi>)</span>`);
  });

  it("a name of nothing but invisible characters falls back to saying the app gave none", async () => {
    const client = new ManualOAuthClient(server.issuer);
    await client.register({ client_name: "\u200b\u202e\u2028" });
    const consent = await page(client.authorizeUrl({ code_challenge: client.pkce().challenge }));
    expect(consent.html).toContain("<bdi>An app that did not give its name</bdi>");
  });

  it("so does a name of blank letters (Hangul fillers, the braille blank), which are letters and symbols that show nothing", async () => {
    const client = new ManualOAuthClient(server.issuer);
    await client.register({ client_name: "\u3164\u2800\u115f\u1160\uffa0 \u3164" });
    const consent = await page(client.authorizeUrl({ code_challenge: client.pkce().challenge }));
    expect(consent.html).toContain('<span class="client"><bdi>An app that did not give its name</bdi></span>');
    expect(consent.html).not.toMatch(/[\u3164\u2800\u115f\u1160\uffa0]/);
  });
});

describe("error pages say only this server's words", () => {
  it("no client_id, made-up parameter name or scope from the link appears on the page", async () => {
    const client = new ManualOAuthClient(server.issuer);
    await client.register();
    const pages = [
      await page(authorizeUrl(`http://${phishing.replace(/[ ,]+/g, "-")}.example/x`)),
      await page(authorizeUrl(`https://127.0.0.1:1/${encodeURIComponent(phishing)}`)),
      await page(
        new URL(
          `${client.authorizeUrl({ code_challenge: client.pkce().challenge })}&${encodeURIComponent(phishing)}=1&${encodeURIComponent(phishing)}=2`,
        ),
      ),
      await page(client.authorizeUrl({ code_challenge: client.pkce().challenge, scope: `fitness:read ${phishing}` })),
    ];
    for (const { status, html } of pages) {
      expect(status).toBe(400);
      const text = visibleText(html);
      expect(text).not.toMatch(/locked|555-0100/i);
      expect(text).not.toContain("Your-Strava");
    }
  });

  it("a document that cannot be fetched gets the same page whatever the lookup or the connection found; the log says what", async () => {
    const unreachable = [
      "https://no-such-host.invalid/client.json", // no such name
      "https://10.0.0.1/client.json", // a private address
      "https://[::a00:1]/client.json", // an IPv4-compatible IPv6 address
      "https://127.0.0.1:1/client.json", // loopback, allowed on this loopback server, but nobody listens
    ];
    const pages = await Promise.all(unreachable.map((clientId) => page(authorizeUrl(clientId))));
    for (const [index, { status, html }] of pages.entries()) {
      expect(status, unreachable[index]).toBe(400);
      expect(visibleText(html), unreachable[index]).toContain("could not be fetched from a public https host");
      expect(html, unreachable[index]).toBe(pages[0]?.html);
    }
    const logged = await server.child.waitForEvent("client_metadata_refused");
    expect(String(logged["detail"])).toMatch(/ENOTFOUND|not a globally reachable address|ECONNREFUSED/);
  });
});
