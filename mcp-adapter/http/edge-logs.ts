/**
 * What the node:http edge logs about requests it refuses or cannot finish, each a line per interval with
 * counts (common/rate-limited-log.ts) rather than a line per request: anybody can send as many as they like.
 */
import type { Logger } from "../../common/logger.ts";
import { createRateLimitedLog, type RateLimitedLog } from "../../common/rate-limited-log.ts";

export interface EdgeLogs {
  /** 401: no or a wrong token. */
  unauthorized: RateLimitedLog;
  /** 403: a foreign Host or Origin. */
  forbidden: RateLimitedLog;
  /** 503: a body that waited too long for the body budget. */
  overBudget: RateLimitedLog;
  /** Requests the SDK refused (a bad protocol version, a malformed envelope): the client got the answer. */
  rejected: RateLimitedLog;
  /** Bodies that never arrived whole: the client left, or the deadline cut them. */
  incomplete: RateLimitedLog;
  /** Writes the counts still held (at shutdown). */
  flush(): void;
}

export function createEdgeLogs(logger: Logger): EdgeLogs {
  const logs = {
    unauthorized: createRateLimitedLog({ logger, event: "http_unauthorized" }),
    forbidden: createRateLimitedLog({ logger, event: "http_forbidden", level: "warn" }),
    overBudget: createRateLimitedLog({ logger, event: "http_body_budget_exhausted", level: "warn" }),
    rejected: createRateLimitedLog({ logger, event: "mcp_request_rejected" }),
    incomplete: createRateLimitedLog({ logger, event: "http_body_incomplete" }),
  };
  return {
    ...logs,
    flush: () => {
      logs.unauthorized.flush();
      logs.forbidden.flush();
      logs.overBudget.flush();
      logs.rejected.flush();
      logs.incomplete.flush();
    },
  };
}
