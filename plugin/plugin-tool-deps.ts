/**
 * The core's dependencies for the plugin, built on the first tool call (or when the host starts the
 * plugin's service, to save tokens a killed gateway left behind) and then shared by every call
 * (one token manager, so one refresh at a time): credentials from the Secrets Manager secret named in
 * the plugin config (new tokens copied to this machine's memory until the secret has them:
 * credentials/rescue/rescuing-store.ts), upstream addresses from STRAVA_API_BASE / STRAVA_TOKEN_URL / STRAVA_TIMEOUT_MS,
 * the store deadline from FITNESS_STORE_TIMEOUT_MS, logs through the host's logger (a dead refresh token
 * is logged there as an error, `refresh_token_dead`, saying to authorize again). A failure to build (a
 * malformed STRAVA_API_BASE) is not kept: the next call tries again and reports the same clear error
 * until it is fixed.
 */
import { createToolDeps, type ToolDeps } from "../tools/runner/create-tool-deps.ts";
import type { CredentialStore } from "../credentials/credential-store.ts";
import { finishLeftTokenCopies, tokenRescueFromEnv } from "../credentials/rescue/rescuing-store.ts";
import { defaultStoreTimeoutMs } from "../credentials/store-deadline.ts";
import { SecretsManagerStore } from "../credentials/stores/secrets-manager-store.ts";
import { upstreamSettingsFromEnv } from "../strava/strava-settings.ts";
import type { Logger } from "../common/logger.ts";
import type { PluginSettings } from "./plugin-config.ts";

/** The dependencies, built on first use; `settle` is for the host's stop (see plugin/token-settle-service.ts). */
export type LazyToolDeps = (() => ToolDeps) & {
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

export function lazyPluginToolDeps(settings: PluginSettings, logger: Logger, env: NodeJS.ProcessEnv = process.env): LazyToolDeps {
  let deps: ToolDeps | undefined;
  let store: CredentialStore | undefined;
  let storeTimeoutMs = defaultStoreTimeoutMs;
  const get = (): ToolDeps => {
    if (deps) return deps;
    const upstream = upstreamSettingsFromEnv(env);
    storeTimeoutMs = upstream.storeTimeoutMs ?? defaultStoreTimeoutMs;
    store = tokenRescueFromEnv(env, logger)(
      new SecretsManagerStore({ secretName: settings.secretName, region: settings.cloudRegion, requestTimeoutMs: upstream.storeTimeoutMs }),
    );
    deps = createToolDeps({ store, logger, settings: upstream });
    logger.info("fitness_tools_ready", { credentials: store.description, api_base: upstream.apiBase });
    return deps;
  };
  return Object.assign(get, {
    settle: async () => {
      await deps?.tokens.settle();
    },
    resume: () => deps?.tokens.resume(),
    finishRescuedTokens: async () => {
      try {
        get();
      } catch {
        return; // the first tool call reports it
      }
      if (store) await finishLeftTokenCopies(store, storeTimeoutMs);
    },
  });
}
