/** The MCP server's own settings: where it listens, its bearer token, its log level and its mode. */
import { ConfigurationError } from "../configuration-error.ts";
import { isLogLevel, type LogLevel } from "../logger.ts";
import { defineSetting, text } from "./setting.ts";
import { defaultConfigFolderText } from "./credential-variables.ts";

/** Where each server listens unless PORT and HOST say otherwise, written here only. */
export const defaultServerPort = 3000;
export const defaultSandboxPort = 8900;
export const defaultHostedPort = 8788;
export const defaultHost = "127.0.0.1";
/** The MCP server's address when neither is set (OAuth mode's issuer then, the usage text). */
export const defaultServerAddress = `${defaultHost}:${defaultServerPort}`;
/** The file in this project's config folder that keeps a generated bearer token when AUTH_TOKEN is not set. */
export const keptAuthTokenFileName = "mcp-auth-token";

export const port = defineSetting({
  name: "PORT",
  type: "0-65535",
  defaultText: `${defaultServerPort} (npm start), ${defaultSandboxPort} (npm run sandbox), ${defaultHostedPort} (npm run hosted)`,
  meaning: "the port to listen on; 0 picks a free one and logs it",
  readBy: ["MCP server", "sandbox", "hosted"],
  parse: (value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value) || Number(value) > 65_535)
      throw new ConfigurationError(`PORT must be a whole number from 0 to 65535 (0 picks a free port); got "${value}".`);
    return Number(value);
  },
});

export const host = defineSetting({
  name: "HOST",
  type: "address",
  defaultText: defaultHost,
  meaning: "the address to listen on; beyond loopback, clients need the bearer token (or OAuth mode) and PUBLIC_URL",
  readBy: ["MCP server", "sandbox"],
  parse: text(defaultHost),
});

export const authToken = defineSetting({
  name: "AUTH_TOKEN",
  type: "secret",
  defaultText: `one made and kept in ${defaultConfigFolderText}/${keptAuthTokenFileName} (loopback only)`,
  meaning:
    "the bearer token clients send to /mcp (bearer mode); required beyond loopback (the server refuses to start without it there), at least 16 characters, such as the output of openssl rand -hex 32",
  readBy: ["MCP server"],
  secret: true,
  parse: text(),
});

export const logLevel = defineSetting({
  name: "LOG_LEVEL",
  type: "debug, info, warn, error",
  defaultText: "info",
  meaning: "the least important log line written (to standard error)",
  readBy: ["MCP server", "hosted"],
  parse: (value: string | undefined): LogLevel => {
    if (value === undefined) return "info";
    const level = value.toLowerCase();
    if (!isLogLevel(level)) throw new ConfigurationError(`LOG_LEVEL must be one of debug, info, warn, error; got "${value}".`);
    return level;
  },
});

export const mcpAuth = defineSetting({
  name: "MCP_AUTH",
  type: "bearer or oauth",
  defaultText: "bearer",
  meaning: "bearer: a static token; oauth: the server's own authorization server with Strava sign-in (HTTP only)",
  readBy: ["MCP server", "hosted"],
  parse: (value: string | undefined): "bearer" | "oauth" => {
    const mode = value?.toLowerCase();
    if (mode === undefined || mode === "bearer") return "bearer";
    if (mode === "oauth") return "oauth";
    throw new ConfigurationError(
      `MCP_AUTH must be "bearer" (the default: a static token) or "oauth" (MCP authorization with Strava sign-in); got "${value}".`,
    );
  },
});

export const nodeOptions = defineSetting({
  name: "NODE_OPTIONS",
  type: "Node flags",
  defaultText: "none",
  meaning: "Node's own flags; the launcher adds its heap settings unless they are given here",
  readBy: ["MCP server"],
  parse: text(),
});
