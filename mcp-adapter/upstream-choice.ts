/**
 * Which upstream the MCP server talks to, decided once at start-up from the environment (read through the
 * settings inventory, common/settings/), and where its credentials live (credentials/store-choice.ts):
 *
 * - `FITNESS_SECRET_NAME` set: real Strava, credentials in that Secrets Manager secret (`AWS_REGION`,
 *   default us-west-2), shared with other instances and with the OpenClaw plugin;
 * - all three `STRAVA_CLIENT_ID`, `STRAVA_CLIENT_SECRET`, `STRAVA_REFRESH_TOKEN` set: real Strava, rotated
 *   tokens (and the application's credentials) kept in the token file (`FITNESS_TOKEN_FILE`);
 * - `FITNESS_TOKEN_FILE` set alone: real Strava, from that token file as `npm run authorize -- --store file`
 *   wrote it (it keeps the application's credentials and every rotation);
 * - some but not all three STRAVA_* variables: a start-up error naming the missing ones;
 * - none: the built-in sandbox, started in this process, announced loudly on standard error. A token file
 *   at the default place that was not named does not move the server off the sandbox; it is mentioned.
 *
 * `STRAVA_API_BASE` / `STRAVA_TOKEN_URL` apply to the first three (tests point them at a sandbox).
 */
import { existsSync } from "node:fs";
import type { RunningSandbox } from "../sandbox/server.ts";
import type { CredentialStore } from "../credentials/credential-store.ts";
import { openCredentialStore, type CredentialStoreDescription } from "../credentials/store-choice.ts";
import { stravaEnvNames } from "../credentials/stores/environment-store.ts";
import type { Logger } from "../common/logger.ts";
import type { UpstreamSettings } from "../strava/strava-settings.ts";
import { tokenFileUnwritable } from "../credentials/stores/token-file-store.ts";
import { finishLeftTokenCopies } from "../credentials/rescue/rescuing-store.ts";
import {
  awsRegion,
  fitnessSecretName,
  fitnessStoreTimeoutMs,
  readRescueDirectory,
  readStravaCredentials,
  readTokenFile,
} from "../common/settings/credential-variables.ts";
import { readUpstreamSettings, stravaApiBase, stravaTimeoutMs, stravaTokenUrl } from "../common/settings/strava-variables.ts";
import { isSet, readSetting, type Environment } from "../common/settings/setting.ts";
import { StartupError } from "./startup-error.ts";
import { messageOf } from "../common/named-error.ts";
import { upstreamKindAt, type UpstreamKind } from "./upstream-kind.ts";

export type { UpstreamKind };

export interface UpstreamChoice {
  kind: UpstreamKind;
  store: CredentialStore;
  settings: UpstreamSettings;
  /** Deadline of each credential store call (FITNESS_STORE_TIMEOUT_MS). */
  storeTimeoutMs: number;
  /** A token file at the default place that the sandbox was served beside (the banner mentions it). */
  unusedTokenFile?: string;
  /** Stops what the choice started (the embedded sandbox); a no-op for Strava. */
  close(): Promise<void>;
}

export const defaultAwsRegion = "us-west-2";

