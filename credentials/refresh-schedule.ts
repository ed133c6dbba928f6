/**
 * When a process refreshes an access token: 5 minutes before it expires (the margin), and, so that
 * processes sharing one store do not all come due in the same second with the same refresh token, each
 * process draws its own moment at random up to 5 more minutes earlier, afresh for every token it takes
 * on. Never later than the margin. For short-lived tokens the spread is at most half the time left
 * before the margin, so a fresh token is never due at once.
 *
 * The first process to come due refreshes and saves; the others, coming due later, read the store first
 * and take its newer token instead of spending the refresh token again (credentials/token-manager.ts).
 */
export interface RefreshSchedule {
  marginMs: number;
  spreadMs: number;
  random: () => number;
}

export const defaultRefreshMarginSeconds = 300;
export const defaultRefreshSpreadSeconds = 300;

/** Epoch ms from which a token expiring at `expiresAt` (epoch s) is refreshed by this process. */
export function refreshDueAt(expiresAt: number, nowMs: number, schedule: RefreshSchedule): number {
  const latest = expiresAt * 1000 - schedule.marginMs;
  const spread = Math.max(0, Math.min(schedule.spreadMs, (latest - nowMs) / 2));
  return latest - schedule.random() * spread;
}

/** Whether a stored token is still worth taking on: more than the margin left (the spread is this process's own). */
export function outlivesMargin(expiresAt: number, nowMs: number, schedule: RefreshSchedule): boolean {
  return expiresAt * 1000 - nowMs > schedule.marginMs;
}
