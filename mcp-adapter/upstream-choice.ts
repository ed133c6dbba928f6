/**
 * Which training log the MCP server serves, decided once at start-up from the core's settings (read by the
 * composition root, tools/composition/core-settings.ts, from the environment), and the tools' dependencies on it
 * (tools/composition/open-tool-deps.ts):
 *
 * - `INTERVALS_API_KEY` set: the athlete's intervals.icu log (`INTERVALS_ATHLETE_ID`, `INTERVALS_API_BASE`); with
 *   any Strava credential beside it the server refuses to start, naming both;
 * - `FITNESS_SECRET_NAME` set: real Strava, credentials in that Secrets Manager secret (`AWS_REGION`,
 *   default us-west-2), shared with other instances and with the OpenClaw plugin;
 * - all three `STRAVA_CLIENT_ID`, `STRAVA_CLIENT_SECRET`, `STRAVA_REFRESH_TOKEN` set: real Strava, rotated
 *   tokens (and the application's credentials) kept in the token file (`FITNESS_TOKEN_FILE`);
 * - `FITNESS_TOKEN_FILE` set alone: real Strava, from that token file as `npm run authorize -- --store file`
 *   wrote it (it keeps the application's credentials and every rotation);
 * - some but not all three STRAVA_* variables: a start-up error naming the missing ones;
 * - none: the built-in sandbox, started in this process, announced loudly on standard error, playing Strava or,
 *   with `SANDBOX_FACE=intervals.icu`, intervals.icu. A token file at the default place that was not named does not
 *   move the server off the sandbox; it is mentioned.
 *
 * `STRAVA_API_BASE` / `STRAVA_TOKEN_URL` apply to Strava (tests point them at a sandbox); they are no clash with
 * intervals.icu's key.
 */
import { existsSync } from "node:fs";
import type { RunningSandbox } from "../sandbox/server.ts";
import type { Logger } from "../common/logger.ts";
import { tokenFileUnwritable } from "../credentials/stores/token-file-store.ts";
import { stravaApiBase, stravaTimeoutMs, stravaTokenUrl } from "../common/settings/strava-variables.ts";
import { intervalsApiBase } from "../common/settings/intervals-variables.ts";
import { isSet, readSetting, type Environment } from "../common/settings/setting.ts";
import type { TrainingLog } from "../common/upstream/training-log-client.ts";
import { readCoreSettings, type ChosenUpstream, type CoreSettings } from "../tools/composition/core-settings.ts";
import { openToolDeps, type OpenedToolDeps } from "../tools/composition/open-tool-deps.ts";
import { defaultIntervalsTimeoutMs } from "../intervals/intervals-settings.ts";
import { StartupError } from "./startup-error.ts";
import { upstreamKindAt, type UpstreamKind } from "./upstream-kind.ts";
import { messageOf } from "../common/named-error.ts";

export type { UpstreamKind };

export interface UpstreamChoice {
  kind: UpstreamKind;
  /** The training log served (the sandbox plays one of them). */
  log: TrainingLog;
  /** The tools' dependencies and the log's tool table. */
  opened: OpenedToolDeps;
  /** A token file at the default place that the sandbox was served beside (the banner mentions it). */
  unusedTokenFile?: string;
  /** Stops what the choice started (the embedded sandbox); a no-op otherwise. */
  close(): Promise<void>;
}

/**
 * The core's settings from the environment, read first at start-up (before a port is taken): a setting that is
 * wrong, or both training logs set at once, stops the server here with a message naming them.
 */
export function coreSettingsFromEnv(env: Environment): CoreSettings {
  try {
    return readCoreSettings(env);
  } catch (error) {
    throw new StartupError(messageOf(error));
  }
}

