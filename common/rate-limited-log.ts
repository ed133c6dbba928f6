/**
 * A log event that a hostile or broken client can repeat thousands of times a second (a wrong bearer
 * token, a dropped connection): the first occurrence in a quiet period is logged at once with its
 * details, so an operator fixing a client sees it immediately; the rest are counted and logged as one
 * line per interval (`repeated`, by reason), not a line each. Logging every occurrence would let the
 * client fill the disk and slow every other request with synchronous writes.
 */
import type { Logger } from "./logger.ts";

export interface RateLimitedLog {
  /** One occurrence; `reason` groups the counts in the summary line. */
  record(reason: string, fields?: Record<string, unknown>): void;
  /** Logs what is still counted (at shutdown) and stops the timer. */
  flush(): void;
}

export const defaultSummaryIntervalMs = 60_000;

export function createRateLimitedLog(options: {
  logger: Logger;
  event: string;
  level?: "info" | "warn";
  intervalMs?: number;
  /** Log the first occurrence of each reason in a quiet period in full, not only the first of all. */
  firstOfEachReason?: boolean;
}): RateLimitedLog {
  const { logger, event } = options;
  const level = options.level ?? "info";
  const intervalMs = options.intervalMs ?? defaultSummaryIntervalMs;
  let counts = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  const logged = new Set<string>();

  const summarize = (): void => {
    timer = undefined;
    logged.clear();
    if (counts.size === 0) return;
    const repeated = Object.fromEntries(counts);
    counts = new Map();
    logger[level](event, { repeated, interval_s: intervalMs / 1000, message: "counted since the last line instead of logged one by one" });
    // Still busy: keep counting for another interval instead of logging the next one in full.
    timer = setTimeout(summarize, intervalMs).unref();
  };

  return {
    record(reason, fields) {
      if (timer === undefined || (options.firstOfEachReason === true && !logged.has(reason))) {
        logger[level](event, { reason, ...fields });
        logged.add(reason);
        timer ??= setTimeout(summarize, intervalMs).unref();
        return;
      }
      counts.set(reason, (counts.get(reason) ?? 0) + 1);
    },
    flush() {
      if (timer !== undefined) clearTimeout(timer);
      summarize();
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
