/**
 * The core's dependencies for the plugin, built by the composition root (tools/composition/) on the first tool
 * call (or when the host starts the plugin's service, to save tokens a killed gateway left behind) and then shared
 * by every call (one token manager, so one refresh at a time). The plugin config names the training log
 * (`upstream`) and the store its credentials live in (the Secrets Manager secret, with new Strava tokens copied to
 * this machine's memory until the secret has them, or the local token file); for intervals.icu that store keeps
 * the athlete's API key (`intervals_api_key`). Addresses come from the environment (STRAVA_API_BASE,
 * STRAVA_TOKEN_URL, STRAVA_TIMEOUT_MS, INTERVALS_API_BASE, INTERVALS_ATHLETE_ID), the store deadline from
 * FITNESS_STORE_TIMEOUT_MS; logs go through the host's logger (a dead Strava refresh token is logged there as an
 * error, `refresh_token_dead`, saying to authorize again). A failure to build (a malformed address, a store without
 * the key) is not kept: the next call tries again and reports the same clear error until it is fixed.
 */
import type { ToolDeps } from "../tools/runner/tool-deps.ts";
import { readCoreSettings } from "../tools/composition/core-settings.ts";
import { openToolDeps, type OpenedToolDeps } from "../tools/composition/open-tool-deps.ts";
import type { Logger } from "../common/logger.ts";
import type { Environment } from "../common/settings/setting.ts";
import { pluginCredentialTarget, type PluginSettings } from "./plugin-config.ts";

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
  let opened: OpenedToolDeps | undefined;
  let building: Promise<OpenedToolDeps> | undefined;
  const build = async (): Promise<OpenedToolDeps> => {
    const core = readCoreSettings(env, { log: settings.upstream, store: pluginCredentialTarget(settings) });
    if (core.upstream === undefined) throw new Error("the plugin's config names no training log");
    opened = await openToolDeps({ ...core, upstream: core.upstream }, { logger });
    const api = core.upstream.api.apiBase;
    logger.info("fitness_tools_ready", { upstream: core.upstream.log, credentials: opened.credentials, api_base: api });
    return opened;
  };
  const get = async (): Promise<OpenedToolDeps> => {
    if (opened) return opened;
    building ??= build().finally(() => {
      building = undefined;
    });
    return building;
  };
  return Object.assign(async () => (await get()).deps, {
    settle: async () => {
      await opened?.deps.credentials.settle();
    },
    resume: () => opened?.deps.credentials.resume(),
    finishRescuedTokens: async () => {
      let built: OpenedToolDeps;
      try {
        built = await get();
      } catch {
        return; // the first tool call reports it
      }
      await built.saveLeftTokens();
    },
  });
}
