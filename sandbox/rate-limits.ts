/**
 * Strava's two rate limits, per application: overall (every request) and read (GET requests only),
 * each counted over a 15-minute window (resetting at :00, :15, :30, :45) and a day (resetting at
 * midnight UTC), both by the sandbox's clock. Every answer carries the four headers as "15min,daily";
 * past a limit the answer is 429 with a Fault and no Retry-After, as on Strava. Requests over the limit
 * still count, so hammering keeps a client locked out until the window turns.
 */
import { stravaPublishedRateLimits } from "../common/settings/strava-variables.ts";

export type LimitPair = [fifteenMinutes: number, daily: number];

export interface RateLimitSettings {
  overall: LimitPair;
  read: LimitPair;
}

export const stravaDefaultLimits: RateLimitSettings = stravaPublishedRateLimits;

const quarterMs = 15 * 60_000;
const dayMs = 86_400_000;

export interface RateLimitVerdict {
  headers: Record<string, string>;
  /** Which limit the request broke, if any. */
  exceeded: "overall" | "read" | null;
}

export class RateLimiter {
  private quarter = -1;
  private day = -1;
  private overallQuarter = 0;
  private overallDay = 0;
  private readQuarter = 0;
  private readDay = 0;

  private readonly limits: RateLimitSettings;
  private readonly clock: () => number;

  constructor(limits: RateLimitSettings, clock: () => number) {
    this.limits = limits;
    this.clock = clock;
  }

  /** Counts one API request and says whether it is over a limit. */
  record(isRead: boolean): RateLimitVerdict {
    this.roll();
    this.overallQuarter++;
    this.overallDay++;
    if (isRead) {
      this.readQuarter++;
      this.readDay++;
    }
    const overallOver = this.overallQuarter > this.limits.overall[0] || this.overallDay > this.limits.overall[1];
    const readOver = isRead && (this.readQuarter > this.limits.read[0] || this.readDay > this.limits.read[1]);
    return { headers: this.headers(), exceeded: overallOver ? "overall" : readOver ? "read" : null };
  }

  /** The headers as they stand, without counting (for answers that are not API requests). */
  headers(): Record<string, string> {
    this.roll();
    return {
      "X-RateLimit-Limit": `${this.limits.overall[0]},${this.limits.overall[1]}`,
      "X-RateLimit-Usage": `${this.overallQuarter},${this.overallDay}`,
      "X-ReadRateLimit-Limit": `${this.limits.read[0]},${this.limits.read[1]}`,
      "X-ReadRateLimit-Usage": `${this.readQuarter},${this.readDay}`,
    };
  }

  private roll(): void {
    const now = this.clock();
    const quarter = Math.floor(now / quarterMs);
    const day = Math.floor(now / dayMs);
    if (quarter !== this.quarter) {
      this.quarter = quarter;
      this.overallQuarter = 0;
      this.readQuarter = 0;
    }
    if (day !== this.day) {
      this.day = day;
      this.overallDay = 0;
      this.readDay = 0;
    }
  }
}
