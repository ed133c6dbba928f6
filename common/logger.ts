/**
 * Structured logging: one JSON object per line on standard error.
 *
 * Standard output is reserved for protocol messages (MCP over stdio), so nothing here may write to it.
 * Callers pass an event name and plain fields; they never pass tokens or secrets (the token manager
 * and stores log only non-secret facts such as expiry times and store descriptions).
 */
import type { LineSink } from "../tools/batched-line-writer.ts";

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Logger {
  debug(event: string, fields?: Record<string, unknown>): void;
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

const levelRank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function isLogLevel(value: string | undefined): value is LogLevel {
  return value !== undefined && value in levelRank;
}

/**
 * A logger that writes `{"time","level","event",...fields}` lines to `sink` (standard error by default).
 * A sink that batches lines (tools/batched-line-writer.ts) is flushed after every warning and error.
 */
export function createJsonLogger(
  sink: LineSink & { flush?(): void } = process.stderr,
  minimumLevel: LogLevel = "info",
  baseFields: Record<string, unknown> = {},
): Logger {
  const write = (level: LogLevel, event: string, fields?: Record<string, unknown>): void => {
    if (levelRank[level] < levelRank[minimumLevel]) return;
    const line = { time: new Date().toISOString(), level, event, ...baseFields, ...fields };
    sink.write(`${JSON.stringify(line, replaceErrors)}\n`);
    if (levelRank[level] >= levelRank.warn) sink.flush?.();
  };
  return {
    debug: (event, fields) => write("debug", event, fields),
    info: (event, fields) => write("info", event, fields),
    warn: (event, fields) => write("warn", event, fields),
    error: (event, fields) => write("error", event, fields),
  };
}

/** Errors serialise as their name and message only: stack traces stay out of logs read by operators. */
function replaceErrors(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (typeof value === "bigint") return value.toString();
  return value;
}

const ignore = (): void => {};
export const silentLogger: Logger = { debug: ignore, info: ignore, warn: ignore, error: ignore };
