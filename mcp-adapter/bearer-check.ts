/**
 * The bearer check in front of every route: `Authorization: Bearer <AUTH_TOKEN>`.
 *
 * Both sides are hashed before `timingSafeEqual`, so the comparison takes the same time whatever the
 * length or content of the guess (timingSafeEqual alone needs equal lengths, and an early length
 * check would tell an attacker the token's length). A failure is answered 401 here, before any MCP
 * handling, with a JSON body and `WWW-Authenticate: Bearer` (RFC 6750): `error="invalid_token"` when
 * a bearer token was sent, no error code when none was (missing header, or another scheme).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../tools/logger.ts";
import { sendJson } from "./json-rpc-reply.ts";

export const bearerRealm = "openclaw-fitness";

export type BearerVerdict = "accepted" | "missing" | "not_bearer" | "invalid_token";

export function createBearerVerifier(expectedToken: string): (authorization: string | undefined) => BearerVerdict {
  if (expectedToken.length === 0) throw new Error("The bearer token must not be empty.");
  const expectedDigest = sha256(expectedToken);
  return (authorization) => {
    if (authorization === undefined || authorization.trim() === "") return "missing";
    const space = authorization.indexOf(" ");
    const scheme = space === -1 ? authorization : authorization.slice(0, space);
    if (scheme.toLowerCase() !== "bearer") return "not_bearer";
    const token = space === -1 ? "" : authorization.slice(space + 1).trim();
    return timingSafeEqual(sha256(token), expectedDigest) ? "accepted" : "invalid_token";
  };
}

/** Express-style middleware: calls `next()` for a valid token, answers 401 otherwise. */
export function createBearerCheck(options: { token: string; logger: Logger }) {
  const verify = createBearerVerifier(options.token);
  return (request: IncomingMessage, response: ServerResponse, next: () => void): void => {
    const verdict = verify(request.headers.authorization);
    if (verdict === "accepted") {
      next();
      return;
    }
    // Logged without the header's value: it may be a mistyped real token.
    options.logger.info("http_unauthorized", { method: request.method, path: request.url?.split("?", 1)[0], reason: verdict });
    const challenge =
      verdict === "invalid_token"
        ? `Bearer realm="${bearerRealm}", error="invalid_token", error_description="The bearer token is not valid for this server"`
        : `Bearer realm="${bearerRealm}"`;
    const body =
      verdict === "invalid_token"
        ? { error: "invalid_token", error_description: "The bearer token is not valid for this server. Send Authorization: Bearer <AUTH_TOKEN>." }
        : {
            error: "unauthorized",
            error_description:
              verdict === "missing"
                ? "This server needs an Authorization header: Authorization: Bearer <AUTH_TOKEN>."
                : "Only the Bearer scheme is accepted: Authorization: Bearer <AUTH_TOKEN>.",
          };
    sendJson(response, 401, JSON.stringify(body), { "www-authenticate": challenge });
  };
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
