// Structured logs: one JSON object per line on standard error (CloudWatch keeps Lambda's stderr). Callers
// pass fields, never secrets: no tokens, and no dictated text (it is personal).

export type LogLevel = "debug" | "info" | "warn" | "error";

export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

function write(level: LogLevel, component: string, message: string, fields: LogFields = {}): void {
  const line = { time: new Date().toISOString(), level, component, msg: message, ...fields };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}

/** A logger whose lines carry `component` (e.g. "voice-authorizer"). */
export function stderrLogger(component: string): Logger {
  return {
    info: (message, fields) => write("info", component, message, fields),
    warn: (message, fields) => write("warn", component, message, fields),
    error: (message, fields) => write("error", component, message, fields),
  };
}
