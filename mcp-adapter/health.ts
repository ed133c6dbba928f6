/**
 * The body of `GET /health`, built per request in this one place (what an operator's probe or a load
 * balancer reads): the server's name and version and which upstream it serves.
 */
import type { ServerIdentity } from "./server-identity.ts";
import type { UpstreamKind } from "./upstream-choice.ts";

export interface HealthFacts {
  identity: ServerIdentity;
  upstream: UpstreamKind;
}

export function healthBody(facts: HealthFacts): Record<string, unknown> {
  return { status: "ok", name: facts.identity.name, version: facts.identity.version, upstream: facts.upstream };
}
