/**
 * The core's structured logger written through the host's plugin logger, so the plugin's lines land in
 * the gateway's own log (file and console) under the plugin's scope. Each line is one JSON object
 * `{"event", ...fields}`; the core never passes tokens or secrets in fields. Errors become their name
 * and message only.
 */
import type { Logger } from "../common/logger.ts";
import type { HostLogger } from "./host-api.ts";

export function loggerOverHost(host: HostLogger): Logger {
  const line = (event: string, fields?: Record<string, unknown>): string =>
    JSON.stringify({ event, ...fields }, (_key, value: unknown) => {
      if (value instanceof Error) return { name: value.name, message: value.message };
      if (typeof value === "bigint") return value.toString();
      return value;
    });
  return {
    // Hosts may leave out debug; then debug lines are dropped rather than raised to info.
    debug: (event, fields) => host.debug?.(line(event, fields)),
    info: (event, fields) => host.info(line(event, fields)),
    warn: (event, fields) => host.warn(line(event, fields)),
    error: (event, fields) => host.error(line(event, fields)),
  };
}
