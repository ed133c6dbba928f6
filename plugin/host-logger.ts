/**
 * The core's logger (common/logger.ts, the same line format and redaction as everywhere) written through
 * the host's plugin logger, so the plugin's lines land in the gateway's own log (file and console) under
 * the plugin's scope: each line goes to the host method of its level (pino's multistream picks it).
 */
import { multistream, type StreamEntry } from "pino";
import { createJsonLogger, type Logger, type LogLevel } from "../common/logger.ts";
import type { HostLogger } from "./host-api.ts";

export function loggerOverHost(host: HostLogger): Logger {
  const to = (level: LogLevel, send: ((message: string) => void) | undefined): StreamEntry<LogLevel> => ({
    level,
    // Hosts may leave out debug; then debug lines are dropped rather than raised to info.
    stream: { write: (line: string) => send?.(line.trimEnd()) },
  });
  const byLevel = multistream([to("debug", host.debug), to("info", host.info), to("warn", host.warn), to("error", host.error)], {
    dedupe: true,
  });
  return createJsonLogger(byLevel, "debug");
}
