/**
 * Deletes everything stored for an athlete, concern by concern: their grants and codes first (so nothing of theirs
 * is served from here on), then their request counts, then their Strava tokens and marks, which takes them off
 * the stored athletes. What the athlete's Strava grant becomes is the caller's (disconnect-athlete.ts).
 */
import type { AuthorizationStores } from "./authorization-stores.ts";

export async function deleteAthlete(
  stores: Pick<AuthorizationStores, "grants" | "usage" | "athletes">,
  athleteId: string,
  signal: AbortSignal,
): Promise<void> {
  await stores.grants.forgetAthlete(athleteId, signal);
  await stores.usage.forgetAthlete(athleteId, signal);
  await stores.athletes.forgetAthlete(athleteId, signal);
}
