/**
 * The composition root's first half: the core's settings, read once, for every front end. The MCP server (HTTP
 * and stdio) reads them all from the environment, through the settings inventory (common/settings/); the plugin
 * names the training log and the credential store in its config and reads the addresses from the environment.
 * What comes out says which training log to serve and where its credentials are, or that none is set (the MCP
 * server then serves its built-in sandbox in the log's place); open-tool-deps.ts turns it into the tools'
 * dependencies.
 *
 * One log per process: intervals.icu's key together with any Strava credential is refused here, naming both,
 * so the process stops at start rather than serve a log its operator did not mean.
 */
import { ConfigurationError } from "../../common/configuration-error.ts";
import {
  awsRegion,
  fitnessSecretName,
  fitnessStoreTimeoutMs,
  fitnessTokenFile,
  readRescueDirectory,
  readStravaCredentials,
  readTokenFile,
  stravaClientId,
  stravaClientSecret,
  stravaRefreshToken,
} from "../../common/settings/credential-variables.ts";
import { intervalsApiBase, intervalsApiKey, intervalsAthleteId, readIntervalsSettings } from "../../common/settings/intervals-variables.ts";
import { sandboxFace } from "../../common/settings/sandbox-variables.ts";
import { isSet, readSetting, type Environment } from "../../common/settings/setting.ts";
import { readUpstreamSettings } from "../../common/settings/strava-variables.ts";
import type { TrainingLog } from "../../common/upstream/training-log-client.ts";
import type { RescueDirectorySetting } from "../../credentials/rescue/rescue-directory.ts";
import type { AuthorizationTarget, CredentialStoreDescription } from "../../credentials/store-choice.ts";
import { stravaEnvNames } from "../../credentials/stores/environment-store.ts";
import { checkedIntervalsApiBase, defaultIntervalsTimeoutMs } from "../../intervals/intervals-settings.ts";
import type { UpstreamSettings } from "../../strava/strava-settings.ts";

/** Strava, with the athlete's credentials in `credentials` (undefined in OAuth mode: each athlete who signs in has a store). */
export interface StravaUpstream {
  log: "strava";
  credentials: CredentialStoreDescription | undefined;
  api: UpstreamSettings;
}

/** Where intervals.icu's key is: set as a value (INTERVALS_API_KEY), or kept in a credential store (the plugin's). */
export type IntervalsKeySource = { value: string; setting: string } | { store: AuthorizationTarget };

/** intervals.icu, with the athlete's personal API key. */
export interface IntervalsUpstream {
  log: "intervals.icu";
  key: IntervalsKeySource;
  api: { apiBase: string; athleteId: string; timeoutMs: number };
}

export type ChosenUpstream = StravaUpstream | IntervalsUpstream;

export interface CoreSettings {
  /** The training log to serve and its credentials; undefined when none is set (the MCP server serves its sandbox). */
  upstream: ChosenUpstream | undefined;
  /** Which log the built-in sandbox plays when `upstream` is undefined (SANDBOX_FACE). */
  sandboxFace: TrainingLog;
  /** Deadline of each credential store call (FITNESS_STORE_TIMEOUT_MS). */
  storeTimeoutMs: number;
  /** Where new Strava tokens wait on this machine until a remote store has them. */
  rescue: RescueDirectorySetting;
  /** Settings that were set but do not apply, for the front end to log: [event, message]. */
  ignored: Array<[event: string, message: string]>;
  /** A token file at the default place that nothing named (the MCP server mentions it beside its sandbox). */
  unnamedTokenFile: string;
}

/** What the plugin's config decides, which the environment decides for the MCP server. */
export interface ConfiguredUpstream {
  log: TrainingLog;
  /** The store the plugin keeps the log's credentials in (Strava's tokens, or intervals.icu's key). */
  store: AuthorizationTarget;
}

/** The variables that name Strava credentials for the MCP server (addresses such as STRAVA_API_BASE are not among them). */
const stravaCredentialSettings = [stravaClientId, stravaClientSecret, stravaRefreshToken, fitnessTokenFile, fitnessSecretName];

/**
 * Where the core's settings come from: the environment alone (`environment`: the MCP server over HTTP and stdio),
 * the environment for OAuth mode (`oauth`: athletes sign in with Strava, so Strava it is, with no stored athlete),
 * or the plugin's config for the log and its store (a `ConfiguredUpstream`).
 */
export type SettingsSource = "environment" | "oauth" | ConfiguredUpstream;

/** The core's settings from `source`. Throws a `ConfigurationError` naming the settings that are wrong. */
export function readCoreSettings(env: Environment, source: SettingsSource = "environment"): CoreSettings {
  const common = {
    sandboxFace: readSetting(env, sandboxFace),
    storeTimeoutMs: readSetting(env, fitnessStoreTimeoutMs),
    rescue: readRescueDirectory(env),
    unnamedTokenFile: readTokenFile(env).path,
  };
  if (source === "oauth") return { ...common, ...oauthStrava(env) };
  if (source !== "environment") {
    const configured = source;
    const upstream: ChosenUpstream =
      configured.log === "strava"
        ? { log: "strava", credentials: configured.store, api: readUpstreamSettings(env) }
        : { log: "intervals.icu", key: { store: configured.store }, api: intervalsApi(env) };
    return { ...common, upstream, ignored: [] };
  }
  const key = readSetting(env, intervalsApiKey);
  const chosen: Pick<CoreSettings, "upstream" | "ignored"> =
    key !== undefined ? { upstream: intervalsFromEnvironment(env, key), ignored: [] } : stravaFromEnvironment(env);
  if (chosen.upstream !== undefined && isSet(env, sandboxFace)) {
    chosen.ignored.push([
      "sandbox_face_ignored",
      `SANDBOX_FACE applies only to the built-in sandbox, which is not served: ${chosen.upstream.log} is.`,
    ]);
  }
  return { ...common, ...chosen };
}

