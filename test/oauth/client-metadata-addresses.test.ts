/**
 * The metadata-document fetch never reaches private addresses in production: a server whose PUBLIC_URL
 * is not loopback refuses loopback, private, link-local, carrier-grade NAT and reserved addresses,
 * whether the client_id names them directly or through a host name that resolves to them (the check is
 * made on the address the connection would use). A loopback server accepts loopback documents only.
 */
import { describe, expect, it } from "vitest";
import { ClientMetadataFetcher, isClientMetadataUrl, isFetchableAddress } from "../../mcp-adapter/oauth/client-metadata-document.ts";

describe("which addresses a metadata document may be fetched from", () => {
  it("public addresses only, loopback too for a loopback server", () => {
    const refused = ["127.0.0.1", "127.8.9.10", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1",
      "::1", "fd00::1", "fe80::1", "::ffff:10.0.0.1", "::ffff:169.254.169.254"];
    for (const address of refused) expect(isFetchableAddress(address, false), address).toBe(false);
    for (const address of ["93.184.215.14", "8.8.8.8", "2606:4700::1111", "172.32.0.1"]) expect(isFetchableAddress(address, false), address).toBe(true);
    expect(isFetchableAddress("127.0.0.1", true)).toBe(true);
    expect(isFetchableAddress("::1", true)).toBe(true);
    expect(isFetchableAddress("10.0.0.1", true)).toBe(false);
    expect(isFetchableAddress("169.254.169.254", true)).toBe(false);
  });

  it("a client_id is a document URL only with https and a path", () => {
    expect(isClientMetadataUrl("https://claude.ai/oauth/mcp-client-metadata")).toBe(true);
    expect(isClientMetadataUrl("https://claude.ai/")).toBe(false);
    expect(isClientMetadataUrl("http://claude.ai/client.json")).toBe(false);
    expect(isClientMetadataUrl("fc_abc")).toBe(false);
  });

  it("a server that is not on loopback refuses loopback documents, named by address or by a name", async () => {
    const fetcher = new ClientMetadataFetcher({ allowLoopback: false });
    await expect(fetcher.fetch("https://127.0.0.1:9/client.json")).rejects.toThrow(/private or reserved address/);
    await expect(fetcher.fetch("https://[::1]:9/client.json")).rejects.toThrow(/private or reserved address/);
    await expect(fetcher.fetch("https://localhost:9/client.json")).rejects.toThrow(/resolves to a private or reserved address/);
  });
});