export async function chooseUpstream(env: Environment, logger: Logger): Promise<UpstreamChoice> {
  const secretName = readSetting(env, fitnessSecretName);
  const strava = readStravaCredentials(env);
  const tokenFile = readTokenFile(env);
  const storeTimeoutMs = readSetting(env, fitnessStoreTimeoutMs);
  const open = (description: CredentialStoreDescription): Promise<CredentialStore> =>
    openCredentialStore(description, { logger, requestTimeoutMs: storeTimeoutMs, rescue: readRescueDirectory(env) });
  const noop = async (): Promise<void> => {};

  if (secretName !== undefined) {
    if (strava.missing.length < stravaEnvNames.length) {
      logger.warn("strava_env_ignored", {
        message:
          "FITNESS_SECRET_NAME is set, so the credentials come from that secret; the STRAVA_CLIENT_ID/SECRET/REFRESH_TOKEN variables are ignored.",
      });
    }
    const store = await open({ kind: "secrets-manager", secretName, region: readSetting(env, awsRegion) });
    const settings = readUpstreamSettings(env);
    const kind = await selected(settings, store, logger);
    // Tokens a stopped process left are saved now, not at the first call: until then the other instances
    // on the secret would meet a spent refresh token. In the background: nothing waits on the network to start.
    void finishLeftTokenCopies(store, storeTimeoutMs);
    return { kind, store, settings, storeTimeoutMs, close: noop };
  }

  if (strava.missing.length === 0 || (strava.missing.length === stravaEnvNames.length && tokenFile.explicit)) {
    const unwritable = tokenFileUnwritable(tokenFile.path);
    if (unwritable !== undefined) {
      throw new StartupError(
        `Rotated Strava tokens could not be kept: ${unwritable}. Set FITNESS_TOKEN_FILE to a file this user may write ` +
          "(its directory is created 0700 if missing); the server refuses to start rather than spend a refresh token it could not keep.",
      );
    }
    const { clientId, clientSecret, refreshToken } = strava;
    const store = await open(
      clientId !== undefined && clientSecret !== undefined && refreshToken !== undefined
        ? { kind: "environment", clientId, clientSecret, refreshToken, tokenFile: tokenFile.path }
        : { kind: "token-file", path: tokenFile.path },
    );
    const settings = readUpstreamSettings(env);
    return { kind: await selected(settings, store, logger), store, settings, storeTimeoutMs, close: noop };
  }

  if (strava.missing.length < stravaEnvNames.length) {
    throw new StartupError(
      `Strava credentials are incomplete: ${strava.missing.join(", ")} ${strava.missing.length === 1 ? "is" : "are"} not set. ` +
        `Set all three of ${stravaEnvNames.join(", ")} for real Strava (or FITNESS_SECRET_NAME for a Secrets Manager secret, ` +
        "or FITNESS_TOKEN_FILE alone for a token file npm run authorize wrote), or unset them all to run against the built-in sandbox.",
    );
  }

  const choice = await startEmbeddedSandbox(env, logger, storeTimeoutMs);
  if (!existsSync(tokenFile.path)) return choice;
  logger.info("token_file_not_used", {
    path: tokenFile.path,
    message: `A token file is at ${tokenFile.path}, but FITNESS_TOKEN_FILE is not set: serving the sandbox. Set FITNESS_TOKEN_FILE to that path to serve its athlete.`,
  });
  return { ...choice, unusedTokenFile: tokenFile.path };
}

/** Logs which upstream serves the stored credentials: Strava, or the sandbox STRAVA_API_BASE points at. */
async function selected(settings: UpstreamSettings, store: CredentialStore, logger: Logger): Promise<UpstreamKind> {
  const kind = await upstreamKindAt(settings.apiBase);
  logger.info("upstream_selected", {
    upstream: kind,
    credentials: store.description,
    ...(kind === "sandbox"
      ? { apiBase: settings.apiBase, message: "STRAVA_API_BASE points at the sandbox (made-up athletes), not Strava." }
      : {}),
  });
  return kind;
}

/**
 * Starts the built-in sandbox in this process on a free loopback port (the bearer and OAuth modes both use
 * it when no Strava application is set). Its own SANDBOX_* knobs apply; PORT and HOST are this server's.
 * Loaded only here, so a Strava deployment never loads the sandbox's seed data.
 */
export async function startBuiltInSandbox(env: Environment): Promise<RunningSandbox> {
  const { startSandbox } = await import("../sandbox/server.ts");
  const { sandboxOptionsFromEnv } = await import("../sandbox/options-from-env.ts");
  let options;
  try {
    options = sandboxOptionsFromEnv({ ...env, PORT: "0", HOST: "127.0.0.1" });
  } catch (error) {
    throw new StartupError(`The built-in sandbox cannot start: ${messageOf(error)}`);
  }
  return startSandbox(options);
}

async function startEmbeddedSandbox(env: Environment, logger: Logger, storeTimeoutMs: number): Promise<UpstreamChoice> {
  const sandbox = await startBuiltInSandbox(env);
  const ignored = [stravaApiBase, stravaTokenUrl].filter((setting) => isSet(env, setting)).map((setting) => setting.name);
  logger.warn("upstream_sandbox", {
    message:
      "No Strava credentials are set (STRAVA_CLIENT_ID, STRAVA_CLIENT_SECRET, STRAVA_REFRESH_TOKEN, FITNESS_TOKEN_FILE or FITNESS_SECRET_NAME): " +
      "serving the built-in SANDBOX, a simulated athlete with made-up activities, NOT your Strava account.",
    sandboxApiBase: sandbox.apiBase,
    ...(ignored.length > 0 ? { ignored: `${ignored.join(", ")} (they only apply with Strava credentials)` } : {}),
  });
  const store = await openCredentialStore(
    {
      kind: "memory",
      credentials: { client_id: sandbox.clientId, client_secret: sandbox.clientSecret, refresh_token: sandbox.refreshToken() },
      description: "the embedded sandbox's credentials (in memory)",
    },
    { logger, requestTimeoutMs: storeTimeoutMs, rescue: { configured: "off", runtimeDirectory: undefined } },
  );
  return {
    kind: "sandbox",
    store,
    settings: { apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl, timeoutMs: readSetting(env, stravaTimeoutMs) },
    storeTimeoutMs,
    close: () => sandbox.close(),
  };
}
