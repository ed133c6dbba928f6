/**
 * Who this deployment serves, held at every step: the athletes in MCP_ATHLETES, or else its owner (the
 * first athlete to sign in, claimed once; only on a loopback server, start-oauth-mode.ts). An athlete is
 * checked when they sign in (the Strava callback), when their client refreshes, and on every request to
 * /mcp: one no longer admitted is refused at once and their grants here are revoked.
 *
 * Their Strava tokens stay for a grace period (`unadmittedGraceMs`), so that a typo in MCP_ATHLETES at one
 * restart costs the athletes a new sign-in, not their Strava authorization; every start logs who is
 * waiting and until when. After it, the tokens are revoked at Strava and deleted. The operator's command
 * (`npm run oauth-admin -- forget <athlete>`) does it at once.
 *
 * The same grace period holds for an admitted athlete whose last grant was ended as a precaution
 * (`endGrantAsPrecaution`: its code presented again by its own client, or a replaced refresh token used
 * again). Whoever presented it may be an attacker who wants the athlete disconnected, so only the grant
 * ends: the athlete signs in again and is served on the Strava tokens kept; one who does not sign in
 * again within the grace period is revoked at Strava and deleted at the next start.
 */
import { storeSignal, type OAuthContext } from "./oauth-context.ts";
import type { OAuthStore } from "./stores/oauth-store.ts";
import { disconnectAthlete } from "./endpoints/revocation-endpoint.ts";
import { messageOf } from "../common/named-error.ts";

/** How long the Strava tokens of an athlete no longer admitted are kept before they are revoked and deleted. */
export const unadmittedGraceMs = 7 * 86_400_000;

/** How long a process trusts the owner it read (the operator's reset reaches every instance within it). */
const ownerCacheMs = 30_000;

export class Admission {
  readonly #listed: readonly string[] | undefined;
  readonly #store: OAuthStore;
  readonly #now: () => number;
  #owner: { athleteId: string | undefined; readAtMs: number } | undefined;

  constructor(listed: readonly string[] | undefined, store: OAuthStore, now: () => number = Date.now) {
    this.#listed = listed;
    this.#store = store;
    this.#now = now;
  }

  /** How many athletes share the application (for the fair share). */
  get size(): number {
    return this.#listed?.length ?? 1;
  }

  get describe(): string {
    return this.#listed ? `athletes ${this.#listed.join(", ")}` : "its owner (the first athlete to sign in)";
  }

  /** Whether the server serves its owner alone and nobody has signed in yet. */
  async awaitsOwner(signal: AbortSignal): Promise<boolean> {
    return this.#listed === undefined && (await this.#store.owner(signal)) === undefined;
  }

