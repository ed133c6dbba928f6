/**
 * A client_id that is a metadata document URL makes the server fetch it, at an address whoever sends the
 * request picks, so a slow or dead host must cost little (the hosted function pays for the time):
 *
 * - a fetch gives up within 2 seconds in all: a host that accepts the connection and never starts TLS,
 *   one that finishes TLS and never answers, and one that sends its answer a byte at a time;
 * - a failure is remembered for 60 seconds: a host that could not be reached (no TLS) is not tried again
 *   in that time, for any document on it; a document that got no answer, or a refused one, is not fetched
 *   again, while the same host's other documents are;
 * - one address may make the server fetch at most 20 documents a minute; past that the server refuses
 *   without fetching, and other addresses are not affected.
 *
 * Through the real server (documents over HTTPS from a test authority it trusts), with real sockets, and
 * the remembering of failures with the fetcher's own clock.
 */
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientMetadataError, ClientMetadataFetcher } from "../../../authorization/clients/client-metadata-document.ts";
import { startOAuthServer, type OAuthServer } from "../../support/oauth-server.ts";
import { makeTestCertificates, type TestCertificates } from "../../support/test-certificates.ts";
import { startClientMetadataHost, type ClientMetadataHost } from "../../support/client-metadata-host.ts";
import { manualClock } from "../../support/test-clock.ts";
import { clearOfWindowTurn, minuteMs } from "../../support/window-turns.ts";

let certificates: TestCertificates;
let host: ClientMetadataHost;
let server: OAuthServer;
const redirectUri = "http://127.0.0.1:47613/oauth/callback";

/** A TCP server that takes connections and never says a word (no TLS), counting them. */
async function startSilentHost(): Promise<{ origin: string; connections: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const tcp: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
  return {
    origin: `https://127.0.0.1:${(tcp.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        tcp.close(() => resolve());
      }),
  };
}

let silentHost: Awaited<ReturnType<typeof startSilentHost>>;

beforeAll(async () => {
  certificates = makeTestCertificates();
  host = await startClientMetadataHost(certificates);
  silentHost = await startSilentHost();
  server = await startOAuthServer({ NODE_EXTRA_CA_CERTS: certificates.caPath, MCP_CLIENT_ADDRESS_HEADER: "x-forwarded-for" });
});

afterAll(async () => {
  await server?.stop();
  await host?.close();
  await silentHost?.close();
  certificates?.remove();
});

function authorizeUrl(clientId: string): URL {
  const url = new URL(`${server.issuer}/authorize`);
  const params = {
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: "code",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    resource: server.mcpUrl,
    state: "s1",
  };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url;
}

/** GET /authorize naming the document, from `source`: the page's status and text, and how long it took. */
async function authorize(clientId: string, source = "198.51.100.1"): Promise<{ status: number; html: string; ms: number }> {
  const started = performance.now();
  const answer = await fetch(authorizeUrl(clientId), { redirect: "manual", headers: { "x-forwarded-for": source } });
  const html = await answer.text();
  return { status: answer.status, html, ms: performance.now() - started };
}

describe("slow and dead metadata-document hosts", () => {
  it("a fetch gives up within 2 s in all: no TLS, TLS and no answer, an answer a byte at a time", { timeout: 60_000 }, async () => {
    host.silent("/silent.json");
    host.trickle("/trickle.json", 200);
    for (const [clientId, source] of [
      [`${silentHost.origin}/client.json`, "198.51.100.11"],
      [host.url("/silent.json"), "198.51.100.12"],
      [host.url("/trickle.json"), "198.51.100.13"],
    ] as const) {
      const page = await authorize(clientId, source);
      expect(page.status, clientId).toBe(400);
      expect(page.html, clientId).toMatch(/could not be fetched from a public https host|could not be used/);
      // The 2-second deadline, with room for a busy machine; the earlier deadline was 5 s.
      expect(page.ms, clientId).toBeLessThan(3_500);
    }
  });

  it("a host that could not be reached is not tried again for 60 s, for any document on it; a document without an answer, or refused, is not fetched again", async () => {
    const dead = await startSilentHost();
    try {
      const first = await authorize(`${dead.origin}/a.json`, "198.51.100.21");
      expect(first.status).toBe(400);
      const second = await authorize(`${dead.origin}/b.json`, "198.51.100.22");
      expect(second.status).toBe(400);
      expect(second.html).toContain("could not be fetched from a public https host");
      expect(second.ms).toBeLessThan(1_000);
      expect(dead.connections()).toBe(1);
    } finally {
      await dead.close();
    }
    // After TLS, what happens depends on the path: remembered for that document only, the host's others are fetched.
    host.silent("/stuck.json");
    for (let n = 0; n < 2; n++) expect((await authorize(host.url("/stuck.json"), "198.51.100.23")).status).toBe(400);
    expect(host.requests("/stuck.json")).toBe(1);
    for (let n = 0; n < 2; n++) expect((await authorize(host.url("/gone.json"), "198.51.100.23")).html).toContain("answered 404");
    expect(host.requests("/gone.json")).toBe(1);
  });

  it(
    "one address makes the server fetch at most 20 documents a minute; past that it is refused without a fetch, and others are not",
    { timeout: 45_000 },
    async () => {
      // The server (a child on the same clock) counts fetches by the clock's minute: one turning before the 21st would let
      // it fetch. The 21 sign-ins take about a second, so ten seconds clear of the turn leave them room many times over.
      await clearOfWindowTurn(minuteMs, 10_000);
      for (let n = 0; n < 20; n++) {
        const page = await authorize(host.url(`/many-${n}.json`), "203.0.113.50");
        expect(page.html).toContain("answered 404");
      }
      const refused = await authorize(host.url("/many-20.json"), "203.0.113.50");
      expect(refused.status).toBe(400);
      expect(refused.html).toMatch(
        /This address asked this server to fetch more than 20 client metadata documents in a minute; try again in \d+ s\./,
      );
      expect(host.requests("/many-20.json")).toBe(0);
      expect((await authorize(host.url("/many-20.json"), "203.0.113.51")).html).toContain("answered 404");
      expect(host.requests("/many-20.json")).toBe(1);
    },
  );
});

describe("the fetcher's memory of failures", () => {
  it("lasts 60 s by its clock: then the host is tried again", { timeout: 30_000 }, async () => {
    const clock = manualClock();
    const fetcher = new ClientMetadataFetcher({ allowLoopback: true, now: clock.now });
    const before = silentHost.connections();
    const attempt = (): Promise<unknown> => fetcher.fetch(`${silentHost.origin}/memory.json`, "192.0.2.1").catch((error: unknown) => error);
    expect(await attempt()).toBeInstanceOf(ClientMetadataError);
    clock.advance(59_000);
    expect(await attempt()).toBeInstanceOf(ClientMetadataError);
    expect(silentHost.connections() - before).toBe(1);
    clock.advance(2_000);
    expect(await attempt()).toBeInstanceOf(ClientMetadataError);
    expect(silentHost.connections() - before).toBe(2);
  });
});
