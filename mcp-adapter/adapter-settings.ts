/**
 * The MCP server's own settings: where to listen, the bearer token, the log level and the transport, read
 * through the settings inventory (common/settings/server-variables.ts), whose messages name the variable
 * and a fix. The usage text is in usage-text.ts, loaded only when asked for.
 */
import type { LogLevel } from "../common/logger.ts";
import { readSetting, type Environment } from "../common/settings/setting.ts";
import { authToken, host as hostSetting, logLevel, port as portSetting } from "../common/settings/server-variables.ts";
import { StartupError } from "./startup-error.ts";

export interface HttpSettings {
  host: string;
  /** 0 picks a free port (it is logged in the `listening` line). */
  port: number;
  /** undefined: the one kept in the config directory (auth-token.ts). */
  authToken: string | undefined;
  /** Host header names accepted (DNS rebinding protection), or undefined when bound beyond loopback. */
  allowedHostnames: string[] | undefined;
  /** Host names accepted in an Origin header (sent by browsers): loopback pages only, wherever the server is bound. */
  allowedOriginHostnames: string[];
}

export const defaultHost = "127.0.0.1";
export const defaultPort = 3000;

export type TransportMode = "http" | "stdio";

/** What the command line asks for: a transport, or just the usage text (usage-text.ts) or the version. */
export type CommandLine = { run: TransportMode } | { print: "help" | "version" };

export function commandFromArgs(args: readonly string[]): CommandLine {
  if (args.includes("--help") || args.includes("-h")) return { print: "help" };
  if (args.includes("--version")) return { print: "version" };
  const unknown = args.filter((arg) => arg !== "--stdio");
  if (unknown.length > 0) {
    throw new StartupError(
      `Unknown argument ${unknown.map((arg) => `"${arg}"`).join(", ")}. Use no argument for HTTP, --stdio for stdio, or --help.`,
    );
  }
  return { run: args.includes("--stdio") ? "stdio" : "http" };
}

export function logLevelFromEnv(env: Environment): LogLevel {
  return readSetting(env, logLevel);
}

export function httpSettingsFromEnv(env: Environment): HttpSettings {
  const host = readSetting(env, hostSetting);
  const port = readSetting(env, portSetting) ?? defaultPort;
  return {
    host,
    port,
    authToken: readSetting(env, authToken),
    allowedHostnames: loopbackHostnames(host),
    allowedOriginHostnames: ["localhost", "127.0.0.1", "[::1]"],
  };
}

/**
 * When bound to loopback only a local client can connect, but a web page can still reach it through a
 * DNS name rebound to 127.0.0.1; such requests carry the attacker's name in Host, so only loopback
 * names are accepted. Bound to other interfaces the server is meant to be reached under other names:
 * then the bearer token is the protection.
 */
function loopbackHostnames(host: string): string[] | undefined {
  const loopback = host === "localhost" || host === "::1" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
  if (!loopback) return undefined;
  const names = ["localhost", "127.0.0.1", "[::1]"];
  if (/^127\./.test(host) && !names.includes(host)) names.push(host);
  return names;
}
