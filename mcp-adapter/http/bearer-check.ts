/**
 * The bearer check in front of every route: `Authorization: Bearer <AUTH_TOKEN>`.
 *
 * The token is compared in constant time (common/digests.ts). A failure is answered 401 before any MCP handling
 * and before the body is read (the route table's `credentials` step, route-table.ts), with a JSON body and
 * `WWW-Authenticate: Bearer` (RFC 6750):
 * `error="invalid_token"` when a bearer token was sent, no error code when none was (missing header, or
 * another scheme). Failures are logged through a rate-limited log: a count per interval, not a line each.
 *
 * Why not the SDK's bearer pieces (`verifyBearerToken`, `requireBearerAuth`): they answer a request
 * without credentials with `error="invalid_token"` (RFC 6750 section 3.1 asks for no error code there,
 * and this server documents it so); they refuse a token whose `AuthInfo` has no `expiresAt`, which a
 * static token does not have; and they work on a web `Request` built after the body is read, while this
 * check must answer from the headers of the Node request so the connection can be closed unread. What
 * is left of ours is the constant-time comparison and the two answers.
 */
import { secretsMatch } from "../../common/digests.ts";

export const bearerRealm = "openclaw-fitness";

export type BearerVerdict = "accepted" | "missing" | "not_bearer" | "invalid_token";

export function createBearerVerifier(expectedToken: string): (authorization: string | undefined) => BearerVerdict {
  if (expectedToken.length === 0) throw new Error("The bearer token must not be empty.");
  return (authorization) => {
    if (authorization === undefined || authorization.trim() === "") return "missing";
    const space = authorization.indexOf(" ");
    const scheme = space === -1 ? authorization : authorization.slice(0, space);
    if (scheme.toLowerCase() !== "bearer") return "not_bearer";
    const token = space === -1 ? "" : authorization.slice(space + 1).trim();
    return secretsMatch(token, expectedToken) ? "accepted" : "invalid_token";
  };
}

/** The 401 for a refused bearer: its challenge (RFC 6750) and a body that says what to send. */
export function bearerChallenge(verdict: Exclude<BearerVerdict, "accepted">): {
  challenge: string;
  body: { error: string; error_description: string };
} {
  if (verdict === "invalid_token") {
    return {
      challenge: `Bearer realm="${bearerRealm}", error="invalid_token", error_description="The bearer token is not valid for this server"`,
      body: {
        error: "invalid_token",
        error_description: "The bearer token is not valid for this server. Send Authorization: Bearer <AUTH_TOKEN>.",
      },
    };
  }
  return {
    challenge: `Bearer realm="${bearerRealm}"`,
    body: {
      error: "unauthorized",
      error_description:
        verdict === "missing"
          ? "This server needs an Authorization header: Authorization: Bearer <AUTH_TOKEN>."
          : "Only the Bearer scheme is accepted: Authorization: Bearer <AUTH_TOKEN>.",
    },
  };
}
