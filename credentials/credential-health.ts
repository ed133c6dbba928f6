/**
 * The answer of a health check (the MCP server's `GET /health`) from the server's identity and the state of
 * the stored credentials (TokenManager.health()).
 *
 * - `ok` (200): the credentials work, or nothing has been tried yet.
 * - `degraded` (200): calls may still work, but the operator should look: new tokens are held in memory
 *   because the store refused them, or the store could not be read.
 * - `needs_authorization` / `application_inactive` (503): no call can succeed until a person acts (run
 *   `npm run authorize`; renew the Strava subscription). A load balancer taking the instance out of
 *   service loses nothing: every instance sharing the store is in the same state. A liveness probe
 *   should not restart on it (a restart does not help); point it at the process, not at this answer.
 */
import type { CredentialHealth } from "./token-manager.ts";

export interface HealthAnswer {
  httpStatus: number;
  body: Record<string, unknown>;
}

export function healthAnswer(identity: Record<string, unknown>, credentials: CredentialHealth | undefined): HealthAnswer {
  if (credentials === undefined) return { httpStatus: 200, body: { status: "ok", ...identity } };
  const { state } = credentials;
  const status =
    state === "needs_authorization" || state === "application_inactive"
      ? state
      : state === "unsaved" || state === "store_unavailable"
        ? "degraded"
        : "ok";
  const httpStatus = state === "needs_authorization" || state === "application_inactive" ? 503 : 200;
  return { httpStatus, body: { status, ...identity, credentials } };
}
