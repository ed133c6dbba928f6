/**
 * The rate-limited logs the HTTP edge's steps count refusals in (common/rate-limited-log.ts), the real ones, on a
 * logger whose lines the test reads: `events(name)` parses them.
 */
import { createRateLimitedLog, type RateLimitedLog } from "../../common/rate-limited-log.ts";
import { capturingLogger } from "./core-harness.ts";
import type { Logger } from "../../common/logger.ts";

export interface RefusalLogs {
  forbidden: RateLimitedLog;
  unauthorized: RateLimitedLog;
  logger: Logger;
  lines: string[];
  /** The lines of one event, parsed. */
  events(event: string): Record<string, unknown>[];
}

export function refusalLogs(): RefusalLogs {
  const { logger, lines } = capturingLogger();
  return {
    forbidden: createRateLimitedLog({ logger, event: "http_forbidden", level: "warn" }),
    unauthorized: createRateLimitedLog({ logger, event: "http_unauthorized" }),
    logger,
    lines,
    events: (event) => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line["event"] === event),
  };
}

/** A request as the route table's steps see it: method, path and headers (names in lower case). */
export function edgeRequest(method: string, path: string, headers: Record<string, string> = {}) {
  return { method, path, header: (name: string) => headers[name] };
}
