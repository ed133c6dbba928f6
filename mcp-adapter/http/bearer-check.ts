/**
 * The bearer check in front of every route: `Authorization: Bearer <AUTH_TOKEN>`.
 *
 * The token is compared in constant time (common/digests.ts). A failure is answered 401 before any MCP handling
 * and before the body is read, with a JSON body and `WWW-Authenticate: Bearer` (RFC 6750):
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
import type { IncomingMessage, ServerResponse } from "node:http";
import { secretsMatch } from "../../common/digests.ts";
import { sendJson } from "./http-answers.ts";
import type { RateLimitedLog } from "../../common/rate-limited-log.ts";

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

/** Returns true for a valid token; otherwise answers 401 and closes the connection and returns false. */
export function createBearerCheck(options: { token: string; failures: RateLimitedLog }): (request: IncomingMessage, response: ServerResponse) => boolean {
  const verify = createBearerVerifier(options.token);
  return (request, response) => {
    const verdict = verify(request.headers.authorization);
    if (verdict === "accepted") return true;
    // Logged without the header's value: it may be a mistyped real token.
    options.failures.record(verdict, { method: request.method, path: request.url?.split("?", 1)[0] });
    const invalidToken = verdict === "invalid_token";
    const challenge = invalidToken
      ? `Bearer realm="${bearerRealm}", error="invalid_token", error_description="The bearer token is not valid for this server"`
      : `Bearer realm="${bearerRealm}"`;
    const body = invalidToken
      ? { error: "invalid_token", error_description: "The bearer token is not valid for this server. Send Authorization: Bearer <AUTH_TOKEN>." }
      : {
          error: "unauthorized",
          error_description:
            verdict === "missing"
              ? "This server needs an Authorization header: Authorization: Bearer <AUTH_TOKEN>."
              : "Only the Bearer scheme is accepted: Authorization: Bearer <AUTH_TOKEN>.",
        };
    sendJson(request, response, 401, body, { "www-authenticate": challenge, connection: "close" });
    return false;
  };
}
