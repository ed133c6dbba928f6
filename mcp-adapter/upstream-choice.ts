/**
 * Which upstream Form A talks to, decided once at start-up from the environment:
 *
 * - `FITNESS_SECRET_NAME` set: real Strava, credentials in that Secrets Manager secret (`AWS_REGION`,
 *   default us-west-2), shared with other instances and with the OpenClaw plugin; new tokens are copied
 *   to this machine's memory until the secret has them, and copies a stopped process left are saved at
 *   start (credentials/rescue/rescuing-store.ts);
 * - all three `STRAVA_CLIENT_ID`, `STRAVA_CLIENT_SECRET`, `STRAVA_REFRESH_TOKEN` set: real Strava,
 *   rotated tokens kept in the token file (`FITNESS_TOKEN_FILE`);
 * - some but not all three: a start-up error naming the missing ones;
 * - none: the built-in sandbox, started in this process, announced loudly on standard error.
 *
 * `STRAVA_API_BASE` / `STRAVA_TOKEN_URL` apply to the first two (tests point them at a sandbox).
 */
import type { RunningSandbox } from "../sandbox/server.ts";
import type { CredentialStore } from "../credentials/credential-store.ts";
import { EnvCredentialStore, missingStravaEnv, stravaEnvNames } from "../credentials/stores/environment-store.ts";
import type { Logger } from "../common/logger.ts";
import { upstreamSettingsFromEnv, type UpstreamSettings } from "../strava/strava-settings.ts";
import { defaultTokenFilePath, TokenFileStore, tokenFileUnwritable } from "../credentials/stores/token-file-store.ts";
import { MemoryCredentialStore } from "../credentials/stores/memory-store.ts";
import { finishLeftTokenCopies, tokenRescueFromEnv } from "../credentials/rescue/rescuing-store.ts";
import { defaultStoreTimeoutMs } from "../credentials/store-deadline.ts";
import { StartupError } from "./startup-error.ts";
import { messageOf } from "../common/named-error.ts";

export type UpstreamKind = "strava" | "sandbox";

export interface UpstreamChoice {
  kind: UpstreamKind;
  store: CredentialStore;
  settings: UpstreamSettings;
  /** Stops what the choice started (the embedded sandbox); a no-op for Strava. */
  close(): Promise<void>;
}

export const defaultAwsRegion = "us-west-2";

export async function chooseUpstream(env: NodeJS.ProcessEnv, logger: Logger): Promise<UpstreamChoice> {
  const secretName = env["FITNESS_SECRET_NAME"]?.trim();
  const missing = missingStravaEnv(env);
  const noop = async (): Promise<void> => {};

  if (secretName) {
    if (missing.length < stravaEnvNames.length) {
      logger.warn("strava_env_ignored", {
        message: "FITNESS_SECRET_NAME is set, so the credentials come from that secret; the STRAVA_CLIENT_ID/SECRET/REFRESH_TOKEN variables are ignored.",
      });
    }
    const region = env["AWS_REGION"]?.trim() || defaultAwsRegion;
    // Loaded only here: the AWS SDK is a large share of the process's memory, and most runs never need it.
    const { SecretsManagerStore } = await import("../credentials/stores/secrets-manager-store.ts");
    const settings = upstreamSettingsFromEnv(env);
    const store = tokenRescueFromEnv(env, logger)(new SecretsManagerStore({ secretName, region, requestTimeoutMs: settings.storeTimeoutMs }));
    logger.info("upstream_selected", { upstream: "strava", credentials: store.description });
    // Tokens a stopped process left are saved now, not at the first call: until then the other instances
    // on the secret would meet a spent refresh token. In the background: nothing waits on the network to start.
    void finishLeftTokenCopies(store, settings.storeTimeoutMs ?? defaultStoreTimeoutMs);
    return { kind: "strava", store, settings, close: noop };
  }

  if (missing.length === 0) {
    const path = defaultTokenFilePath(env);
    const unwritable = tokenFileUnwritable(path);
    if (unwritable !== undefined) {
      throw new StartupError(
        `Rotated Strava tokens could not be kept: ${unwritable}. Set FITNESS_TOKEN_FILE to a file this user may write ` +
          "(its directory is created 0700 if missing); the server refuses to start rather than spend a refresh token it could not keep.",
      );
    }
    const store = new EnvCredentialStore({ env, file: new TokenFileStore({ path }) });
    logger.info("upstream_selected", { upstream: "strava", credentials: store.description });
    return { kind: "strava", store, settings: upstreamSettingsFromEnv(env), close: noop };
  }

  if (missing.length < stravaEnvNames.length) {
    throw new StartupError(
      `Strava credentials are incomplete: ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not set. ` +
        `Set all three of ${stravaEnvNames.join(", ")} for real Strava (or FITNESS_SECRET_NAME for a Secrets Manager secret), ` +
        "or unset them all to run against the built-in sandbox.",
    );
  }

  return startEmbeddedSandbox(env, logger);
}

/**
 * Starts the built-in sandbox in this process on a free loopback port (the bearer and OAuth modes both use
 * it when no Strava application is set). Its own SANDBOX_* knobs apply; PORT and HOST are this server's.
 * Loaded only here, so a Strava deployment never loads the sandbox's seed data.
 */
export async function startBuiltInSandbox(env: NodeJS.ProcessEnv): Promise<RunningSandbox> {
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

async function startEmbeddedSandbox(env: NodeJS.ProcessEnv, logger: Logger): Promise<UpstreamChoice> {
  const sandbox = await startBuiltInSandbox(env);
  const ignored = ["STRAVA_API_BASE", "STRAVA_TOKEN_URL"].filter((name) => env[name]?.trim());
  logger.warn("upstream_sandbox", {
    message:
      "No Strava credentials are set (STRAVA_CLIENT_ID, STRAVA_CLIENT_SECRET, STRAVA_REFRESH_TOKEN, or FITNESS_SECRET_NAME): " +
      "serving the built-in SANDBOX, a simulated athlete with made-up activities, NOT your Strava account.",
    sandboxApiBase: sandbox.apiBase,
    ...(ignored.length > 0 ? { ignored: `${ignored.join(", ")} (they only apply with Strava credentials)` } : {}),
  });
  const store = new MemoryCredentialStore(
    { client_id: sandbox.clientId, client_secret: sandbox.clientSecret, refresh_token: sandbox.refreshToken() },
    "the embedded sandbox's credentials (in memory)",
  );
  const { timeoutMs } = upstreamSettingsFromEnv({ STRAVA_TIMEOUT_MS: env["STRAVA_TIMEOUT_MS"] });
  return {
    kind: "sandbox",
    store,
    settings: { apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl, timeoutMs },
    close: () => sandbox.close(),
  };
}
