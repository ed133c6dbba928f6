/**
 * The answer to `GET /health`, built per request in this one place (what an operator's probe or a load
 * balancer reads): the server's name and version, which upstream it serves and, from the core, whether
 * the stored credentials work (a dead refresh token answers 503: credentials/credential-health.ts says why).
 */
import { healthAnswer, type HealthAnswer } from "../../credentials/credential-health.ts";
import type { CredentialHealth } from "../../credentials/token-manager.ts";
import type { ServerIdentity } from "../server-identity.ts";
import type { UpstreamKind } from "../upstream-choice.ts";

export interface HealthFacts {
  identity: ServerIdentity;
  upstream: UpstreamKind;
  /** The stored credentials' state (TokenManager.health()). */
  credentials: () => Promise<CredentialHealth>;
}

export async function healthBody(facts: HealthFacts): Promise<HealthAnswer> {
  return healthAnswer({ name: facts.identity.name, version: facts.identity.version, upstream: facts.upstream }, await facts.credentials());
}
