/**
 * Starts OAuth mode's parts from the environment, for `npm start` and the hosted Lambda handler alike, on the
 * Strava the front end chose (the application, or the built-in sandbox in its place: mcp-adapter/oauth-upstream.ts):
 * the store (DynamoDB with the signing key in Secrets Manager when `MCP_OAUTH_TABLE` is set, else local files),
 * and the OAuth app on top.
 */
import { ConfigurationError } from "../common/configuration-error.ts";
import type { Logger } from "../common/logger.ts";
import { messageOf } from "../common/named-error.ts";
import { readSetting, type Environment } from "../common/settings/setting.ts";
import { awsRegion, readRescueDirectory } from "../common/settings/credential-variables.ts";
import { mcpOauthTable, mcpSigningKeySecret, readOauthDirectory } from "../common/settings/oauth-variables.ts";
import { tokenRescue } from "../credentials/rescue/rescuing-store.ts";
import type { ApplicationCredentials } from "../credentials/stores/athlete-token-file.ts";
import { createOAuthApp, type OAuthApp } from "./oauth-app.ts";
import { oauthAdminCommand } from "./oauth-admin-command.ts";
import type { OAuthSettings } from "./oauth-settings.ts";
import { storeSignal, type AuthorizationStores, type AuthorizationStoresDescription } from "./stores/authorization-stores.ts";
import { openAuthorizationStores } from "./stores/open-authorization-stores.ts";
import type { OAuthStrava } from "./strava/strava-application.ts";

export interface StartedOAuthMode {
  app: OAuthApp;
  stores: AuthorizationStores;
}

export async function startOAuthMode(options: {
  env: Environment;
  settings: OAuthSettings;
  /** PUBLIC_URL, or the listening address when it is unset (loopback). */
  issuer: string;
  serverName: string;
  logger: Logger;
  /**
   * A long-running server (npm start) on DynamoDB keeps a rescue copy of each athlete's new tokens on its
   * machine until the table has them (credentials/rescue/rescuing-store.ts). A Lambda function does not: its
   * memory-backed directory goes with its execution environment, and nothing there would find the copy.
   */
  rescueTokens: boolean;
  /** What plays Strava: its application, its API's settings, and the store deadline. */
  upstream: OAuthStrava;
}): Promise<StartedOAuthMode> {
  const { env, settings, logger, upstream } = options;
  const storeTimeoutMs = upstream.storeTimeoutMs;
  const where = authorizationStoresFromEnv(env);
  const stores = await openAuthorizationStores(where, {
    application: { client_id: upstream.strava.clientId, client_secret: upstream.strava.clientSecret },
    requestTimeoutMs: storeTimeoutMs,
  });
  const app = await createOAuthApp({
    // Local files need no copy: the token file's first write is synchronous.
    rescueCredentials: options.rescueTokens && where.kind === "dynamodb" ? tokenRescue(readRescueDirectory(env), logger) : undefined,
    issuer: options.issuer,
    settings,
    stores,
    strava: upstream.strava,
    upstream: upstream.settings,
    storeTimeoutMs,
    logger,
    serverName: options.serverName,
  });
  await requireListedAthletesBeyondLoopback(app, stores, settings, storeTimeoutMs);
  await announceUnclaimedOwner(app, settings, storeTimeoutMs, logger, oauthAdminCommand(env, "reset-owner"));
  await app.reconcileAdmission();
  // Expired records of the local files go in the background; DynamoDB's TTL removes its own.
  void stores
    .sweepExpired(AbortSignal.timeout(60_000))
    .catch((error: unknown) => logger.warn("oauth_sweep_failed", { message: messageOf(error) }));
  logger.info("oauth_ready", {
    issuer: app.issuer,
    resource: app.resource,
    store: stores.description,
    admitted: app.admission.describe,
    fair_share: app.sessions.share,
  });
  return { app, stores };
}

/**
 * A server others can reach must say whom it serves: with no MCP_ATHLETES the first person to sign in
 * would become its owner, and on the internet that race is open to anyone. Owner mode stays for a server
 * on loopback alone (a loopback PUBLIC_URL and a loopback listening address), whose only visitors are its
 * own user's apps. An upgraded deployment that had an owner is told the id to set.
 */
async function requireListedAthletesBeyondLoopback(
  app: OAuthApp,
  stores: AuthorizationStores,
  settings: OAuthSettings,
  storeTimeoutMs: number,
): Promise<void> {
  if (settings.admittedAthletes !== undefined || !settings.beyondLoopback) return;
  const owner = await stores.athletes.owner(storeSignal(storeTimeoutMs)).catch(() => undefined);
  throw new ConfigurationError(
    `MCP_ATHLETES is required when the server is reached beyond loopback (${settings.reachedThrough ?? app.issuer}): set it to the Strava athlete ids it serves, ` +
      (owner !== undefined
        ? `such as MCP_ATHLETES=${owner} for the athlete who signed in first (this deployment's owner so far).`
        : "such as MCP_ATHLETES=48201735 (an athlete's id is the number in their Strava profile's address)."),
  );
}

/**
 * With no MCP_ATHLETES (on loopback), the first athlete to sign in is claimed as the owner. On a server others can
 * reach that must be the operator, so start-up says so (a warning there, information on loopback) while
 * nobody has signed in. A store that cannot be read now is not a reason to refuse to start: the first
 * request says what is wrong with it.
 */
async function announceUnclaimedOwner(
  app: OAuthApp,
  settings: OAuthSettings,
  storeTimeoutMs: number,
  logger: Logger,
  resetOwner: string,
): Promise<void> {
  let awaits: boolean;
  try {
    awaits = await app.admission.awaitsOwner(AbortSignal.timeout(storeTimeoutMs));
  } catch {
    return;
  }
  if (!awaits) return;
  logger[settings.beyondLoopback ? "warn" : "info"]("owner_unclaimed", {
    issuer: app.issuer,
    message:
      `No athlete has signed in yet: the first one to sign in at ${app.issuer} becomes this server's owner, the only athlete it serves, ` +
      `until \`${resetOwner}\`. Sign in now (connect your MCP client), or set MCP_ATHLETES to the Strava athlete ids to serve.`,
  });
}

/** Where OAuth mode's state lives: the DynamoDB table MCP_OAUTH_TABLE names, else the directory FITNESS_OAUTH_DIR (default in the config folder). */
export function authorizationStoresFromEnv(env: Environment): AuthorizationStoresDescription {
  const table = readSetting(env, mcpOauthTable);
  if (table) {
    const signingKeySecret = readSetting(env, mcpSigningKeySecret);
    if (!signingKeySecret) {
      throw new ConfigurationError(
        "MCP_OAUTH_TABLE is set, so MCP_SIGNING_KEY_SECRET must name the Secrets Manager secret holding the access-token signing key (at least 32 characters).",
      );
    }
    return { kind: "dynamodb", table, signingKeySecret, region: readSetting(env, awsRegion) };
  }
  return { kind: "files", directory: readOauthDirectory(env) };
}

/** The stores the environment names, for the operator's command (npm run oauth-admin). */
export function openAuthorizationStoresFromEnv(
  env: Environment,
  application: ApplicationCredentials,
  storeTimeoutMs: number,
): Promise<AuthorizationStores> {
  return openAuthorizationStores(authorizationStoresFromEnv(env), { application, requestTimeoutMs: storeTimeoutMs });
}
