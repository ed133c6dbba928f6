/**
 * A client metadata document's fetch and checks (authorization/clients/client-metadata-document.ts and
 * document-request.ts) in process: the fetcher against an HTTPS host on loopback whose certificate comes from a
 * test authority this test's process trusts (tls.setDefaultCACertificates, in this file's worker only). A
 * document that names itself, lists allowed redirect URIs and asks for no client secret is taken, and cached;
 * one that redirects, is over 10 KiB, is not client metadata, names another client_id, asks for a client secret or lists
 * a redirect URI a registration could not have is refused with a message for the sender, and not fetched again
 * for 60 s. Through the whole sign-in (the consent page naming the client) it is client-metadata-documents.test.ts;
 * slow hosts are clients/client-metadata-slow-hosts.test.ts and addresses client-metadata-addresses.test.ts.
 */
import { readFileSync } from "node:fs";
import { getCACertificates, setDefaultCACertificates } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientMetadataError, ClientMetadataFetcher } from "../../../authorization/clients/client-metadata-document.ts";
import { startClientMetadataHost, type ClientMetadataHost } from "../../support/client-metadata-host.ts";
import { makeTestCertificates, type TestCertificates } from "../../support/test-certificates.ts";
import { testNow } from "../../support/test-clock.ts";

let certificates: TestCertificates;
let host: ClientMetadataHost;
const trustedBefore = getCACertificates("default");
const redirectUri = "http://127.0.0.1:47613/oauth/callback";

beforeAll(async () => {
  certificates = makeTestCertificates();
  setDefaultCACertificates([...trustedBefore, readFileSync(certificates.caPath, "utf8")]);
  host = await startClientMetadataHost(certificates);
});

afterAll(async () => {
  await host?.close();
  certificates?.remove();
  setDefaultCACertificates(trustedBefore);
});

const document =
  (extra: Record<string, unknown> = {}) =>
  (url: string) => ({
    client_id: url,
    client_name: "Coach on the phone",
    client_uri: "https://coach.example.com",
    redirect_uris: [redirectUri],
    token_endpoint_auth_method: "none",
    ...extra,
  });

/** What the fetch of `path` ends in: the document, or the refusal's message for the sender and its reason. */
async function outcome(fetcher: ClientMetadataFetcher, path: string): Promise<unknown> {
  return fetcher.fetch(host.url(path), "192.0.2.1").catch((error: unknown) => {
    expect(error).toBeInstanceOf(ClientMetadataError);
    return { reason: (error as ClientMetadataError).reason, message: (error as Error).message };
  });
}

describe("a client metadata document", () => {
  it("that names itself and lists allowed redirect URIs is taken, and cached: the host is asked once", async () => {
    const fetcher = new ClientMetadataFetcher({ allowLoopback: true });
    host.publish("/good.json", document({ scope: "fitness:read" }));
    const expected = {
      client_id: host.url("/good.json"),
      client_name: "Coach on the phone",
      client_uri: "https://coach.example.com",
      redirect_uris: [redirectUri],
      scope: "fitness:read",
    };
    expect(await outcome(fetcher, "/good.json")).toEqual(expected);
    expect(await outcome(fetcher, "/good.json")).toEqual(expected);
    expect(host.requests("/good.json")).toBe(1);
  });

  it("is refused, saying why, when it redirects, is too large or is not client metadata", async () => {
    const fetcher = new ClientMetadataFetcher({ allowLoopback: true });
    host.redirect("/moved.json", host.url("/good.json"));
    host.oversize("/large.json", 11 * 1024);
    host.publish("/good.json", document());
    expect(await outcome(fetcher, "/moved.json")).toEqual({
      reason: "answer",
      message:
        "The client metadata document could not be used: it answered 302 (a redirect); the document must be served at the client_id URL itself.",
    });
    expect(await outcome(fetcher, "/large.json")).toEqual({
      reason: "answer",
      message: "The client metadata document could not be used: it is larger than 10240 bytes.",
    });
    host.publish("/text.json", () => "not json at all");
    // JSON, but a string, not an object of client metadata.
    expect(await outcome(fetcher, "/text.json")).toMatchObject({
      reason: "document",
      message: expect.stringContaining("not valid client metadata"),
    });
  });

  it("is refused when it names another client, asks for a client secret, or lists a redirect URI a registration could not have", async () => {
    const fetcher = new ClientMetadataFetcher({ allowLoopback: true });
    host.publish("/other.json", document({ client_id: "https://elsewhere.example.com/client.json" }));
    host.publish("/secret-method.json", document({ token_endpoint_auth_method: "client_secret_basic" }));
    host.publish("/secret.json", document({ client_secret: "s3cret" }));
    host.publish("/fragment.json", document({ redirect_uris: ["https://coach.example.com/cb#here"] }));
    host.publish("/none.json", document({ redirect_uris: [] }));
    expect(await outcome(fetcher, "/other.json")).toEqual({
      reason: "document",
      message: "The client metadata document names another client_id; it must name its own URL exactly.",
    });
    expect(await outcome(fetcher, "/secret-method.json")).toMatchObject({ message: expect.stringContaining('must use "none" (PKCE)') });
    expect(await outcome(fetcher, "/secret.json")).toMatchObject({ message: expect.stringContaining("contains a client_secret") });
    expect(await outcome(fetcher, "/fragment.json")).toMatchObject({
      message: expect.stringContaining("lists a redirect URI that is not allowed"),
    });
    expect(await outcome(fetcher, "/none.json")).toMatchObject({ reason: "document" });
  });

  it("refused once, is not fetched again for 60 s, even when it is fixed in the meantime", async () => {
    let nowMs = testNow;
    const fetcher = new ClientMetadataFetcher({ allowLoopback: true, now: () => nowMs });
    host.publish("/fixed-later.json", document({ client_id: "https://elsewhere.example.com/client.json" }));
    expect(await outcome(fetcher, "/fixed-later.json")).toMatchObject({ reason: "document" });
    host.publish("/fixed-later.json", document());
    expect(await outcome(fetcher, "/fixed-later.json")).toMatchObject({ reason: "document" });
    expect(host.requests("/fixed-later.json")).toBe(1);
    nowMs += 61_000;
    expect(await outcome(fetcher, "/fixed-later.json")).toMatchObject({ client_id: host.url("/fixed-later.json") });
  });
});
