/**
 * What disconnecting an athlete means here: nothing here needs their Strava tokens any more (their last grant
 * ended, Strava's deauthorization webhook, their grace period ran out, or the operator's `forget`), so their
 * Strava grant is revoked (when asked: best effort, a Strava that does not answer does not keep the data here)
 * and everything stored for them is deleted (stores/delete-athlete.ts).
 */
import type { Logger } from "../common/logger.ts";
import { messageOf } from "../common/named-error.ts";
import type { AthleteCredentialStore } from "../credentials/store-choice.ts";
import { storeSignal, type AuthorizationStores } from "./stores/authorization-stores.ts";
import { deleteAthlete } from "./stores/delete-athlete.ts";
import { revokeStravaGrant, type StravaApplication } from "./strava/strava-sign-in.ts";

export interface DisconnectNeeds {
  stores: Pick<AuthorizationStores, "grants" | "usage" | "athletes">;
  athleteCredentials: (athleteId: string) => AthleteCredentialStore;
  strava: StravaApplication;
  logger: Logger;
  /** Called once everything stored for the athlete is gone (the process drops what it holds for them). */
  onAthleteDeleted: (athleteId: string) => void;
  storeTimeoutMs: number;
}

export async function disconnectAthlete(
  athleteId: string,
  why: string,
  needs: DisconnectNeeds,
  options: { revokeAtStrava: boolean },
): Promise<void> {
  if (options.revokeAtStrava) {
    try {
      const snapshot = await needs.athleteCredentials(athleteId).load(storeSignal(needs.storeTimeoutMs));
      await revokeStravaGrant(needs.strava, snapshot.credentials.refresh_token);
    } catch (error) {
      needs.logger.warn("strava_revoke_failed", { athlete: athleteId, message: messageOf(error) });
    }
  }
  await deleteAthlete(needs.stores, athleteId, storeSignal(needs.storeTimeoutMs));
  needs.onAthleteDeleted(athleteId);
  needs.logger.info("athlete_disconnected", { athlete: athleteId, why });
}
