/**
 * The core's dependencies for the plugin, built on the first tool call (or when the host starts the
 * plugin's service, to save tokens a killed gateway left behind) and then shared by every call
 * (one token manager, so one refresh at a time): credentials from the store the plugin config names (the
 * Secrets Manager secret, with new tokens copied to this machine's memory until the secret has them, or the
 * local token file: credentials/store-choice.ts), upstream addresses from STRAVA_API_BASE / STRAVA_TOKEN_URL /
 * STRAVA_TIMEOUT_MS, the store deadline from FITNESS_STORE_TIMEOUT_MS, logs through the host's logger (a dead
 * refresh token is logged there as an error, `refresh_token_dead`, saying to authorize again). A failure to
 * build (a malformed STRAVA_API_BASE) is not kept: the next call tries again and reports the same clear
 * error until it is fixed.
 */
import { createToolDeps, type ToolDeps } from "../tools/runner/create-tool-deps.ts";
import type { CredentialStore } from "../credentials/credential-store.ts";
import { finishLeftTokenCopies } from "../credentials/rescue/rescuing-store.ts";
import { openCredentialStore, type CredentialStoreDescription } from "../credentials/store-choice.ts";
import type { Logger } from "../common/logger.ts";
import { fitnessStoreTimeoutMs, readRescueDirectory } from "../common/settings/credential-variables.ts";
import { readSetting, type Environment } from "../common/settings/setting.ts";
import { readUpstreamSettings } from "../common/settings/strava-variables.ts";
import { tokenFilePath, type PluginSettings } from "./plugin-config.ts";

/** The dependencies, built on first use; `settle` is for the host's stop (see plugin/token-settle-service.ts). */
export type LazyToolDeps = (() => Promise<ToolDeps>) & {
  /** Waits for a token refresh in progress and its save (nothing to wait for if no call ever ran). */
  settle(): Promise<void>;
  /** After `settle`, lets refreshes start again (the host started the service again). */
  resume(): void;
  /**
   * Saves the token copies a stopped gateway left on this machine (credentials/rescue/rescuing-store.ts) now,
   * not at the first tool call, so the secret's other users meet the live refresh token. Builds the
   * dependencies to do so; a configuration they cannot be built from is left for the first call to report.
   */
  finishRescuedTokens(): Promise<void>;
};

export function lazyPluginToolDeps(settings: PluginSettings, logger: Logger, env: Environment = process.env): LazyToolDeps {
  let deps: ToolDeps | undefined;
  let store: CredentialStore | undefined;
  let building: Promise<ToolDeps> | undefined;
  const storeTimeoutMs = (): number => readSetting(env, fitnessStoreTimeoutMs);
  const description: CredentialStoreDescription =
    settings.credentialStore === "token-file"
      ? { kind: "token-file", path: tokenFilePath(settings) }
      : { kind: "secrets-manager", secretName: settings.secretName, region: settings.cloudRegion };
  const build = async (): Promise<ToolDeps> => {
    const upstream = readUpstreamSettings(env);
    const timeoutMs = storeTimeoutMs();
    store = await openCredentialStore(description, { logger, requestTimeoutMs: timeoutMs, rescue: readRescueDirectory(env) });
    deps = createToolDeps({ store, logger, settings: upstream, storeTimeoutMs: timeoutMs });
    logger.info("fitness_tools_ready", { credentials: store.description, api_base: upstream.apiBase });
    return deps;
  };
  const get = async (): Promise<ToolDeps> => {
    if (deps) return deps;
    building ??= build().finally(() => {
      building = undefined;
    });
    return building;
  };
  return Object.assign(get, {
    settle: async () => {
      await deps?.tokens.settle();
    },
    resume: () => deps?.tokens.resume(),
    finishRescuedTokens: async () => {
      try {
        await get();
      } catch {
        return; // the first tool call reports it
      }
      if (store) await finishLeftTokenCopies(store, storeTimeoutMs());
    },
  });
}
