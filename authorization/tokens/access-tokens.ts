/**
 * Access tokens: JWTs (RFC 9068 profile, `typ: at+jwt`) signed with HMAC-SHA-256 by jose, bound to
 * this server's resource identifier (`aud`, RFC 8707) and issuer, valid for an hour. They name the
 * athlete (`sub`), the client, the granted scope and the grant (`gid`); the resource server also checks
 * that the grant still exists, so a revoked grant's access tokens stop working at once on every instance.
 *
 * Why HMAC and not a key pair: this server is the only one that verifies its tokens (it publishes no
 * JWKS for others), so one secret key does, and a hosted deployment keeps it in Secrets Manager.
 */
import { createSecretKey, randomUUID, type KeyObject } from "node:crypto";
import { errors, jwtVerify, SignJWT } from "jose";
import { NamedError } from "../../common/named-error.ts";

export interface AccessTokenClaims {
  athleteId: string;
  clientId: string;
  scopes: string[];
  grantId: string;
  /** Epoch seconds. */
  expiresAt: number;
  audience: string;
}

export const accessTokenLifetimeSeconds = 3600;

export class AccessTokenError extends NamedError {}

export class AccessTokens {
  readonly #issuer: string;
  readonly #resource: string;
  /** Imported once: jose would import raw key bytes again on every call. */
  readonly #key: KeyObject;
  readonly #now: () => number;

  constructor(options: { issuer: string; resource: string; key: Uint8Array; now?: () => number }) {
    this.#issuer = options.issuer;
    this.#resource = options.resource;
    this.#key = createSecretKey(options.key);
    this.#now = options.now ?? Date.now;
  }

  async issue(claims: Omit<AccessTokenClaims, "expiresAt" | "audience">): Promise<{ token: string; expiresIn: number }> {
    const now = Math.floor(this.#now() / 1000);
    const token = await new SignJWT({ client_id: claims.clientId, scope: claims.scopes.join(" "), gid: claims.grantId })
      .setProtectedHeader({ alg: "HS256", typ: "at+jwt" })
      .setIssuer(this.#issuer)
      .setAudience(this.#resource)
      .setSubject(claims.athleteId)
      .setIssuedAt(now)
      .setExpirationTime(now + accessTokenLifetimeSeconds)
      .setJti(randomUUID())
      .sign(this.#key);
    return { token, expiresIn: accessTokenLifetimeSeconds };
  }

  /**
   * The claims of a token this server issued for this resource. Throws AccessTokenError saying what is
   * wrong (expired, another audience, not ours), never quoting the token.
   */
  async verify(token: string): Promise<AccessTokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        issuer: this.#issuer,
        audience: this.#resource,
        algorithms: ["HS256"],
        typ: "at+jwt",
        currentDate: new Date(this.#now()),
        requiredClaims: ["sub", "exp", "gid", "client_id"],
      });
      const scope = typeof payload["scope"] === "string" ? payload["scope"] : "";
      return {
        athleteId: String(payload.sub),
        clientId: String(payload["client_id"]),
        scopes: scope.split(" ").filter((item) => item !== ""),
        grantId: String(payload["gid"]),
        expiresAt: payload.exp as number,
        audience: this.#resource,
      };
    } catch (error) {
      throw new AccessTokenError(describeFailure(error));
    }
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "The access token has expired; refresh it.";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud")
      return "The access token was issued for another resource (audience); ask for a token for this server's /mcp.";
    if (error.claim === "iss") return "The access token was issued by another authorization server.";
    return `The access token's ${error.claim} claim is not valid.`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return "The access token's signature does not verify: it was not issued by this server, or it was altered.";
  return "The access token is malformed or not one this server issued.";
}
