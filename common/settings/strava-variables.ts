/** Where Strava (or a Strava-shaped server such as the sandbox) lives, for every front end that calls it. */
import { defineSetting, httpUrl, milliseconds, readSetting, type Environment } from "./setting.ts";

/** Strava's own addresses and wait, each written here only: every other mention reads these. */
export const defaultStravaApiBase = "https://www.strava.com/api/v3";
export const defaultStravaTokenUrl = "https://www.strava.com/oauth/token";
export const defaultStravaAuthorizeUrl = "https://www.strava.com/oauth/authorize";
export const defaultStravaTimeoutMs = 30_000;
/** Strava's published rate limits: [15-minute, daily] overall and for reads. */
export const stravaPublishedRateLimits: { readonly overall: [number, number]; readonly read: [number, number] } = {
  overall: [200, 2000],
  read: [100, 1000],
};
/** Rate limits as the settings write them: "overall15min,overallDaily,read15min,readDaily". */
export const stravaPublishedRateLimitsText = [...stravaPublishedRateLimits.overall, ...stravaPublishedRateLimits.read].join(",");

export const stravaApiBase = defineSetting({
  name: "STRAVA_API_BASE",
  type: "URL",
  defaultText: defaultStravaApiBase,
  meaning: "Strava's REST API, or another Strava-shaped server (a sandbox started with npm run sandbox)",
  readBy: ["MCP server", "plugin", "hosted"],
  parse: httpUrl("STRAVA_API_BASE", defaultStravaApiBase, defaultStravaApiBase),
});

export const stravaTokenUrl = defineSetting({
  name: "STRAVA_TOKEN_URL",
  type: "URL",
  defaultText: defaultStravaTokenUrl,
  meaning: "Strava's token endpoint (refresh and code exchange)",
  readBy: ["MCP server", "plugin", "authorize", "hosted"],
  parse: httpUrl("STRAVA_TOKEN_URL", defaultStravaTokenUrl, defaultStravaTokenUrl),
});

export const stravaAuthorizeUrl = defineSetting({
  name: "STRAVA_AUTHORIZE_URL",
  type: "URL",
  defaultText: defaultStravaAuthorizeUrl,
  meaning: "Strava's authorize page (npm run authorize, OAuth mode's sign-in)",
  readBy: ["MCP server", "authorize", "hosted"],
  parse: httpUrl("STRAVA_AUTHORIZE_URL", defaultStravaAuthorizeUrl, defaultStravaAuthorizeUrl),
});

export const stravaRevokeUrl = defineSetting({
  name: "STRAVA_REVOKE_URL",
  type: "URL",
  defaultText: "beside the token URL (/oauth/revoke)",
  meaning: "Strava's revocation endpoint (npm run authorize -- --revoke, OAuth mode's disconnects)",
  readBy: ["MCP server", "authorize", "oauth-admin", "hosted"],
  parse: httpUrl("STRAVA_REVOKE_URL", defaultStravaTokenUrl.replace(/token$/, "revoke")),
});

export const stravaTimeoutMs = defineSetting({
  name: "STRAVA_TIMEOUT_MS",
  type: "milliseconds",
  defaultText: String(defaultStravaTimeoutMs),
  meaning: "how long one Strava request (token requests included) may take",
  readBy: ["MCP server", "plugin", "hosted"],
  parse: milliseconds("STRAVA_TIMEOUT_MS", defaultStravaTimeoutMs),
});

/** Where the upstream lives and how long to wait for it (the shape strava/strava-settings.ts names). */
export function readUpstreamSettings(env: Environment): { apiBase: string; tokenUrl: string; timeoutMs: number } {
  return {
    apiBase: readSetting(env, stravaApiBase).replace(/\/+$/, ""),
    tokenUrl: readSetting(env, stravaTokenUrl),
    timeoutMs: readSetting(env, stravaTimeoutMs),
  };
}
