/**
 * The resource server's side: every request to `/mcp` must carry an access token this server issued
 * for `/mcp` (the audience, RFC 8707), unexpired, whose grant still exists (so a revoked grant's tokens
 * fail at once, on every instance), for an athlete this deployment still serves (admission.ts). The MCP SDK's `verifyBearerToken` parses the header, calls this
 * verifier, compares the resource and the expiry, and `bearerAuthChallengeResponse` answers a failure:
 * 401 with `WWW-Authenticate: Bearer error="invalid_token", resource_metadata="..."` (RFC 9728 §5.1), so a
 * client without a token finds the authorization server. Messages say what is wrong, never the token.
 */
import {
  bearerAuthChallengeResponse,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
  type AuthInfo,
  type OAuthTokenVerifier,
} from "@modelcontextprotocol/server";
import { AccessTokenError, type AccessTokens } from "../tokens/access-tokens.ts";
import type { GrantStore } from "../stores/grant-store.ts";

export interface ResourceGate {
  /** The verified token's AuthInfo (`extra.athleteId`, `extra.grantId`), or the challenge to answer. */
  check(authorization: string | null | undefined): Promise<AuthInfo | Response>;
}

export interface ResourceGateOptions {
  accessTokens: AccessTokens;
  grants: Pick<GrantStore, "getGrant">;
  resource: string;
  resourceMetadataUrl: string;
  storeTimeoutMs: number;
  /** Whether the athlete is still served (revoking their grants when not). */
  stillAdmits: (athleteId: string) => Promise<boolean>;
  onRefused?: (reason: string) => void;
}

export function createResourceGate(options: ResourceGateOptions): ResourceGate {
  const verifier = accessTokenVerifier(options);
  const expectedResource = new URL(options.resource);
  return {
    check: async (authorization) => {
      try {
        return await verifyBearerToken(authorization, { verifier, expectedResource, resourceMetadataUrl: options.resourceMetadataUrl });
      } catch (error) {
        options.onRefused?.(error instanceof OAuthError ? error.code : "error");
        return refusal(error, options.resourceMetadataUrl);
      }
    },
  };
}

/** The check behind the SDK's `verifyBearerToken`: the token's signature and claims, its grant, and its athlete's admission. */
function accessTokenVerifier(options: ResourceGateOptions): OAuthTokenVerifier {
  const unavailable = (): OAuthError =>
    new OAuthError(OAuthErrorCode.TemporarilyUnavailable, "The server could not check the token's grant just now; try again shortly.");
  return {
    verifyAccessToken: async (token) => {
      let claims;
      try {
        claims = await options.accessTokens.verify(token);
      } catch (error) {
        if (error instanceof AccessTokenError) throw new OAuthError(OAuthErrorCode.InvalidToken, error.message);
        throw error;
      }
      let grant;
      try {
        grant = await options.grants.getGrant(claims.grantId, AbortSignal.timeout(options.storeTimeoutMs));
      } catch {
        throw unavailable();
      }
      if (grant === undefined || grant.athlete_id !== claims.athleteId || grant.client_id !== claims.clientId) {
        throw new OAuthError(OAuthErrorCode.InvalidToken, "The access token's grant was revoked (or has expired); sign in again.");
      }
      let admitted;
      try {
        admitted = await options.stillAdmits(claims.athleteId);
      } catch {
        throw unavailable();
      }
      if (!admitted)
        throw new OAuthError(
          OAuthErrorCode.InvalidToken,
          "This server no longer serves this Strava athlete (its operator changed who it serves); the grant is revoked.",
        );
      return {
        token,
        clientId: claims.clientId,
        scopes: claims.scopes,
        expiresAt: claims.expiresAt,
        resource: new URL(claims.audience),
        extra: { athleteId: claims.athleteId, grantId: claims.grantId },
      };
    },
  };
}

/** What a refused token gets: 503 when the store did not answer (not the client's fault: no challenge that would make it sign in again), else the challenge. */
function refusal(error: unknown, resourceMetadataUrl: string): Response {
  if (error instanceof OAuthError && error.code === OAuthErrorCode.TemporarilyUnavailable) {
    return Response.json(
      { error: error.code, error_description: error.message },
      { status: 503, headers: { "retry-after": "5", "cache-control": "no-store" } },
    );
  }
  return bearerAuthChallengeResponse(error, { resourceMetadataUrl });
}

/** The athlete an authenticated request acts for. */
export function athleteOf(authInfo: AuthInfo | undefined): string | undefined {
  const athlete = authInfo?.extra?.["athleteId"];
  return typeof athlete === "string" ? athlete : undefined;
}
