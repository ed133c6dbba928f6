/**
 * Strava's rate-limit headers, read into numbers and described in words for a 429 error.
 *
 * Every answer carries `X-RateLimit-Limit`/`-Usage` (all requests) and `X-ReadRateLimit-Limit`/`-Usage`
 * (reads), each "15min,daily". Windows reset at :00/:15/:30/:45 and at midnight UTC. Strava sends no
 * Retry-After, so the reset time is computed from the clock. The tool server never throttles or retries:
 * the message tells the caller when to come back.
 */
export interface WindowUsage {
  usage: number;
  limit: number;
}

export interface RateLimitState {
  overall?: { fifteenMinute: WindowUsage; daily: WindowUsage };
  read?: { fifteenMinute: WindowUsage; daily: WindowUsage };
}

/** From the answer's headers (lower-case names). */
export function readRateLimitHeaders(headers: Readonly<Record<string, string>>): RateLimitState {
  const state: RateLimitState = {};
  const overall = pairOfWindows(headers["x-ratelimit-limit"], headers["x-ratelimit-usage"]);
  if (overall) state.overall = overall;
  const read = pairOfWindows(headers["x-readratelimit-limit"], headers["x-readratelimit-usage"]);
  if (read) state.read = read;
  return state;
}

function pairOfWindows(
  limitHeader: string | undefined,
  usageHeader: string | undefined,
): { fifteenMinute: WindowUsage; daily: WindowUsage } | undefined {
  const limits = parsePair(limitHeader);
  const usages = parsePair(usageHeader);
  if (!limits || !usages) return undefined;
  return {
    fifteenMinute: { usage: usages[0], limit: limits[0] },
    daily: { usage: usages[1], limit: limits[1] },
  };
}

function parsePair(header: string | undefined): [number, number] | undefined {
  if (!header) return undefined;
  const parts = header.split(",").map((part) => Number(part.trim()));
  const [first, second] = parts;
  if (parts.length !== 2 || first === undefined || second === undefined) return undefined;
  if (!Number.isFinite(first) || !Number.isFinite(second)) return undefined;
  return [first, second];
}

/** The next quarter-hour boundary (UTC) after `nowMs`. */
export function nextFifteenMinuteReset(nowMs: number): Date {
  const quarter = 15 * 60 * 1000;
  return new Date(Math.floor(nowMs / quarter) * quarter + quarter);
}

/** The next midnight UTC after `nowMs`. */
export function nextDailyReset(nowMs: number): Date {
  const day = 24 * 60 * 60 * 1000;
  return new Date(Math.floor(nowMs / day) * day + day);
}

/**
 * Until when background reads should wait, given the usage Strava last reported (`state`, read at
 * `observedAtMs`): the next midnight UTC when `share` (0.8 = 80%) or more of the daily read limit was used,
 * else the next quarter-hour boundary when that share of the 15-minute read limit was used, else
 * undefined. A reading from a window that has since reset gives an instant already past.
 */
export function readsPausedUntil(state: RateLimitState, observedAtMs: number, share: number): number | undefined {
  const used = (window: WindowUsage | undefined): boolean =>
    window !== undefined && window.limit > 0 && window.usage >= window.limit * share;
  if (used(state.read?.daily)) return nextDailyReset(observedAtMs).getTime();
  if (used(state.read?.fifteenMinute)) return nextFifteenMinuteReset(observedAtMs).getTime();
  return undefined;
}

/**
 * A sentence for a 429: usage against each limit, which one is exhausted, and when it resets.
 * Example: "Usage: overall 15-min 201/200, daily 950/2000; read 15-min 101/100, daily 900/1000.
 * The 15-minute window is exhausted; it resets at 12:45:00 UTC (in 4 min 12 s)."
 */
export function describeRateLimit(state: RateLimitState, nowMs: number): string {
  const windows: string[] = [];
  if (state.overall) {
    windows.push(`overall 15-min ${fraction(state.overall.fifteenMinute)}, daily ${fraction(state.overall.daily)}`);
  }
  if (state.read) {
    windows.push(`read 15-min ${fraction(state.read.fifteenMinute)}, daily ${fraction(state.read.daily)}`);
  }
  const usage = windows.length > 0 ? `Usage: ${windows.join("; ")}.` : "Strava sent no rate-limit headers.";
  const dailyExhausted = [state.overall?.daily, state.read?.daily].some(isExhausted);
  const fifteenExhausted = [state.overall?.fifteenMinute, state.read?.fifteenMinute].some(isExhausted);
  const quarterReset = nextFifteenMinuteReset(nowMs);
  const dayReset = nextDailyReset(nowMs);
  let when: string;
  if (dailyExhausted) {
    when = `The daily limit is used up; it resets at midnight UTC (${dayReset.toISOString()}, in ${duration(dayReset.getTime() - nowMs)}).`;
  } else if (fifteenExhausted || windows.length === 0) {
    when = `The 15-minute window resets at ${timeOfDay(quarterReset)} UTC (in ${duration(quarterReset.getTime() - nowMs)}).`;
  } else {
    when = `The 15-minute window resets at ${timeOfDay(quarterReset)} UTC and the daily one at midnight UTC.`;
  }
  return `${usage} ${when} Space out requests; this server does not retry.`;
}

function isExhausted(window: WindowUsage | undefined): boolean {
  return window !== undefined && window.usage >= window.limit;
}

function fraction(window: WindowUsage): string {
  return `${window.usage}/${window.limit}`;
}

function timeOfDay(date: Date): string {
  return date.toISOString().slice(11, 19);
}

function duration(ms: number): string {
  const totalSeconds = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min ${seconds} s`;
  return `${seconds} s`;
}
