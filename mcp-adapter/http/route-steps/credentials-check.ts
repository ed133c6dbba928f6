/**
 * The route table's fifth step, the credentials: in OAuth mode an access token the OAuth app issued, for /mcp
 * only (/health needs none there), checked by the app's gate, whose refusal (401 with its challenge, or 503
 * when its store did not answer) is passed on; in bearer mode the static bearer token (bearer-check.ts), for
 * every path: 401 with the challenge. Refusals are counted a line per interval, never with the header's value.
 */
import type { RateLimitedLog } from "../../../common/rate-limited-log.ts";
import { bearerChallenge, createBearerVerifier } from "../bearer-check.ts";
import type { OAuthPaths, RouteDecision, RouteStep } from "./route-step.ts";

export function credentialsCheck(
  credentials: { oauth?: OAuthPaths | undefined; bearerToken?: string | undefined },
  unauthorized: RateLimitedLog,
): RouteStep {
  if (credentials.oauth) return accessTokenCheck(credentials.oauth.gate, unauthorized);
  if (credentials.bearerToken === undefined) return () => undefined;
  return bearerTokenCheck(credentials.bearerToken, unauthorized);
}

/** OAuth mode: /mcp needs an access token the gate accepts; the athlete it names goes with the request. */
export function accessTokenCheck(gate: OAuthPaths["gate"], unauthorized: RateLimitedLog): RouteStep {
  return async (request) => {
    if (request.path !== "/mcp") return undefined;
    const verdict = await gate.check(request.header("authorization"));
    if (!(verdict instanceof Response)) return { kind: "mcp", auth: verdict };
    unauthorized.record(String(verdict.status), {});
    return refusalOf(verdict);
  };
}

/** Bearer mode: every path needs `Authorization: Bearer <AUTH_TOKEN>`. */
export function bearerTokenCheck(bearerToken: string, unauthorized: RateLimitedLog): RouteStep {
  const verifyBearer = createBearerVerifier(bearerToken);
  return (request) => {
    const verdict = verifyBearer(request.header("authorization"));
    if (verdict === "accepted") return undefined;
    // Logged without the header's value: it may be a mistyped real token.
    unauthorized.record(verdict, { method: request.method, path: request.path });
    const answer = bearerChallenge(verdict);
    return { kind: "answer", status: 401, body: answer.body, headers: { "www-authenticate": answer.challenge }, close: true };
  };
}

/** The gate's refusal as a decision: its status, headers (but the body's own) and JSON body. */
async function refusalOf(verdict: Response): Promise<RouteDecision> {
  const headers: Record<string, string> = {};
  for (const [name, value] of verdict.headers) if (name !== "content-type" && name !== "content-length") headers[name] = value;
  return { kind: "answer", status: verdict.status, body: await verdict.json(), headers, close: true };
}
