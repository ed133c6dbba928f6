/**
 * The MCP server's own settings: where to listen, the bearer token, the log level and the transport, read
 * through the settings inventory (common/settings/server-variables.ts), whose messages name the variable
 * and a fix. The usage text's list of variables is made from the inventory.
 */
import type { LogLevel } from "../common/logger.ts";
import { serverVariablesText } from "../common/settings/settings-reference.ts";
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

/** What the command line asks for: a transport, or just the usage text or the version. */
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

export const usage = `Usage: openclaw-fitness-mcp [--stdio]

The fitness tools, on the athlete's Strava or intervals.icu log, as an MCP server.
  (no argument)  streamable HTTP on http://HOST:PORT/mcp behind a bearer token (default 127.0.0.1:3000)
  --stdio        JSON-RPC on standard input and output, for clients that start the server themselves
  --help         this text;  --version  the version

INTERVALS_API_KEY serves the athlete's intervals.icu log; Strava's credentials, their Strava account (never both).
With none it serves a built-in sandbox (a simulated athlete; SANDBOX_FACE=intervals.icu plays intervals.icu).
MCP_AUTH=oauth: OAuth mode over HTTP, athletes sign in with Strava (for Claude's and ChatGPT's connectors).

Settings are environment variables (docs/operators/settings.md says what each does):
${serverVariablesText()}
`;

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
