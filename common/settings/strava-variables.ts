/** Where Strava (or a Strava-shaped server such as the sandbox) lives, for every front end that calls it. */
import { defineSetting, httpUrl, milliseconds, readSetting, type Environment } from "./setting.ts";

export const stravaApiBase = defineSetting({
  name: "STRAVA_API_BASE",
  type: "URL",
  defaultText: "https://www.strava.com/api/v3",
  meaning: "Strava's REST API, or another Strava-shaped server (a sandbox started with npm run sandbox)",
  readBy: ["MCP server", "plugin", "hosted"],
  parse: httpUrl("STRAVA_API_BASE", "https://www.strava.com/api/v3", "https://www.strava.com/api/v3"),
});

export const stravaTokenUrl = defineSetting({
  name: "STRAVA_TOKEN_URL",
  type: "URL",
  defaultText: "https://www.strava.com/oauth/token",
  meaning: "Strava's token endpoint (refresh and code exchange)",
  readBy: ["MCP server", "plugin", "authorize", "hosted"],
  parse: httpUrl("STRAVA_TOKEN_URL", "https://www.strava.com/oauth/token", "https://www.strava.com/oauth/token"),
});

export const stravaAuthorizeUrl = defineSetting({
  name: "STRAVA_AUTHORIZE_URL",
  type: "URL",
  defaultText: "https://www.strava.com/oauth/authorize",
  meaning: "Strava's authorize page (npm run authorize, OAuth mode's sign-in)",
  readBy: ["MCP server", "authorize", "hosted"],
  parse: httpUrl("STRAVA_AUTHORIZE_URL", "https://www.strava.com/oauth/authorize", "https://www.strava.com/oauth/authorize"),
});

export const stravaRevokeUrl = defineSetting({
  name: "STRAVA_REVOKE_URL",
  type: "URL",
  defaultText: "beside the token URL (/oauth/revoke)",
  meaning: "Strava's revocation endpoint (npm run authorize -- --revoke, OAuth mode's disconnects)",
  readBy: ["MCP server", "authorize", "oauth-admin", "hosted"],
  parse: httpUrl("STRAVA_REVOKE_URL", "https://www.strava.com/oauth/revoke"),
});

export const stravaTimeoutMs = defineSetting({
  name: "STRAVA_TIMEOUT_MS",
  type: "milliseconds",
  defaultText: "30000",
  meaning: "how long one Strava request (token requests included) may take",
  readBy: ["MCP server", "plugin", "hosted"],
  parse: milliseconds("STRAVA_TIMEOUT_MS", 30_000),
});

/** Where the upstream lives and how long to wait for it (the shape strava/strava-settings.ts names). */
export function readUpstreamSettings(env: Environment): { apiBase: string; tokenUrl: string; timeoutMs: number } {
  return {
    apiBase: readSetting(env, stravaApiBase).replace(/\/+$/, ""),
    tokenUrl: readSetting(env, stravaTokenUrl),
    timeoutMs: readSetting(env, stravaTimeoutMs),
  };
}
