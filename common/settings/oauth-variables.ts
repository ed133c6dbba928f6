/** OAuth mode's settings (MCP_AUTH=oauth): its public address, whom it serves, its store and Strava's webhook. */
import { ConfigurationError } from "../configuration-error.ts";
import { defineSetting, rateLimits, readSetting, text, wholeNumber, type Environment } from "./setting.ts";
import { stravaPublishedRateLimitsText } from "./strava-variables.ts";
import { join } from "node:path";
import { configFolder, defaultConfigFolderText } from "./credential-variables.ts";

/** OAuth mode's state folder in this project's config folder, when FITNESS_OAUTH_DIR is not set. */
const oauthFolderName = "oauth";
/** How many athletes a Standard-tier Strava application serves. */
export const defaultAthleteLimit = 10;

export const publicUrl = defineSetting({
  name: "PUBLIC_URL",
  type: "https origin",
  defaultText: "the listening address (loopback only)",
  meaning: "the address clients reach OAuth mode at (issuer; the resource is PUBLIC_URL/mcp); required beyond loopback",
  readBy: ["MCP server", "hosted", "oauth-admin"],
  parse: text(),
});

export const mcpAthletes = defineSetting({
  name: "MCP_ATHLETES",
  type: "athlete ids",
  defaultText: "the owner (loopback only)",
  meaning: "the Strava athletes OAuth mode serves, comma separated; required beyond loopback",
  readBy: ["MCP server", "hosted", "oauth-admin"],
  parse: (value: string | undefined): string[] | undefined => {
    if (value === undefined) return undefined;
    const ids = value
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "");
    const bad = ids.filter((id) => !/^\d{1,20}$/.test(id));
    if (bad.length > 0 || ids.length === 0) {
      throw new ConfigurationError(
        `MCP_ATHLETES must be Strava athlete ids separated by commas, such as 48201735,61930114; "${bad.join(", ") || value}" is not.`,
      );
    }
    return [...new Set(ids)];
  },
});

export const stravaAthleteLimit = defineSetting({
  name: "STRAVA_ATHLETE_LIMIT",
  type: "whole number",
  defaultText: String(defaultAthleteLimit),
  meaning: "how many athletes your Strava application may serve (Strava's Standard tier: 10)",
  readBy: ["MCP server"],
  parse: wholeNumber("STRAVA_ATHLETE_LIMIT", 1, 100_000, defaultAthleteLimit),
});

export const stravaRateLimits = defineSetting({
  name: "STRAVA_RATE_LIMITS",
  type: "four whole numbers",
  defaultText: stravaPublishedRateLimitsText,
  meaning: "your application's limits (overall 15 min, overall daily, read 15 min, read daily), shared by the athletes",
  readBy: ["MCP server", "hosted"],
  parse: rateLimits("STRAVA_RATE_LIMITS", true),
});

export const stravaWebhookVerifyToken = defineSetting({
  name: "STRAVA_WEBHOOK_VERIFY_TOKEN",
  type: "secret",
  defaultText: "none",
  meaning: "the verify_token of your Strava push subscription",
  readBy: ["MCP server", "hosted"],
  secret: true,
  parse: text(),
});

export const stravaWebhookSubscriptionId = defineSetting({
  name: "STRAVA_WEBHOOK_SUBSCRIPTION_ID",
  type: "whole number",
  defaultText: "asked of Strava at the first event",
  meaning: "your push subscription's id; events naming another are refused",
  readBy: ["MCP server", "hosted"],
  parse: wholeNumber("STRAVA_WEBHOOK_SUBSCRIPTION_ID", 1, Number.MAX_SAFE_INTEGER),
});

export const mcpClientAddressHeader = defineSetting({
  name: "MCP_CLIENT_ADDRESS_HEADER",
  type: "header name",
  defaultText: "none (the connection's address)",
  meaning: "behind a proxy: the header it puts the client's address in (the last address in it counts)",
  readBy: ["MCP server", "hosted"],
  parse: (value: string | undefined): string | undefined => {
    if (value === undefined) return undefined;
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(value))
      throw new ConfigurationError(`MCP_CLIENT_ADDRESS_HEADER must be an HTTP header name such as x-forwarded-for; got "${value}".`);
    return value.toLowerCase();
  },
});

export const fitnessOauthDir = defineSetting({
  name: "FITNESS_OAUTH_DIR",
  type: "path",
  defaultText: `${defaultConfigFolderText}/${oauthFolderName}`,
  meaning:
    "OAuth mode's state on local files (this user's alone: 0700, checked at start); npm run hosted on the sandbox: a scratch directory",
  readBy: ["MCP server", "hosted", "oauth-admin"],
  parse: text(),
});

export const mcpOauthTable = defineSetting({
  name: "MCP_OAUTH_TABLE",
  type: "table name",
  defaultText: "none (local files)",
  meaning: "OAuth mode's state in this DynamoDB table (the hosted deployment)",
  readBy: ["MCP server", "hosted", "oauth-admin"],
  parse: text(),
});

export const mcpSigningKeySecret = defineSetting({
  name: "MCP_SIGNING_KEY_SECRET",
  type: "name or ARN",
  defaultText: "none",
  meaning: "with MCP_OAUTH_TABLE: the Secrets Manager secret holding the access-token signing key",
  readBy: ["MCP server", "hosted", "oauth-admin"],
  parse: text(),
});

/** FITNESS_OAUTH_DIR, else the `oauth` folder in this project's config folder. */
export function readOauthDirectory(env: Environment): string {
  return readSetting(env, fitnessOauthDir) ?? join(configFolder(env), oauthFolderName);
}
