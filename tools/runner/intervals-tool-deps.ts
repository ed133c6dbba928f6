/**
 * intervals.icu's side of the tools' dependencies (tools/runner/tool-deps.ts): its client with the athlete's
 * API key (intervals/intervals-client.ts: HTTP Basic, paced to intervals.icu's limit), the key's health learnt
 * from the answers it gets (credentials/api-key-health.ts), and the athlete: the id from the settings and their
 * local date from the time zone intervals.icu holds for them, read once per process (intervals/athlete-time-zone.ts).
 * No request is sent here: a wrong key does not stop anything starting, and the first call says what is wrong.
 */
import type { Logger } from "../../common/logger.ts";
import { createHttpSender, type SendHttp } from "../../common/upstream/http-exchange.ts";
import type { TrainingLogClient } from "../../common/upstream/training-log-client.ts";
import { ApiKeyHealth } from "../../credentials/api-key-health.ts";
import { AthleteTimeZone } from "../../intervals/athlete-time-zone.ts";
import { IntervalsClient } from "../../intervals/intervals-client.ts";
import type { IntervalsSettings } from "../../intervals/intervals-settings.ts";
import type { RequestPacer } from "../../intervals/request-pacer.ts";
import type { LogAthlete, ToolDeps } from "./tool-deps.ts";

export interface IntervalsToolDeps extends ToolDeps {
  readonly log: "intervals.icu";
  client: TrainingLogClient;
  athlete: Required<LogAthlete>;
  credentials: ApiKeyHealth;
}

export interface IntervalsToolDepsOptions {
  settings: Omit<IntervalsSettings, "timeoutMs"> & { timeoutMs?: number };
  /** What to do when intervals.icu refuses the key, for the health check: where it is set and how to change it (never the key). */
  keyAdvice: string;
  logger: Logger;
  /** The network seam (default: undici). */
  http?: SendHttp;
  /** Clock in epoch milliseconds ("today" is the athlete's date at this instant). */
  now?: () => number;
  /** The rate-limit pacer (default: intervals.icu's 10 a second); one per process. */
  pacer?: RequestPacer;
}

export function createIntervalsToolDeps(options: IntervalsToolDepsOptions): IntervalsToolDeps {
  const now = options.now ?? Date.now;
  const raw = new IntervalsClient({
    settings: options.settings,
    logger: options.logger,
    http: options.http ?? createHttpSender(),
    ...(options.pacer ? { pacer: options.pacer } : {}),
  });
  const credentials = new ApiKeyHealth({ refusedMessage: options.keyAdvice, now });
  const client = credentials.observe(raw);
  const timeZone = new AthleteTimeZone(client, raw.athleteId);
  const athlete: Required<LogAthlete> = {
    id: async () => raw.athleteId,
    today: (nowMs, signal) => timeZone.today(nowMs, signal),
    timeZone: (signal) => timeZone.zone(signal),
  };
  return { log: "intervals.icu", client, athlete, credentials, logger: options.logger, now };
}
