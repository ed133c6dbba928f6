/**
 * Who this deployment serves, held at every step: the athletes in MCP_ATHLETES, or else its owner (the
 * first athlete to sign in, claimed once; only on a loopback server, start-oauth-mode.ts). An athlete is
 * checked when they sign in (the Strava callback), when their client refreshes, and on every request to
 * /mcp: one no longer admitted is refused at once and their grants here are revoked.
 *
 * Their Strava tokens stay for a grace period (`unadmittedGraceMs`, grace-period.ts), so that a typo in MCP_ATHLETES at one
 * restart costs the athletes a new sign-in, not their Strava authorization; every start logs who is
 * waiting and until when. After it, the tokens are revoked at Strava and deleted. The operator's command
 * (`npm run oauth-admin -- forget <athlete>`) does it at once.
 *
 * The same grace period holds for an admitted athlete whose last grant was ended as a precaution
 * (`endGrantAsPrecaution` in grant-endings.ts: its code presented again by its own client, or a replaced refresh token used
 * again). Whoever presented it may be an attacker who wants the athlete disconnected, so only the grant
 * ends: the athlete signs in again and is served on the Strava tokens kept; one who does not sign in
 * again within the grace period is revoked at Strava and deleted at the next start.
 */
import type { Logger } from "../common/logger.ts";
import { messageOf } from "../common/named-error.ts";
import { unadmittedGraceMs, keptText } from "./grace-period.ts";
import { revokeGrantsOf } from "./grant-endings.ts";
import { storeSignal } from "./stores/authorization-stores.ts";
import type { AthleteStore } from "./stores/athlete-store.ts";
import type { GrantStore } from "./stores/grant-store.ts";

/** How long a process trusts the owner it read (the operator's reset reaches every instance within it). */
const ownerCacheMs = 30_000;

export interface AdmissionNeeds {
  athletes: Pick<AthleteStore, "owner" | "claimOwner" | "markUnadmitted">;
  grants: Pick<GrantStore, "grantsOf" | "deleteGrant">;
  logger: Logger;
  now: () => number;
  storeTimeoutMs: number;
}

export class Admission {
  readonly #listed: readonly string[] | undefined;
  readonly #needs: AdmissionNeeds;
  #owner: { athleteId: string | undefined; readAtMs: number } | undefined;

  constructor(listed: readonly string[] | undefined, needs: AdmissionNeeds) {
    this.#listed = listed;
    this.#needs = needs;
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
    return this.#listed === undefined && (await this.#needs.athletes.owner(signal)) === undefined;
  }

