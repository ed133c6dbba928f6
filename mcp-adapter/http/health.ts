/**
 * The answer to `GET /health`, built per request in this one place (what an operator's probe or a load
 * balancer reads): the server's name and version, what answers its tools (`upstream`: "strava", "intervals.icu",
 * or "sandbox" whichever log the built-in sandbox plays, and then which: `trainingLog`) and, from the
 * core, whether the credentials work (a dead refresh token or a refused API key answers 503:
 * credentials/credential-health.ts says why).
 */
import { healthAnswer, type HealthAnswer } from "../../credentials/credential-health.ts";
import type { CredentialHealth } from "../../credentials/credential-upkeep.ts";
import type { TrainingLog } from "../../common/upstream/training-log-client.ts";
import type { ServerIdentity } from "../server-identity.ts";
import type { UpstreamKind } from "../upstream-choice.ts";

export interface HealthFacts {
  identity: ServerIdentity;
  upstream: UpstreamKind;
  /** The training log served (said in the answer when the sandbox plays it); absent where only Strava is served (OAuth mode). */
  log?: TrainingLog;
  /** The credentials' state (the tools' dependencies' `credentials.health()`). */
  credentials: () => Promise<CredentialHealth>;
}

export async function healthBody(facts: HealthFacts): Promise<HealthAnswer> {
  const identity = { name: facts.identity.name, version: facts.identity.version, upstream: facts.upstream };
  // The built-in sandbox plays either log: which one is said beside it (a real upstream's name is its log already).
  const played = facts.upstream === "sandbox" && facts.log !== undefined ? { trainingLog: facts.log } : {};
  return healthAnswer({ ...identity, ...played }, await facts.credentials());
}
