/**
 * The composition root's second half: from the core's settings (core-settings.ts), open the credential store
 * and build the tools' dependencies for the chosen training log, the same way for every front end (the MCP
 * server over HTTP and stdio, the plugin, OAuth mode for each of its athletes).
 *
 * - Strava (or the sandbox in its place): the store the settings describe (credentials/store-choice.ts), the
 *   token manager on it and Strava's client (tools/runner/create-tool-deps.ts).
 * - intervals.icu (or the sandbox's intervals.icu face): the key as set, or read from the token file or secret
 *   that keeps it (`intervals_api_key`), and intervals.icu's client (tools/runner/intervals-tool-deps.ts).
 *
 * What comes back is upstream-neutral: the dependencies, the tool table of the log, and one step for after
 * start-up (saving Strava tokens a stopped process left behind). Nothing is sent to the training log here.
 */
import type { Logger } from "../../common/logger.ts";
import { type SendHttp } from "../../common/upstream/http-exchange.ts";
import { CredentialsMissingError, type CredentialStore } from "../../credentials/credential-store.ts";
import { finishLeftTokenCopies } from "../../credentials/rescue/rescuing-store.ts";
import { withDeadline } from "../../credentials/store-deadline.ts";
import { openCredentialStore, openKeyStore, type AuthorizationTarget } from "../../credentials/store-choice.ts";
import { ConfigurationError } from "../../common/configuration-error.ts";
import { shellQuote } from "../../common/shell-quote.ts";
import { intervalsKeyField } from "../../intervals/intervals-settings.ts";
import type { UpstreamAdmission } from "../../strava/strava-client.ts";
import type { ToolDefinition } from "../definition/tool-definition.ts";
import { toolTableFor } from "../table.ts";
import { createToolDeps, type StravaToolDeps } from "../runner/create-tool-deps.ts";
import { createIntervalsToolDeps } from "../runner/intervals-tool-deps.ts";
import type { ToolDeps } from "../runner/tool-deps.ts";
import type { ChosenUpstream, CoreSettings, IntervalsUpstream, StravaUpstream } from "./core-settings.ts";

export interface OpenOptions {
  logger: Logger;
  /** The network seam (default: undici). */
  http?: SendHttp;
  /** Clock in epoch milliseconds. */
  now?: () => number;
}

export interface OpenedToolDeps {
  deps: ToolDeps;
  /** The tools of the log served (tools/table.ts). */
  table: readonly ToolDefinition[];
  /** Where the credentials are, for the log line that says what is served (never a value). */
  credentials: string;
  /**
   * After start-up, in the background: saves Strava tokens a stopped process left on this machine for a remote
   * store, so the store's other users meet the live refresh token. Never rejects; nothing to do for intervals.icu.
   */
  saveLeftTokens(): Promise<void>;
}

/** The store the settings name, opened, and the tools' dependencies on it. */
export async function openToolDeps(
  settings: Pick<CoreSettings, "storeTimeoutMs" | "rescue"> & { upstream: ChosenUpstream },
  options: OpenOptions,
): Promise<OpenedToolDeps> {
  const { upstream } = settings;
  if (upstream.log === "intervals.icu") return openIntervals(upstream, settings.storeTimeoutMs, options);
  if (upstream.credentials === undefined)
    throw new TypeError("openToolDeps needs one athlete's store: OAuth mode builds each athlete's with stravaToolDepsOn");
  const store = await openCredentialStore(upstream.credentials, {
    logger: options.logger,
    requestTimeoutMs: settings.storeTimeoutMs,
    rescue: settings.rescue,
  });
  return {
    deps: stravaToolDepsOn(store, upstream.api, { ...options, storeTimeoutMs: settings.storeTimeoutMs }),
    table: toolTableFor("strava"),
    credentials: store.description,
    saveLeftTokens: () => finishLeftTokenCopies(store, settings.storeTimeoutMs),
  };
}

