/** The sandbox's knobs, for `npm run sandbox` and for the MCP server's built-in sandbox. */
import { ConfigurationError } from "../configuration-error.ts";
import { defineSetting, rateLimits, trueOrFalse, wholeNumber } from "./setting.ts";
import { stravaPublishedRateLimitsText } from "./strava-variables.ts";

/** The sandbox's defaults, as Strava's: an access token's lifetime, and how long an upload takes to process. */
export const defaultSandboxTokenLifetimeSeconds = 21_600;
export const defaultSandboxUploadProcessingMs = 8_000;
/** The seed of the sandbox's athlete (the same activities at every start). */
export const defaultSandboxSeed = 7;

export const sandboxTokenLifetimeSeconds = defineSetting({
  name: "SANDBOX_TOKEN_LIFETIME_SECONDS",
  type: "seconds",
  defaultText: `${defaultSandboxTokenLifetimeSeconds} (6 h, as Strava's)`,
  meaning: "how long the sandbox's access tokens last",
  readBy: ["sandbox", "MCP server"],
  parse: wholeNumber("SANDBOX_TOKEN_LIFETIME_SECONDS", 1, 10 * 365 * 86_400),
});

export const sandboxUploadProcessingMs = defineSetting({
  name: "SANDBOX_UPLOAD_PROCESSING_MS",
  type: "milliseconds",
  defaultText: String(defaultSandboxUploadProcessingMs),
  meaning: "how long the sandbox takes to process an upload",
  readBy: ["sandbox", "MCP server"],
  parse: wholeNumber("SANDBOX_UPLOAD_PROCESSING_MS", 0, 3_600_000),
});

export const sandboxRateLimits = defineSetting({
  name: "SANDBOX_RATE_LIMITS",
  type: "four whole numbers",
  defaultText: stravaPublishedRateLimitsText,
  meaning: "the sandbox's rate limits (overall 15 min, overall daily, read 15 min, read daily)",
  readBy: ["sandbox", "MCP server"],
  parse: rateLimits("SANDBOX_RATE_LIMITS", false),
});

export const sandboxRotateRefreshTokens = defineSetting({
  name: "SANDBOX_ROTATE_REFRESH_TOKENS",
  type: "true/false",
  defaultText: "true",
  meaning: "whether the sandbox rotates refresh tokens, as Strava does",
  readBy: ["sandbox", "MCP server"],
  parse: trueOrFalse("SANDBOX_ROTATE_REFRESH_TOKENS"),
});

export const sandboxScopes = defineSetting({
  name: "SANDBOX_SCOPES",
  type: "scopes",
  defaultText: "read,activity:read_all,activity:write,profile:read_all",
  meaning: "the scopes the sandbox's seeded refresh token grants (to try a missing scope)",
  readBy: ["sandbox", "MCP server"],
  parse: (value: string | undefined): string[] | undefined =>
    value
      ?.split(",")
      .map((scope) => scope.trim())
      .filter((scope) => scope.length > 0),
});

export const sandboxSeed = defineSetting({
  name: "SANDBOX_SEED",
  type: "whole number",
  defaultText: String(defaultSandboxSeed),
  meaning: "the seed of the sandbox's generated data",
  readBy: ["sandbox", "MCP server"],
  parse: wholeNumber("SANDBOX_SEED", 0, 2 ** 32 - 1),
});

export const sandboxSecondAthlete = defineSetting({
  name: "SANDBOX_SECOND_ATHLETE",
  type: "true/false",
  defaultText: "false",
  meaning: "adds a second athlete (Jonas Berg, 61930114) with data of his own, to see OAuth mode refuse or serve him",
  readBy: ["sandbox", "MCP server"],
  parse: trueOrFalse("SANDBOX_SECOND_ATHLETE"),
});

export const sandboxSignInAs = defineSetting({
  name: "SANDBOX_SIGN_IN_AS",
  type: "athlete id",
  defaultText: "the first athlete",
  meaning: "who is signed in at the sandbox's authorize page at first (POST /_sandbox/sign-in changes it)",
  readBy: ["sandbox", "MCP server"],
  parse: (value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > Number.MAX_SAFE_INTEGER) {
      throw new ConfigurationError(`SANDBOX_SIGN_IN_AS must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}; got "${value}".`);
    }
    return Number(value);
  },
});

export const sandboxFace = defineSetting({
  name: "SANDBOX_FACE",
  type: "strava or intervals.icu",
  defaultText: "strava",
  meaning: "which training log the MCP server's built-in sandbox plays when no credentials are set: Strava's API or intervals.icu's",
  readBy: ["MCP server"],
  parse: (value: string | undefined): "strava" | "intervals.icu" => {
    if (value === undefined || value.toLowerCase() === "strava") return "strava";
    if (["intervals.icu", "intervals"].includes(value.toLowerCase())) return "intervals.icu";
    throw new ConfigurationError(`SANDBOX_FACE must be strava or intervals.icu; got "${value}".`);
  },
});
