/**
 * Where the athlete's Strava credentials live for the MCP server and the operator's commands: the three
 * STRAVA_* variables (with the token file their rotations go to), a token file alone, or a Secrets Manager
 * secret; the store deadline and the rescue directory of new tokens.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { defineSetting, milliseconds, readSetting, text, type Environment } from "./setting.ts";

/** The folder of this project's files in the user's config folder, and the token file's name in it. */
const configFolderName = "openclaw-fitness";
const tokenFileName = "strava-tokens.json";
/** That folder as people write it, when XDG_CONFIG_HOME is not set. */
export const defaultConfigFolderText = `~/.config/${configFolderName}`;
/** The token file when FITNESS_TOKEN_FILE is not set, as people write it (the plugin's config, usage texts). */
export const defaultTokenFileText = `${defaultConfigFolderText}/${tokenFileName}`;
export const defaultAwsRegion = "us-west-2";
export const defaultStoreTimeoutMs = 5_000;

export const stravaClientId = defineSetting({
  name: "STRAVA_CLIENT_ID",
  type: "text",
  defaultText: "none",
  meaning: "your Strava API application's client id",
  readBy: ["MCP server", "authorize", "oauth-admin"],
  parse: text(),
});

export const stravaClientSecret = defineSetting({
  name: "STRAVA_CLIENT_SECRET",
  type: "secret",
  defaultText: "none",
  meaning: "your Strava API application's client secret",
  readBy: ["MCP server", "authorize", "oauth-admin"],
  secret: true,
  parse: text(),
});

export const stravaRefreshToken = defineSetting({
  name: "STRAVA_REFRESH_TOKEN",
  type: "secret",
  defaultText: "none",
  meaning: "the athlete's refresh token (with the two above: serve that athlete; rotations go to FITNESS_TOKEN_FILE)",
  readBy: ["MCP server"],
  secret: true,
  parse: text(),
});

export const fitnessTokenFile = defineSetting({
  name: "FITNESS_TOKEN_FILE",
  type: "path",
  defaultText: defaultTokenFileText,
  meaning: "the token file (0600): set alone, npm start serves the athlete npm run authorize -- --store file wrote there",
  readBy: ["MCP server", "authorize"],
  parse: text(),
});

export const fitnessSecretName = defineSetting({
  name: "FITNESS_SECRET_NAME",
  type: "name or ARN",
  defaultText: "none",
  meaning: "a Secrets Manager secret holding the credentials (the plugin's store), shared by every instance",
  readBy: ["MCP server", "hosted", "oauth-admin"],
  parse: text(),
});

export const awsRegion = defineSetting({
  name: "AWS_REGION",
  type: "region",
  defaultText: defaultAwsRegion,
  meaning: "the AWS region of the secret, the table and the voice service (an ARN's own region wins)",
  readBy: ["MCP server", "voice", "authorize", "oauth-admin", "hosted"],
  parse: text(defaultAwsRegion),
});

export const fitnessStoreTimeoutMs = defineSetting({
  name: "FITNESS_STORE_TIMEOUT_MS",
  type: "milliseconds",
  defaultText: String(defaultStoreTimeoutMs),
  meaning: "how long one call to the credential store may take",
  readBy: ["MCP server", "hosted"],
  parse: milliseconds("FITNESS_STORE_TIMEOUT_MS", defaultStoreTimeoutMs),
});

export const fitnessTokenRescueDir = defineSetting({
  name: "FITNESS_TOKEN_RESCUE_DIR",
  type: "path or off",
  defaultText: "$XDG_RUNTIME_DIR/fitness-coach or /dev/shm/fitness-coach-<uid> (memory-backed only)",
  meaning: "where new tokens wait on this machine until a remote store (Secrets Manager, DynamoDB) has them",
  readBy: ["MCP server", "plugin"],
  parse: text(),
});

export const xdgConfigHome = defineSetting({
  name: "XDG_CONFIG_HOME",
  type: "path",
  defaultText: "~/.config",
  meaning: "where the default token file, the kept bearer token and OAuth mode's state go",
  readBy: ["MCP server", "authorize", "oauth-admin"],
  parse: text(),
});

export const xdgRuntimeDir = defineSetting({
  name: "XDG_RUNTIME_DIR",
  type: "path",
  defaultText: "set by the login session",
  meaning: "the memory-backed directory of this user's session (the rescue directory's first choice)",
  readBy: ["MCP server", "plugin"],
  parse: text(),
});

/** `$XDG_CONFIG_HOME/openclaw-fitness` (~/.config by default): the folder of this project's files of this user. */
export function configFolder(env: Environment): string {
  return join(readSetting(env, xdgConfigHome) ?? join(homedir(), ".config"), configFolderName);
}

/** FITNESS_TOKEN_FILE, else the default token file; and whether it was set. */
export function readTokenFile(env: Environment): { path: string; explicit: boolean } {
  const explicit = readSetting(env, fitnessTokenFile);
  return explicit !== undefined ? { path: explicit, explicit: true } : { path: join(configFolder(env), tokenFileName), explicit: false };
}

/** Where new tokens wait on this machine: FITNESS_TOKEN_RESCUE_DIR and the session's runtime directory. */
export function readRescueDirectory(env: Environment): { configured: string | undefined; runtimeDirectory: string | undefined } {
  return { configured: readSetting(env, fitnessTokenRescueDir), runtimeDirectory: readSetting(env, xdgRuntimeDir) };
}

/** The three STRAVA_* variables of an athlete's grant, and the names of those that are not set. */
export function readStravaCredentials(env: Environment): {
  clientId: string | undefined;
  clientSecret: string | undefined;
  refreshToken: string | undefined;
  missing: string[];
} {
  const clientId = readSetting(env, stravaClientId);
  const clientSecret = readSetting(env, stravaClientSecret);
  const refreshToken = readSetting(env, stravaRefreshToken);
  const missing: string[] = [];
  if (clientId === undefined) missing.push(stravaClientId.name);
  if (clientSecret === undefined) missing.push(stravaClientSecret.name);
  if (refreshToken === undefined) missing.push(stravaRefreshToken.name);
  return { clientId, clientSecret, refreshToken, missing };
}