export async function chooseUpstream(settings: CoreSettings, env: Environment, logger: Logger): Promise<UpstreamChoice> {
  for (const [event, message] of settings.ignored) logger.warn(event, { message });
  const { upstream } = settings;
  if (upstream === undefined) return startEmbeddedSandbox(settings, env, logger);
  const path = upstream.log === "strava" && upstream.credentials?.kind !== "secrets-manager" ? unsavedTokenPath(upstream) : undefined;
  if (path !== undefined) {
    const unwritable = tokenFileUnwritable(path);
    if (unwritable !== undefined) {
      throw new StartupError(
        `Rotated Strava tokens could not be kept: ${unwritable}. Set FITNESS_TOKEN_FILE to a file this user may write ` +
          "(its directory is created 0700 if missing); the server refuses to start rather than spend a refresh token it could not keep.",
      );
    }
  }
  const opened = await openToolDeps({ ...settings, upstream }, { logger });
  // A log's address may point at a sandbox (`npm run sandbox` prints such lines): then say so everywhere.
  const kind = await upstreamKindAt(upstream.api.apiBase, upstream.log);
  logger.info("upstream_selected", {
    upstream: kind,
    credentials: opened.credentials,
    ...(kind === "sandbox"
      ? {
          apiBase: upstream.api.apiBase,
          message:
            upstream.log === "strava"
              ? "STRAVA_API_BASE points at the sandbox (made-up athletes), not Strava."
              : "INTERVALS_API_BASE points at the sandbox (made-up athletes), not intervals.icu.",
        }
      : {}),
  });
  // Tokens a stopped process left are saved now, not at the first call: until then the other instances on a
  // secret would meet a spent refresh token. In the background: nothing waits on the network to start.
  void opened.saveLeftTokens();
  return { kind, log: upstream.log, opened, close: async () => {} };
}

/** The token file a Strava choice writes rotated tokens to. */
function unsavedTokenPath(upstream: Extract<ChosenUpstream, { log: "strava" }>): string | undefined {
  const credentials = upstream.credentials;
  if (credentials?.kind === "environment") return credentials.tokenFile;
  if (credentials?.kind === "token-file") return credentials.path;
  return undefined;
}

/**
 * Starts the built-in sandbox in this process on a free loopback port (the bearer and OAuth modes both use
 * it when no credentials are set). Its own SANDBOX_* knobs apply; PORT and HOST are this server's.
 * Loaded only here, so a deployment on a real log never loads the sandbox's seed data.
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

async function startEmbeddedSandbox(settings: CoreSettings, env: Environment, logger: Logger): Promise<UpstreamChoice> {
  const sandbox = await startBuiltInSandbox(env);
  const face = settings.sandboxFace;
  const addresses = face === "strava" ? [stravaApiBase, stravaTokenUrl] : [intervalsApiBase];
  const ignored = addresses.filter((setting) => isSet(env, setting)).map((setting) => setting.name);
  logger.warn("upstream_sandbox", {
    message:
      face === "strava"
        ? "No Strava credentials are set (STRAVA_CLIENT_ID, STRAVA_CLIENT_SECRET, STRAVA_REFRESH_TOKEN, FITNESS_TOKEN_FILE or FITNESS_SECRET_NAME): " +
          "serving the built-in SANDBOX, a simulated athlete with made-up activities, NOT your Strava account."
        : "No credentials are set (INTERVALS_API_KEY, or Strava's): serving the built-in SANDBOX as intervals.icu (SANDBOX_FACE), a simulated " +
          "athlete with made-up activities and wellness, NOT your intervals.icu account.",
    sandboxApiBase: face === "strava" ? sandbox.apiBase : sandbox.intervalsApiBase,
    ...(ignored.length > 0 ? { ignored: `${ignored.join(", ")} (they only apply with credentials)` } : {}),
  });
  let opened: OpenedToolDeps;
  try {
    opened = await openToolDeps(
      {
        ...settings,
        // New tokens of the sandbox die with it: nothing to keep for a later process.
        rescue: { configured: "off", runtimeDirectory: undefined },
        upstream:
          face === "strava"
            ? {
                log: "strava",
                credentials: {
                  kind: "memory",
                  credentials: { client_id: sandbox.clientId, client_secret: sandbox.clientSecret, refresh_token: sandbox.refreshToken() },
                  description: "the embedded sandbox's credentials (in memory)",
                },
                api: { apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl, timeoutMs: readSetting(env, stravaTimeoutMs) },
              }
            : {
                log: "intervals.icu",
                key: { value: sandbox.intervalsApiKey, setting: "the embedded sandbox's key" },
                api: { apiBase: sandbox.intervalsApiBase, athleteId: "0", timeoutMs: defaultIntervalsTimeoutMs },
              },
      },
      { logger },
    );
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  const choice: UpstreamChoice = { kind: "sandbox", log: face, opened, close: () => sandbox.close() };
  const unused = settings.unnamedTokenFile;
  if (!existsSync(unused)) return choice;
  logger.info("token_file_not_used", {
    path: unused,
    message: `A token file is at ${unused}, but FITNESS_TOKEN_FILE is not set: serving the sandbox. Set FITNESS_TOKEN_FILE to that path to serve its athlete.`,
  });
  return { ...choice, unusedTokenFile: unused };
}