/**
 * OAuth mode serves Strava alone this round (its sign-in, webhook and fair share of the rate limit are Strava's):
 * intervals.icu's key is refused, naming both ways to go on.
 */
function oauthStrava(env: Environment): { upstream: StravaUpstream; ignored: CoreSettings["ignored"] } {
  if (isSet(env, intervalsApiKey)) {
    throw new ConfigurationError(
      "OAuth mode (MCP_AUTH=oauth, and the hosted function) serves Strava only: athletes sign in with Strava. INTERVALS_API_KEY is " +
        "set: unset it to run OAuth mode, or serve the intervals.icu log without MCP_AUTH=oauth (npm start, behind a bearer token, or --stdio).",
    );
  }
  const unused = [intervalsApiBase, intervalsAthleteId].filter((setting) => isSet(env, setting)).map((setting) => setting.name);
  const ignored: CoreSettings["ignored"] =
    unused.length > 0
      ? [
          [
            "intervals_settings_ignored",
            `OAuth mode serves Strava only: ${unused.join(" and ")} ${unused.length === 1 ? "is" : "are"} not used.`,
          ],
        ]
      : [];
  return { upstream: { log: "strava", credentials: undefined, api: readUpstreamSettings(env) }, ignored };
}

/** intervals.icu with INTERVALS_API_KEY, refused beside any Strava credential. */
function intervalsFromEnvironment(env: Environment, key: string): IntervalsUpstream {
  const strava = stravaCredentialSettings.filter((setting) => isSet(env, setting)).map((setting) => setting.name);
  if (strava.length > 0) {
    throw new ConfigurationError(
      `Both training logs are set: INTERVALS_API_KEY (intervals.icu) and ${strava.join(", ")} (Strava). A server serves one: ` +
        `unset INTERVALS_API_KEY to serve Strava, or unset ${strava.length === 1 ? "that variable" : "those variables"} to serve intervals.icu.`,
    );
  }
  return { log: "intervals.icu", key: { value: key, setting: intervalsApiKey.name }, api: intervalsApi(env) };
}

function intervalsApi(env: Environment): IntervalsUpstream["api"] {
  const { athleteId, apiBase } = readIntervalsSettings(env);
  return { apiBase: checkedIntervalsApiBase(apiBase), athleteId, timeoutMs: defaultIntervalsTimeoutMs };
}

/**
 * Strava from the environment, in this order: a Secrets Manager secret (FITNESS_SECRET_NAME), the three STRAVA_*
 * variables (rotations kept in the token file), a token file named alone (FITNESS_TOKEN_FILE); some but not all
 * STRAVA_* variables are an error naming the missing ones; nothing at all leaves the choice to the front end.
 */
function stravaFromEnvironment(env: Environment): { upstream: StravaUpstream | undefined; ignored: CoreSettings["ignored"] } {
  const secretName = readSetting(env, fitnessSecretName);
  const strava = readStravaCredentials(env);
  const tokenFile = readTokenFile(env);
  const api = readUpstreamSettings(env);
  if (secretName !== undefined) {
    const ignored: CoreSettings["ignored"] =
      strava.missing.length < stravaEnvNames.length
        ? [
            [
              "strava_env_ignored",
              "FITNESS_SECRET_NAME is set, so the credentials come from that secret; the STRAVA_CLIENT_ID/SECRET/REFRESH_TOKEN variables are ignored.",
            ],
          ]
        : [];
    return {
      upstream: { log: "strava", credentials: { kind: "secrets-manager", secretName, region: readSetting(env, awsRegion) }, api },
      ignored,
    };
  }
  const { clientId, clientSecret, refreshToken } = strava;
  if (clientId !== undefined && clientSecret !== undefined && refreshToken !== undefined) {
    return {
      upstream: {
        log: "strava",
        credentials: { kind: "environment", clientId, clientSecret, refreshToken, tokenFile: tokenFile.path },
        api,
      },
      ignored: [],
    };
  }
  if (strava.missing.length === stravaEnvNames.length && tokenFile.explicit) {
    return { upstream: { log: "strava", credentials: { kind: "token-file", path: tokenFile.path }, api }, ignored: [] };
  }
  if (strava.missing.length < stravaEnvNames.length) {
    throw new ConfigurationError(
      `Strava credentials are incomplete: ${strava.missing.join(", ")} ${strava.missing.length === 1 ? "is" : "are"} not set. ` +
        `Set all three of ${stravaEnvNames.join(", ")} for real Strava (or FITNESS_SECRET_NAME for a Secrets Manager secret, ` +
        "or FITNESS_TOKEN_FILE alone for a token file npm run authorize wrote), or unset them all to run against the built-in sandbox.",
    );
  }
  return { upstream: undefined, ignored: [] };
}
