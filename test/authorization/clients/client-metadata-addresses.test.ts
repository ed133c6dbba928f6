/**
 * The metadata-document fetch never reaches private addresses in production: a server whose PUBLIC_URL
 * is not loopback connects only to addresses IANA's special-purpose registries mark globally reachable
 * (no loopback, private, link-local, carrier-grade NAT, documentation or reserved address, and no IPv6
 * transition range that leads to one), whether the client_id names them directly or through a host name
 * that resolves to them (the check is made on the address the connection would use). A loopback server
 * accepts loopback documents besides. The caller is told only that the document could not be fetched.
 */
import { describe, expect, it } from "vitest";
import {
  ClientMetadataError,
  ClientMetadataFetcher,
  isClientMetadataUrl,
} from "../../../authorization/clients/client-metadata-document.ts";
import { isPublicAddress as isFetchableAddress } from "../../../authorization/clients/public-addresses.ts";

describe("which addresses a metadata document may be fetched from", () => {
  it("public addresses only, loopback too for a loopback server", () => {
    const refused = [
      "127.0.0.1",
      "127.8.9.10",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "::1",
      "fd00::1",
      "fe80::1",
      "::ffff:10.0.0.1",
      "::ffff:169.254.169.254",
    ];
    for (const address of refused) expect(isFetchableAddress(address, false), address).toBe(false);
    for (const address of ["93.184.215.14", "8.8.8.8", "2606:4700::1111", "172.32.0.1"])
      expect(isFetchableAddress(address, false), address).toBe(true);
    expect(isFetchableAddress("127.0.0.1", true)).toBe(true);
    expect(isFetchableAddress("::1", true)).toBe(true);
    expect(isFetchableAddress("10.0.0.1", true)).toBe(false);
    expect(isFetchableAddress("169.254.169.254", true)).toBe(false);
  });

  it("only what IANA's special-purpose registries mark globally reachable: IPv6 transition, legacy and documentation ranges and the IPv4 blocks that are not", () => {
    const refused = [
      // IPv6 outside 2000::/3, some of which carry an IPv4 address of any kind to a translator or tunnel.
      "::a00:1",
      "::10.0.0.1",
      "::ffff:a00:1",
      "::ffff:0:a00:1",
      "64:ff9b::a00:1",
      "64:ff9b::808:808",
      "64:ff9b:1::a00:1",
      "100::1",
      "fec0::1",
      "ff02::1",
      "5f00::1",
      // Inside 2000::/3 but not globally reachable: Teredo and the IETF block, 6to4, documentation.
      "2001::1",
      "2001:0:a00:1::",
      "2001:2::1",
      "2001:db8::1",
      "2002:a00:1::1",
      "2002:808:808::1",
      "3fff::1",
      // IPv4: TEST-NETs, 6to4 relay anycast, IETF protocol assignments, benchmarking, reserved, broadcast, multicast.
      "192.0.2.1",
      "198.51.100.7",
      "203.0.113.9",
      "192.88.99.1",
      "192.0.0.8",
      "198.18.0.1",
      "198.19.255.255",
      "240.0.0.1",
      "255.255.255.255",
      "239.1.1.1",
    ];
    for (const address of refused) expect(isFetchableAddress(address, false), address).toBe(false);
    // Mapped addresses are judged by the IPv4 address inside, in either notation.
    expect(isFetchableAddress("::ffff:8.8.8.8", false)).toBe(true);
    expect(isFetchableAddress("::ffff:808:808", false)).toBe(true);
    expect(isFetchableAddress("::ffff:7f00:1", true)).toBe(true);
    // Global unicast beside those blocks stays reachable.
    for (const address of [
      "2001:4860:4860::8888",
      "2a00:1450:4001::1",
      "2620:4f:8000::1",
      "192.0.1.1",
      "192.31.196.1",
      "198.20.0.1",
      "223.255.255.1",
    ]) {
      expect(isFetchableAddress(address, false), address).toBe(true);
    }
    // A zone index, or text that is not an address, is refused.
    expect(isFetchableAddress("fe80::1%eth0", true)).toBe(false);
    expect(isFetchableAddress("not-an-address", true)).toBe(false);
  });

  it("a client_id is a document URL only with https and a path", () => {
    expect(isClientMetadataUrl("https://claude.ai/oauth/mcp-client-metadata")).toBe(true);
    expect(isClientMetadataUrl("https://claude.ai/")).toBe(false);
    expect(isClientMetadataUrl("http://claude.ai/client.json")).toBe(false);
    expect(isClientMetadataUrl("fc_abc")).toBe(false);
  });

  it("a server that is not on loopback refuses loopback documents, named by address or by a name, saying nothing of what it found", async () => {
    const fetcher = new ClientMetadataFetcher({ allowLoopback: false });
    const cases: [string, RegExp][] = [
      ["https://127.0.0.1:9/client.json", /127\.0\.0\.1 is not a globally reachable address/],
      ["https://[::1]:9/client.json", /::1 is not a globally reachable address/],
      ["https://[::a00:1]:9/client.json", /::a00:1 is not a globally reachable address/],
      ["https://[2002:a00:1::1]:9/client.json", /2002:a00:1::1 is not a globally reachable address/],
      ["https://localhost:9/client.json", /localhost resolves to .*not a globally reachable address/],
    ];
    for (const [clientId, detail] of cases) {
      const refusal = await fetcher.fetch(clientId).then(
        () => undefined,
        (error: unknown) => error as ClientMetadataError,
      );
      expect(refusal, clientId).toBeInstanceOf(ClientMetadataError);
      expect(refusal?.message).toBe(
        "The client metadata document could not be fetched from a public https host; the client_id must be the https URL of the document, on a host anybody can reach.",
      );
      expect(refusal?.detail, clientId).toMatch(detail);
    }
  });
});
