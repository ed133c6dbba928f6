/**
 * How grants end, short of deleting the athlete: all of an athlete's at once (no longer admitted, or Strava
 * refused their refresh token), one as a precaution (its code presented again by its own client, or a replaced
 * refresh token used again: admission.ts says why their Strava tokens then wait out the grace period), and one
 * its client revoked (the athlete's last: they are disconnected).
 */
import type { Logger } from "../common/logger.ts";
import { storeSignal } from "./stores/authorization-stores.ts";
import type { AthleteStore } from "./stores/athlete-store.ts";
import type { GrantStore } from "./stores/grant-store.ts";
import { keptText } from "./grace-period.ts";

/** Ends the athlete's grants here, keeping their Strava tokens (the grace period decides about those). */
export async function revokeGrantsOf(
  athleteId: string,
  needs: { grants: Pick<GrantStore, "grantsOf" | "deleteGrant">; storeTimeoutMs: number },
): Promise<number> {
  const grants = await needs.grants.grantsOf(athleteId, storeSignal(needs.storeTimeoutMs));
  for (const grant of grants) await needs.grants.deleteGrant(grant.grant_id, storeSignal(needs.storeTimeoutMs));
  return grants.length;
}

/**
 * Ends a grant whose tokens can no longer be trusted; the client must sign in again. When it was the
 * athlete's last, their Strava tokens wait out the grace period (admission.ts's header says why).
 */
export async function endGrantAsPrecaution(
  grantId: string,
  why: string,
  needs: {
    grants: Pick<GrantStore, "grantsOf" | "deleteGrant">;
    athletes: Pick<AthleteStore, "markGrantsEnded">;
    logger: Logger;
    now: () => number;
    storeTimeoutMs: number;
  },
): Promise<void> {
  const removed = await needs.grants.deleteGrant(grantId, storeSignal(needs.storeTimeoutMs));
  if (removed === undefined) return;
  const athleteId = removed.athlete_id;
  if ((await needs.grants.grantsOf(athleteId, storeSignal(needs.storeTimeoutMs))).length > 0) return;
  const at = needs.now();
  await needs.athletes.markGrantsEnded(athleteId, at, storeSignal(needs.storeTimeoutMs));
  needs.logger.warn("athlete_grants_ended", {
    athlete: athleteId,
    message: `Every grant of athlete ${athleteId} here ended as a precaution (${why}). ${keptText(athleteId, at, "unless they sign in again before")}`,
  });
}

/** Ends a grant its client revoked; when it was the athlete's last, disconnects the athlete (Strava revoke, data deleted). */
export async function removeGrant(
  grantId: string,
  needs: {
    grants: Pick<GrantStore, "grantsOf" | "deleteGrant">;
    disconnect: (athleteId: string, why: string, options: { revokeAtStrava: boolean }) => Promise<void>;
    storeTimeoutMs: number;
  },
): Promise<void> {
  const removed = await needs.grants.deleteGrant(grantId, storeSignal(needs.storeTimeoutMs));
  if (removed === undefined) return;
  const left = await needs.grants.grantsOf(removed.athlete_id, storeSignal(needs.storeTimeoutMs));
  if (left.length === 0) await needs.disconnect(removed.athlete_id, "their last grant ended", { revokeAtStrava: true });
}
