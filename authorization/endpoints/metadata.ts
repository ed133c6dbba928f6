/**
 * The discovery documents: protected resource metadata (RFC 9728) at
 * `/.well-known/oauth-protected-resource/mcp` (the path-suffixed form for the resource `/mcp`) and at
 * `/.well-known/oauth-protected-resource`, built by the MCP SDK's `buildOAuthProtectedResourceMetadata`
 * (which also refuses a non-https issuer outside loopback); authorization server metadata (RFC 8414)
 * at `/.well-known/oauth-authorization-server`. Both are public and cacheable for a few minutes, with
 * CORS open for browser-based clients. OpenID Connect discovery is not offered (404): this is not an
 * OpenID provider.
 */
import {
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  type OAuthMetadata,
} from "@modelcontextprotocol/server";
import { corsHeaders } from "./oauth-answers.ts";
import { paths } from "../addresses.ts";
import { supportedScopes } from "../tokens/scopes.ts";

export interface DiscoveryDocuments {
  /** Answers a discovery path, or undefined for any other path. */
  answer(path: string, method: string): Response | undefined;
  /** The protected resource metadata URL (named in 401 challenges). */
  resourceMetadataUrl: string;
}

export function discoveryDocuments(issuer: string, resource: string, serverName: string): DiscoveryDocuments {
  const authorizationServer: OAuthMetadata = {
    issuer,
    authorization_endpoint: `${issuer}${paths.authorize}`,
    token_endpoint: `${issuer}${paths.token}`,
    registration_endpoint: `${issuer}${paths.register}`,
    revocation_endpoint: `${issuer}${paths.revoke}`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
    revocation_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
    scopes_supported: [...supportedScopes],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  } as OAuthMetadata;
  const protectedResource = buildOAuthProtectedResourceMetadata({
    oauthMetadata: authorizationServer,
    resourceServerUrl: new URL(resource),
    scopesSupported: [...supportedScopes],
    resourceName: serverName,
  });
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(resource));
  const suffixedPath = new URL(resourceMetadataUrl).pathname;
  const documents = new Map<string, unknown>([
    [suffixedPath, protectedResource],
    ["/.well-known/oauth-protected-resource", protectedResource],
    ["/.well-known/oauth-authorization-server", authorizationServer],
  ]);
  return {
    resourceMetadataUrl,
    answer: (path, method) => {
      const document = documents.get(path);
      if (document === undefined) return undefined;
      if (method === "OPTIONS") return new Response(null, { status: 204, headers: corsHeaders });
      if (method !== "GET" && method !== "HEAD")
        return Response.json({ error: "method_not_allowed" }, { status: 405, headers: { allow: "GET, HEAD, OPTIONS", ...corsHeaders } });
      return Response.json(document, { headers: { "cache-control": "public, max-age=300", ...corsHeaders } });
    },
  };
}