  /** At sign-in: whether the athlete is served, claiming the ownership for them when nobody holds it. */
  async admits(athleteId: string, signal: AbortSignal): Promise<boolean> {
    if (this.#listed) return this.#listed.includes(athleteId);
    const owner = await this.#needs.athletes.claimOwner(athleteId, signal);
    this.#owner = { athleteId: owner, readAtMs: this.#needs.now() };
    return owner === athleteId;
  }

  /** Whether the athlete is served now (nothing is claimed). */
  async isAdmitted(athleteId: string, signal: AbortSignal): Promise<boolean> {
    if (this.#listed) return this.#listed.includes(athleteId);
    if (this.#owner === undefined || this.#needs.now() - this.#owner.readAtMs > ownerCacheMs) {
      this.#owner = { athleteId: await this.#needs.athletes.owner(signal), readAtMs: this.#needs.now() };
    }
    return this.#owner.athleteId === athleteId;
  }

  /**
   * For a client presenting a grant of the athlete: true while the athlete is admitted; otherwise their
   * grants here are revoked, the time is recorded (the grace period starts), and false.
   */
  async stillAdmits(athleteId: string): Promise<boolean> {
    const needs = this.#needs;
    if (await this.isAdmitted(athleteId, storeSignal(needs.storeTimeoutMs))) return true;
    await revokeGrantsOf(athleteId, needs);
    const since = await needs.athletes.markUnadmitted(athleteId, needs.now(), storeSignal(needs.storeTimeoutMs));
    needs.logger.warn("athlete_not_admitted", {
      athlete: athleteId,
      admitted: this.describe,
      message: `Athlete ${athleteId} is no longer served here: their grants were revoked. ${waitingText(athleteId, since)}`,
    });
    return false;
  }
}

export interface ReconcileNeeds {
  athletes: Pick<AthleteStore, "storedAthletes" | "clearUnadmitted" | "markUnadmitted" | "clearGrantsEnded">;
  grants: Pick<GrantStore, "grantsOf" | "deleteGrant">;
  /** Revokes the athlete's Strava grant and deletes everything stored for them (disconnect-athlete.ts). */
  disconnect: (athleteId: string, why: string) => Promise<void>;
  logger: Logger;
  now: () => number;
  storeTimeoutMs: number;
}

/**
 * At start: every stored athlete no longer admitted has their grants revoked and is said to be waiting (with
 * the date their tokens go); one whose grace period is over is disconnected (revoked at Strava, deleted); one
 * admitted again is taken off the list. A store that cannot be read does not stop the start.
 */
export async function reconcileAdmission(admission: Admission, needs: ReconcileNeeds): Promise<void> {
  let athletes;
  try {
    athletes = await needs.athletes.storedAthletes(storeSignal(needs.storeTimeoutMs));
  } catch (error) {
    needs.logger.warn("admission_unchecked", {
      message: `Could not list the stored athletes to check who is still admitted: ${messageOf(error)}`,
    });
    return;
  }
  for (const { athleteId, unadmittedSinceMs, grantsEndedAtMs } of athletes) {
    try {
      if (await admission.isAdmitted(athleteId, storeSignal(needs.storeTimeoutMs))) {
        if (unadmittedSinceMs !== undefined) {
          await needs.athletes.clearUnadmitted(athleteId, storeSignal(needs.storeTimeoutMs));
          needs.logger.info("athlete_admitted_again", { athlete: athleteId });
        }
        if (grantsEndedAtMs !== undefined) await reconcileEndedGrants(athleteId, grantsEndedAtMs, needs);
        continue;
      }
      const since = unadmittedSinceMs ?? (await needs.athletes.markUnadmitted(athleteId, needs.now(), storeSignal(needs.storeTimeoutMs)));
      await revokeGrantsOf(athleteId, needs);
      if (needs.now() - since >= unadmittedGraceMs) {
        await needs.disconnect(athleteId, "they were no longer admitted for the whole grace period");
        continue;
      }
      needs.logger.warn("athlete_waiting", {
        athlete: athleteId,
        admitted: admission.describe,
        message: waitingText(athleteId, since),
      });
    } catch (error) {
      needs.logger.warn("admission_unchecked", { athlete: athleteId, message: messageOf(error) });
    }
  }
}

/** At start, for an admitted athlete whose grants ended as a precaution: signed in again, still waiting, or gone. */
async function reconcileEndedGrants(athleteId: string, endedAtMs: number, needs: ReconcileNeeds): Promise<void> {
  if ((await needs.grants.grantsOf(athleteId, storeSignal(needs.storeTimeoutMs))).length > 0) {
    await needs.athletes.clearGrantsEnded(athleteId, storeSignal(needs.storeTimeoutMs));
    return;
  }
  if (needs.now() - endedAtMs >= unadmittedGraceMs) {
    await needs.disconnect(athleteId, "their grants ended as a precaution and they did not sign in again within the grace period");
    return;
  }
  needs.logger.warn("athlete_waiting", {
    athlete: athleteId,
    message: `Every grant of athlete ${athleteId} here ended as a precaution at ${new Date(endedAtMs).toISOString()}. ${keptText(athleteId, endedAtMs, "unless they sign in again before")}`,
  });
}

function waitingText(athleteId: string, sinceMs: number): string {
  return keptText(athleteId, sinceMs, "unless MCP_ATHLETES admits them again before");
}
