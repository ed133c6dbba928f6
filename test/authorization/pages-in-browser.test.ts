/**
 * The pages an athlete sees, in a real browser: Debian's Chromium, headless, driven by playwright-core
 * (launch flags as this machine needs them: no sandbox as root, no GPU, no background networking, a
 * fresh profile). A client app's sign-in goes through the consent page (which must name the client and
 * what it may do), Continue, Strava's sign-in (the sandbox) and back to the client's redirect with code
 * and iss; a second athlete is refused with the refusal page; a bad request shows the error page, and one
 * that could go back to the client waits for the person to follow its link; Cancel goes back with
 * access_denied; a client's name with a right-to-left override cannot turn the verified host beside it
 * around. A screenshot of each page is kept in .cache/oauth-pages/.
 *
 * Without /usr/bin/chromium (`apt-get install chromium`, which .ci/run does) this suite fails in CI and
 * is skipped, saying so, elsewhere.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { ManualOAuthClient } from "../support/manual-oauth-client.ts";
import { jonas, maya, startOAuthServer, type OAuthServer } from "../support/oauth-server.ts";
import { makeTestCertificates, type TestCertificates } from "../support/test-certificates.ts";
import { startClientMetadataHost, type ClientMetadataHost } from "../support/client-metadata-host.ts";

const chromiumPath = "/usr/bin/chromium";
const available = existsSync(chromiumPath);
if (!available) {
  const message = `${chromiumPath} is missing: the browser checks of the sign-in pages need Debian's chromium (apt-get install chromium; .ci/run installs it).`;
  if (process.env["CI"]) throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const screenshotDirectory = resolve(import.meta.dirname, "../../.cache/oauth-pages");
let server: OAuthServer;
let stingyServer: OAuthServer;
let certificates: TestCertificates;
let documents: ClientMetadataHost;
let appServer: Server;
let appOrigin = "";
const callbacks: URL[] = [];
let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  if (!available) return;
  mkdirSync(screenshotDirectory, { recursive: true });
  certificates = makeTestCertificates();
  documents = await startClientMetadataHost(certificates);
  server = await startOAuthServer({ NODE_EXTRA_CA_CERTS: certificates.caPath });
  // A Strava whose athlete unticks two of the boxes on its authorize page.
  stingyServer = await startOAuthServer({ SANDBOX_SCOPES: "read,activity:read_all" });
  // The client app's redirect target: a page that says what came back (as an app would, minus the code).
  appServer = createServer((request, response) => {
    const url = new URL(request.url ?? "/", appOrigin);
    callbacks.push(url);
    const error = url.searchParams.get("error");
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(
      `<!doctype html><title>Coach Desk</title><body style="font:16px system-ui;margin:3rem"><h1>Coach Desk</h1>` +
        (error
          ? `<p>Not connected: <strong>${error}</strong></p>`
          : `<p>Connected to your Strava training log. The app received an authorization code from <code>${url.searchParams.get("iss")}</code>.</p>`) +
        `</body>`,
    );
  });
  await new Promise<void>((done) => appServer.listen(0, "127.0.0.1", done));
  appOrigin = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;
  profile = mkdtempSync(join(tmpdir(), "chromium-profile-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 900, height: 900 },
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await server?.stop();
  await stingyServer?.stop();
  await documents?.close();
  certificates?.remove();
  await new Promise<void>((done) => (appServer ? appServer.close(() => done()) : done()));
  if (profile) rmSync(profile, { recursive: true, force: true });
});

async function registeredClient(name: string): Promise<{ client: ManualOAuthClient; redirectUri: string }> {
  const redirectUri = `${appOrigin}/oauth/callback`;
  const client = new ManualOAuthClient(server.issuer);
  await client.register({ client_name: name, redirect_uris: [redirectUri] });
  return { client, redirectUri };
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshotDirectory, `${name}.png`), fullPage: true });
}

describe.skipIf(!available)("the sign-in pages in Chromium", () => {
  it("consent names the client and what it may do; Continue goes through Strava's sign-in and back to the client with code and iss", async () => {
    const { client, redirectUri } = await registeredClient("Coach Desk");
    const page = await context.newPage();
    await page.goto(client.authorizeUrl({ code_challenge: client.pkce().challenge, redirect_uri: redirectUri }).toString());
    await expect(page.title()).resolves.toBe("Allow Coach Desk to use your Strava training log?");
    const text = await page.locator("main").innerText();
    expect(text).toContain("Coach Desk");
    expect(text).toContain("unverified name");
    expect(text).toContain("read your activities");
    expect(text).toContain("Also allow changes");
    expect(text).toContain(appOrigin);
    await shot(page, "1-consent");
    await page.getByRole("button", { name: "Continue with Strava" }).click();
    await page.waitForURL((url) => url.toString().startsWith(redirectUri));
    const back = new URL(page.url());
    expect(back.searchParams.get("code")).toBeTruthy();
    expect(back.searchParams.get("iss")).toBe(server.issuer);
    expect(back.searchParams.get("state")).toBe("state-1");
    expect(await page.locator("h1").innerText()).toBe("Coach Desk");
    await shot(page, "2-back-at-the-client");
    await page.close();
  });

  it("an athlete this server does not serve is refused with a page that says who they are and what to do", async () => {
    await server.signIn(jonas);
    const { client, redirectUri } = await registeredClient("Coach Desk");
    const page = await context.newPage();
    await page.goto(client.authorizeUrl({ code_challenge: client.pkce().challenge, redirect_uri: redirectUri }).toString());
    await page.getByRole("button", { name: "Continue with Strava" }).click();
    await page.waitForURL((url) => url.pathname === "/oauth/strava/callback");
    expect(await page.locator("h1").innerText()).toBe("This server does not serve your Strava account");
    const text = await page.locator("main").innerText();
    expect(text).toContain("Jonas Berg");
    expect(text).toContain(jonas);
    expect(text).toContain("MCP_ATHLETES");
    await shot(page, "3-refused");
    await page.close();
    await server.signIn(maya);
  });

  it("a request that cannot go back to the client shows the error page; Cancel goes back with access_denied", async () => {
    const { client, redirectUri } = await registeredClient("Coach Desk");
    const page = await context.newPage();
    const response = await page.goto(
      client.authorizeUrl({ code_challenge: client.pkce().challenge, redirect_uri: `${appOrigin}/somewhere-else` }).toString(),
    );
    expect(response?.status()).toBe(400);
    expect(await page.locator("h1").innerText()).toBe("This sign-in link is not valid");
    await shot(page, "4-error");

    await page.goto(
      client.authorizeUrl({ code_challenge: client.pkce().challenge, redirect_uri: redirectUri, scope: "fitness:read" }).toString(),
    );
    expect(await page.locator("main").innerText()).toContain("asked for read-only access");
    await shot(page, "5-consent-read-only");
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.waitForURL((url) => url.toString().startsWith(redirectUri));
    expect(new URL(page.url()).searchParams.get("error")).toBe("access_denied");
    await page.close();
  });

  it("a client identified by its metadata document is named with its host; unticked Strava boxes get a page saying which", async () => {
    const redirectUri = `${appOrigin}/oauth/callback`;
    documents.publish("/coach-desk.json", (url) => ({
      client_id: url,
      client_name: "Coach Desk",
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "none",
    }));
    const client = new ManualOAuthClient(server.issuer);
    client.clientId = documents.url("/coach-desk.json");
    const page = await context.newPage();
    await page.goto(client.authorizeUrl({ code_challenge: client.pkce().challenge, redirect_uri: redirectUri }).toString());
    const text = await page.locator("main").innerText();
    expect(text).toContain(`Coach Desk (${new URL(documents.origin).host})`);
    expect(text).not.toContain("unverified name");
    await shot(page, "6-consent-metadata-document");

    const stingy = new ManualOAuthClient(stingyServer.issuer);
    await stingy.register({ client_name: "Coach Desk", redirect_uris: [redirectUri] });
    await page.goto(stingy.authorizeUrl({ code_challenge: stingy.pkce().challenge, redirect_uri: redirectUri }).toString());
    await page.getByRole("button", { name: "Continue with Strava" }).click();
    await page.waitForURL((url) => url.pathname === "/oauth/strava/callback");
    expect(await page.locator("h1").innerText()).toBe("Strava did not give all the access this server needs");
    expect(await page.locator("main").innerText()).toContain("activity:write, profile:read_all");
    await shot(page, "7-strava-boxes-unticked");
    await page.close();
  });

  it("a wrong request before consent shows the error page, and only the person's click on its link goes back to the client", async () => {
    const { client, redirectUri } = await registeredClient("Coach Desk");
    const page = await context.newPage();
    const before = callbacks.length;
    const response = await page.goto(
      client.authorizeUrl({ code_challenge: client.pkce().challenge, redirect_uri: redirectUri, response_type: "x" }).toString(),
    );
    expect(response?.status()).toBe(400);
    expect(await page.locator("h1").innerText()).toBe("The app's sign-in request cannot be used");
    expect(await page.locator("main").innerText()).toContain(new URL(appOrigin).host);
    await shot(page, "8-error-with-link-back");
    expect(callbacks.length).toBe(before);
    await page.getByRole("link", { name: "Return to the app" }).click();
    await page.waitForURL((url) => url.toString().startsWith(redirectUri));
    const back = new URL(page.url());
    expect(back.searchParams.get("error")).toBe("unsupported_response_type");
    expect(back.searchParams.get("state")).toBe("state-1");
    expect(back.searchParams.get("iss")).toBe(server.issuer);
    await page.close();
  });

  it("a right-to-left override in a client's name cannot turn the verified host beside it around", async () => {
    const redirectUri = `${appOrigin}/oauth/callback`;
    // Unisolated, U+202E would show "(127.0.0.1:PORT)" as "(TROP:1.0.0.721)", and a registrable host such as
    // ia.edualc.ws as (sw.claude.ai).
    documents.publish("/reversed.json", (url) => ({
      client_id: url,
      client_name: "Coach Desk \u202e",
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "none",
    }));
    const client = new ManualOAuthClient(server.issuer);
    client.clientId = documents.url("/reversed.json");
    const page = await context.newPage();
    await page.goto(client.authorizeUrl({ code_challenge: client.pkce().challenge, redirect_uri: redirectUri }).toString());
    // The host's characters in the order they are drawn, left to right on the screen (run in the page).
    const drawn = await page.evaluate<string>(`(() => {
      const walker = document.createTreeWalker(document.querySelector("h1 .muted"), NodeFilter.SHOW_TEXT);
      const places = [];
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        for (let index = 0; index < node.length; index++) {
          const range = document.createRange();
          range.setStart(node, index);
          range.setEnd(node, index + 1);
          places.push({ character: node.data[index], left: range.getBoundingClientRect().left });
        }
      }
      return places.sort((a, b) => a.left - b.left).map((place) => place.character).join("");
    })()`);
    expect(drawn).toBe(`(${new URL(documents.origin).host})`);
    expect(await page.locator("h1").innerText()).toBe(
      `Allow Coach Desk (${new URL(documents.origin).host}) to use your Strava training log?`,
    );
    await shot(page, "9-consent-name-with-override");
    await page.close();
  });
});