  /** At sign-in: whether the athlete is served, claiming the ownership for them when nobody holds it. */
  async admits(athleteId: string, signal: AbortSignal): Promise<boolean> {
    if (this.#listed) return this.#listed.includes(athleteId);
    const owner = await this.#store.claimOwner(athleteId, signal);
    this.#owner = { athleteId: owner, readAtMs: this.#now() };
    return owner === athleteId;
  }

  /** Whether the athlete is served now (nothing is claimed). */
  async isAdmitted(athleteId: string, signal: AbortSignal): Promise<boolean> {
    if (this.#listed) return this.#listed.includes(athleteId);
    if (this.#owner === undefined || this.#now() - this.#owner.readAtMs > ownerCacheMs) {
      this.#owner = { athleteId: await this.#store.owner(signal), readAtMs: this.#now() };
    }
    return this.#owner.athleteId === athleteId;
  }

  /**
   * For a client presenting a grant of the athlete: true while the athlete is admitted; otherwise their
   * grants here are revoked, the time is recorded (the grace period starts), and false.
   */
  async stillAdmits(athleteId: string, context: OAuthContext): Promise<boolean> {
    if (await this.isAdmitted(athleteId, storeSignal(context))) return true;
    await revokeGrantsOf(athleteId, context);
    const since = await context.store.markUnadmitted(athleteId, context.now(), storeSignal(context));
    context.logger.warn("athlete_not_admitted", {
      athlete: athleteId,
      admitted: this.describe,
      message: `Athlete ${athleteId} is no longer served here: their grants were revoked. ${waitingText(athleteId, since)}`,
    });
    return false;
  }
}

/**
 * At start: every stored athlete no longer admitted has their grants revoked and is said to be waiting (with
 * the date their tokens go); one whose grace period is over is disconnected (revoked at Strava, deleted); one
 * admitted again is taken off the list. A store that cannot be read does not stop the start.
 */
export async function reconcileAdmission(context: OAuthContext): Promise<void> {
  let athletes;
  try {
    athletes = await context.store.storedAthletes(storeSignal(context));
  } catch (error) {
    context.logger.warn("admission_unchecked", {
      message: `Could not list the stored athletes to check who is still admitted: ${messageOf(error)}`,
    });
    return;
  }
  for (const { athleteId, unadmittedSinceMs, grantsEndedAtMs } of athletes) {
    try {
      if (await context.admission.isAdmitted(athleteId, storeSignal(context))) {
        if (unadmittedSinceMs !== undefined) {
          await context.store.clearUnadmitted(athleteId, storeSignal(context));
          context.logger.info("athlete_admitted_again", { athlete: athleteId });
        }
        if (grantsEndedAtMs !== undefined) await reconcileEndedGrants(athleteId, grantsEndedAtMs, context);
        continue;
      }
      const since = unadmittedSinceMs ?? (await context.store.markUnadmitted(athleteId, context.now(), storeSignal(context)));
      await revokeGrantsOf(athleteId, context);
      if (context.now() - since >= unadmittedGraceMs) {
        await disconnectAthlete(athleteId, "they were no longer admitted for the whole grace period", context, { revokeAtStrava: true });
        continue;
      }
      context.logger.warn("athlete_waiting", {
        athlete: athleteId,
        admitted: context.admission.describe,
        message: waitingText(athleteId, since),
      });
    } catch (error) {
      context.logger.warn("admission_unchecked", { athlete: athleteId, message: messageOf(error) });
    }
  }
}

/**
 * Ends a grant whose tokens can no longer be trusted; the client must sign in again. When it was the
 * athlete's last, their Strava tokens wait out the grace period (this file's header says why).
 */
export async function endGrantAsPrecaution(
  grantId: string,
  why: string,
  context: Pick<OAuthContext, "store" | "storeTimeoutMs" | "logger" | "now">,
): Promise<void> {
  const removed = await context.store.deleteGrant(grantId, storeSignal(context));
  if (removed === undefined) return;
  const athleteId = removed.athlete_id;
  if ((await context.store.grantsOf(athleteId, storeSignal(context))).length > 0) return;
  const at = context.now();
  await context.store.markGrantsEnded(athleteId, at, storeSignal(context));
  context.logger.warn("athlete_grants_ended", {
    athlete: athleteId,
    message: `Every grant of athlete ${athleteId} here ended as a precaution (${why}). ${keptText(athleteId, at, "unless they sign in again before")}`,
  });
}

/** At start, for an admitted athlete whose grants ended as a precaution: signed in again, still waiting, or gone. */
async function reconcileEndedGrants(athleteId: string, endedAtMs: number, context: OAuthContext): Promise<void> {
  if ((await context.store.grantsOf(athleteId, storeSignal(context))).length > 0) {
    await context.store.clearGrantsEnded(athleteId, storeSignal(context));
    return;
  }
  if (context.now() - endedAtMs >= unadmittedGraceMs) {
    await disconnectAthlete(
      athleteId,
      "their grants ended as a precaution and they did not sign in again within the grace period",
      context,
      {
        revokeAtStrava: true,
      },
    );
    return;
  }
  context.logger.warn("athlete_waiting", {
    athlete: athleteId,
    message: `Every grant of athlete ${athleteId} here ended as a precaution at ${new Date(endedAtMs).toISOString()}. ${keptText(athleteId, endedAtMs, "unless they sign in again before")}`,
  });
}

/** Ends the athlete's grants here, keeping their Strava tokens (the grace period decides about those). */
export async function revokeGrantsOf(athleteId: string, context: Pick<OAuthContext, "store" | "storeTimeoutMs">): Promise<number> {
  const grants = await context.store.grantsOf(athleteId, storeSignal(context));
  for (const grant of grants) await context.store.deleteGrant(grant.grant_id, storeSignal(context));
  return grants.length;
}

function waitingText(athleteId: string, sinceMs: number): string {
  return keptText(athleteId, sinceMs, "unless MCP_ATHLETES admits them again before");
}

function keptText(athleteId: string, sinceMs: number, unless: string): string {
  const until = new Date(sinceMs + unadmittedGraceMs).toISOString();
  return (
    `Their Strava tokens are kept until ${until}, then revoked at Strava and deleted, ${unless}. ` +
    `To do it now: npm run oauth-admin -- forget ${athleteId}`
  );
}