/**
 * Strava's dependencies on a store already open: the second half of `openToolDeps`, and what OAuth mode calls for
 * each athlete's own store, with a say over each request (`admission`: the athlete's fair share).
 */
export function stravaToolDepsOn(
  store: CredentialStore,
  api: StravaUpstream["api"],
  options: OpenOptions & {
    storeTimeoutMs: number;
    admission?: UpstreamAdmission;
    /** Called when Strava refused the stored refresh token (OAuth mode ends the athlete's grants). */
    onRefreshTokenDead?: () => Promise<void>;
  },
): StravaToolDeps {
  return createToolDeps({
    store,
    logger: options.logger,
    settings: api,
    storeTimeoutMs: options.storeTimeoutMs,
    ...(options.http ? { http: options.http } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.admission ? { admission: options.admission } : {}),
    ...(options.onRefreshTokenDead ? { onRefreshTokenDead: options.onRefreshTokenDead } : {}),
  });
}

async function openIntervals(upstream: IntervalsUpstream, storeTimeoutMs: number, options: OpenOptions): Promise<OpenedToolDeps> {
  const { key } = upstream;
  let apiKey: string;
  let keyAdvice: string;
  let credentials: string;
  if ("value" in key) {
    apiKey = key.value;
    credentials = key.setting;
    keyAdvice = `intervals.icu refused the API key in ${key.setting}: set it to the key shown under Settings > Developer Settings on intervals.icu and start the server again.`;
  } else {
    const read = await readKeyFromStore(key.store, storeTimeoutMs);
    apiKey = read.apiKey;
    credentials = `${read.description} (${intervalsKeyField})`;
    keyAdvice =
      `intervals.icu refused the API key kept in the ${read.description}: write the key shown under Settings > Developer Settings on ` +
      `intervals.icu with ${authorizeIntervalsCommand(key.store)}.`;
  }
  return {
    deps: createIntervalsToolDeps({
      settings: { apiKey, athleteId: upstream.api.athleteId, apiBase: upstream.api.apiBase, timeoutMs: upstream.api.timeoutMs },
      keyAdvice,
      logger: options.logger,
      ...(options.http ? { http: options.http } : {}),
      ...(options.now ? { now: options.now } : {}),
    }),
    table: toolTableFor("intervals.icu"),
    credentials,
    saveLeftTokens: async () => {},
  };
}

/** The operator's command that writes intervals.icu's key into `target` (its key is read from a prompt, never the command line). */
export function authorizeIntervalsCommand(target: AuthorizationTarget): string {
  return target.kind === "token-file"
    ? `npm run authorize:intervals -- --store file --token-file ${shellQuote(target.path)}`
    : `npm run authorize:intervals -- --store secrets-manager --secret-name ${shellQuote(target.secretName)} --region ${target.region}`;
}

async function readKeyFromStore(target: AuthorizationTarget, storeTimeoutMs: number): Promise<{ apiKey: string; description: string }> {
  const store = await openKeyStore(target, { requestTimeoutMs: storeTimeoutMs });
  const missing = (what: string): ConfigurationError =>
    new ConfigurationError(
      `${what}, so the intervals.icu tools have no API key. Write the key shown under Settings > Developer Settings on intervals.icu ` +
        `with ${authorizeIntervalsCommand(target)} (it asks for the key; never put it in the plugin's config).`,
    );
  let apiKey: string | undefined;
  try {
    apiKey = await withDeadline(
      storeTimeoutMs,
      () => `The ${store.description} did not answer within ${storeTimeoutMs / 1000} s; nothing was sent to intervals.icu. Try again.`,
      (signal) => store.readKey(intervalsKeyField, signal),
    );
  } catch (error) {
    if (error instanceof CredentialsMissingError) throw missing(`The ${store.description} does not exist`);
    throw error;
  }
  if (apiKey === undefined) throw missing(`The ${store.description} holds no ${intervalsKeyField}`);
  return { apiKey, description: store.description };
}
