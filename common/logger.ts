/**
 * The one structured logger of every part (the core, the MCP server, the plugin through the host's logger,
 * the voice Lambdas): pino, writing one JSON object per line,
 * `{"level":"info","time":"<ISO 8601>",<base fields>,<fields>,"event":"tool_call"}`.
 *
 * Callers pass an event name and plain fields (`logger.info("tool_call", { tool, ms })`) and never a token,
 * a secret or the voice API's dictated text. As a second line of defence, fields named like a secret
 * (`secretFieldNames`, at the top level or one level down) are written as "[redacted]" by pino's redaction, unless
 * their value is a number or a boolean, which no secret is (a JSON-RPC error `code`).
 * Errors in an `error` or `err` field are written as their name and message only: stack traces stay out of
 * logs that operators read.
 *
 * Where lines go: the MCP server's standard error (`stderrLogDestination`: pino's asynchronous destination, or
 * plain writes when standard error is a file), the host's logger (plugin/host-logger.ts), or, for the voice Lambdas,
 * `process.stderr` line by line (`synchronousStderrLogger`). Standard output is never written: it carries
 * the MCP protocol over stdio.
 */
import { fstatSync } from "node:fs";
import { pino, stdTimeFunctions, type DestinationStream } from "pino";

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Logger {
  debug(event: string, fields?: Record<string, unknown>): void;
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

const levels: readonly LogLevel[] = ["debug", "info", "warn", "error"];

export function isLogLevel(value: string | undefined): value is LogLevel {
  return levels.includes(value as LogLevel);
}

/** Where lines are written. A destination that buffers offers `flushSync`, called after every warning and error. */
export interface LogDestination extends DestinationStream {
  flushSync?(): void;
}

/**
 * Field names whose values are secrets wherever a caller might put them: Strava's tokens and client secret,
 * intervals.icu's API key, an Authorization header, an OAuth code. The MCP server's bearer token is never logged at all
 * (mcp-adapter/auth-token.ts refuses to start when no file can keep a generated one).
 */
export const secretFieldNames = [
  "access_token",
  "refresh_token",
  "client_secret",
  "apiKey",
  "api_key",
  "intervals_api_key",
  "authorization",
  "Authorization",
  "code",
] as const;

/** The redacted paths: each secret's name at the top level and one level down (`headers.authorization`, `tokens.refresh_token`). */
const redactedPaths = secretFieldNames.flatMap((name) => [name, `*.${name}`]);

/**
 * What a field named like a secret is written as. Secrets are text; a number or a boolean under such a name is not
 * one (a JSON-RPC error's `code`, -32700, says what went wrong and is kept).
 */
function redactedValue(value: unknown): unknown {
  return typeof value === "number" || typeof value === "boolean" ? value : "[redacted]";
}

let sharedStderr: LogDestination | undefined;

/**
 * Standard error, one destination per process, chosen by what standard error is:
 * - a pipe, socket or terminal (an MCP client, a container runtime, journald, a person): pino's asynchronous
 *   destination. Lines written while a write is under way leave together in the next one, so a busy server
 *   makes far fewer system calls than lines, a reader that falls behind never blocks the server, and whatever
 *   is pending when the process exits (by itself or by `process.exit`) is written on the way out. Warnings
 *   and errors call its `flushSync` (see createJsonLogger);
 * - a regular file (`npm start 2>> server.log`, nohup, a unit's `StandardError=file:`): every line written at
 *   once with one plain write, and no `flushSync`. A file never makes a writer wait for a reader, so there is
 *   nothing to batch, and sonic-boom's `flushSync` ends with an fsync: a flush to the disk after every warning,
 *   with the event loop waiting for it (milliseconds each on an SD card).
 */
export function stderrLogDestination(): LogDestination {
  if (sharedStderr === undefined) {
    if (standardErrorIsFile()) {
      const file = pino.destination({ dest: 2, sync: true });
      sharedStderr = { write: (line: string) => file.write(line) };
    } else {
      sharedStderr = pino.destination({ dest: 2, sync: false });
    }
  }
  return sharedStderr;
}

function standardErrorIsFile(): boolean {
  try {
    return fstatSync(2).isFile();
  } catch {
    return false;
  }
}

/**
 * A logger writing to `destination` at `minimumLevel` and above, with `baseFields` (such as
 * `{ service: "mcp" }`) on every line. Warnings and errors are written at once, with every line before them
 * (the line that explains a crash is out before the crash).
 */
export function createJsonLogger(
  destination: LogDestination = stderrLogDestination(),
  minimumLevel: LogLevel = "info",
  baseFields: Record<string, unknown> = {},
): Logger {
  const log = pino(
    {
      level: minimumLevel,
      base: Object.keys(baseFields).length > 0 ? baseFields : null,
      messageKey: "event",
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { error: errorFields, err: errorFields },
      redact: { paths: redactedPaths, censor: redactedValue },
    },
    destination,
  );
  const flush = (): void => destination.flushSync?.();
  const write = (level: LogLevel, event: string, fields: Record<string, unknown> | undefined): void => {
    if (fields === undefined) log[level](event);
    else log[level](fields, event);
  };
  return {
    debug: (event, fields) => write("debug", event, fields),
    info: (event, fields) => write("info", event, fields),
    warn: (event, fields) => {
      write("warn", event, fields);
      flush();
    },
    error: (event, fields) => {
      write("error", event, fields);
      flush();
    },
  };
}

/**
 * A logger for a Lambda function (and the voice API's local gateway): each line written to `process.stderr`
 * before the call returns (synchronous for files and pipes on Linux), because Lambda may freeze the process as
 * soon as the handler returns, with a buffered line still in it.
 */
export function synchronousStderrLogger(service: string, minimumLevel: LogLevel = "info"): Logger {
  return createJsonLogger(process.stderr, minimumLevel, { service });
}

/** An Error as its name and message; anything else as it is. */
function errorFields(value: unknown): unknown {
  return value instanceof Error ? { name: value.name, message: value.message } : value;
}

const ignore = (): void => {};
export const silentLogger: Logger = { debug: ignore, info: ignore, warn: ignore, error: ignore };
