/**
 * The discovery documents (authorization/endpoints/metadata.ts): protected resource metadata (RFC 9728) at the
 * path-suffixed address for /mcp and at the plain one, authorization server metadata (RFC 8414), each public,
 * cacheable for five minutes and open to CORS; other methods 405, a preflight 204; no OpenID Connect discovery.
 */
import { describe, expect, it } from "vitest";
import { discoveryDocuments } from "../../../authorization/endpoints/metadata.ts";

const issuer = "https://fitness.example.com";
const documents = discoveryDocuments(issuer, `${issuer}/mcp`, "openclaw-fitness");

async function json(response: Response | undefined): Promise<Record<string, unknown>> {
  expect(response?.status).toBe(200);
  return (await response?.json()) as Record<string, unknown>;
}

describe("the discovery documents", () => {
  it("name the resource and its authorization server, at both resource metadata addresses", async () => {
    expect(documents.resourceMetadataUrl).toBe(`${issuer}/.well-known/oauth-protected-resource/mcp`);
    const suffixed = await json(documents.answer("/.well-known/oauth-protected-resource/mcp", "GET"));
    expect(suffixed).toMatchObject({
      resource: `${issuer}/mcp`,
      authorization_servers: [issuer],
      scopes_supported: ["fitness:read", "fitness:write"],
      resource_name: "openclaw-fitness",
    });
    expect(await json(documents.answer("/.well-known/oauth-protected-resource", "GET"))).toEqual(suffixed);
  });

  it("describe the authorization server as it is: code flow with S256, iss in the answer, metadata documents, revocation", async () => {
    expect(await json(documents.answer("/.well-known/oauth-authorization-server", "GET"))).toEqual({
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      registration_endpoint: `${issuer}/register`,
      revocation_endpoint: `${issuer}/revoke`,
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
      revocation_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
      scopes_supported: ["fitness:read", "fitness:write"],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
  });

  it("are public and cacheable for five minutes, CORS open; a preflight is 204, other methods 405; OpenID discovery is not here", () => {
    const answer = documents.answer("/.well-known/oauth-authorization-server", "HEAD");
    expect(answer?.headers.get("cache-control")).toBe("public, max-age=300");
    expect(answer?.headers.get("access-control-allow-origin")).toBe("*");
    expect(documents.answer("/.well-known/oauth-authorization-server", "OPTIONS")?.status).toBe(204);
    const post = documents.answer("/.well-known/oauth-authorization-server", "POST");
    expect(post?.status).toBe(405);
    expect(post?.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(documents.answer("/.well-known/openid-configuration", "GET")).toBeUndefined();
  });
});
