/**
 * What each athlete's calls cost of the Strava application's shared budget: their count of Strava requests in
 * the current rate-limit windows (their fair share, athlete-sessions.ts), and of the checks a deauthorization
 * event asks of Strava (a budget of their own, strava/strava-webhook.ts). Counted in the store, so every
 * instance agrees. Two backends: file-usage-store.ts and dynamodb-usage-store.ts.
 */

/** How many Strava requests one athlete may send per window (their share of the application's limits). */
export interface FairShare {
  overall: { fifteenMinute: number; daily: number };
  read: { fifteenMinute: number; daily: number };
}

export type FairShareWindow = "overall 15-minute" | "overall daily" | "read 15-minute" | "read daily";

export type FairShareVerdict = { admitted: true } | { admitted: false; window: FairShareWindow; used: number; share: number };

export interface UsageStore {
  /** Where the counts live, for messages and logs. */
  readonly description: string;
  /**
   * Counts one Strava request of the athlete against their share in the windows that contain `nowMs`,
   * unless a window's share is used up (then nothing is counted). Reads count against the read and the
   * overall limits, other requests against the overall ones, as Strava counts them.
   */
  countUpstreamRequest(athleteId: string, read: boolean, share: FairShare, nowMs: number, signal: AbortSignal): Promise<FairShareVerdict>;
  /**
   * Takes one deauthorization check of the athlete with Strava from its own budget: at most one per
   * athlete in each 15-minute window and `dailyLimit` per UTC day. False when the budget is spent.
   */
  claimDeauthorizationCheck(athleteId: string, dailyLimit: number, nowMs: number, signal: AbortSignal): Promise<boolean>;
  /** Deletes the athlete's request counts (delete-athlete.ts). */
  forgetAthlete(athleteId: string, signal: AbortSignal): Promise<void>;
}

/** The windows a request at `nowMs` falls in: a key for each, and when its count may be forgotten. */
export function fairShareWindows(nowMs: number): { quarter: string; day: string; quarterEndsMs: number; dayEndsMs: number } {
  const quarterMs = 15 * 60_000;
  const dayMs = 86_400_000;
  const quarterStart = Math.floor(nowMs / quarterMs) * quarterMs;
  const dayStart = Math.floor(nowMs / dayMs) * dayMs;
  return {
    day: new Date(dayStart).toISOString().slice(0, 10),
    quarter: String(Math.floor((nowMs - dayStart) / quarterMs)),
    quarterEndsMs: quarterStart + quarterMs,
    dayEndsMs: dayStart + dayMs,
  };
}

/** The counts kept for one athlete and one UTC day. */
export interface DailyUsage {
  overall_day: number;
  read_day: number;
  /** Per quarter-hour of the day ("0".."95"). */
  overall_quarters: Record<string, number>;
  read_quarters: Record<string, number>;
}

/** Applies one request to `usage` if every window has room; says which window is full otherwise. */
export function countInto(usage: DailyUsage, quarter: string, read: boolean, share: FairShare): FairShareVerdict {
  const checks: { window: FairShareWindow; used: number; share: number }[] = [
    { window: "overall 15-minute", used: usage.overall_quarters[quarter] ?? 0, share: share.overall.fifteenMinute },
    { window: "overall daily", used: usage.overall_day, share: share.overall.daily },
  ];
  if (read) {
    checks.push({ window: "read 15-minute", used: usage.read_quarters[quarter] ?? 0, share: share.read.fifteenMinute });
    checks.push({ window: "read daily", used: usage.read_day, share: share.read.daily });
  }
  const full = checks.find((check) => check.used >= check.share);
  if (full) return { admitted: false, ...full };
  usage.overall_day += 1;
  usage.overall_quarters[quarter] = (usage.overall_quarters[quarter] ?? 0) + 1;
  if (read) {
    usage.read_day += 1;
    usage.read_quarters[quarter] = (usage.read_quarters[quarter] ?? 0) + 1;
  }
  return { admitted: true };
}

export function emptyUsage(): DailyUsage {
  return { overall_day: 0, read_day: 0, overall_quarters: {}, read_quarters: {} };
}
