/**
 * The dependencies every tool call uses, built once per process by a front end and passed in
 * (never imported as singletons), so tests and the sandbox can swap any of them.
 */
import type { Logger } from "../../common/logger.ts";
import { AthleteIdentity } from "../../strava/athlete-identity.ts";
import type { CredentialStore } from "../../credentials/credential-store.ts";
import { createHttpSender, type SendHttp } from "../../common/upstream/http-exchange.ts";
import { TokenManager } from "../../credentials/token-manager.ts";
import { defaultMaxConcurrentRequests, UpstreamClient, type UpstreamAdmission } from "../../strava/strava-client.ts";
import { defaultUpstreamSettings, type UpstreamSettings } from "../../strava/strava-settings.ts";

export interface ToolDeps {
  client: UpstreamClient;
  athlete: AthleteIdentity;
  tokens: TokenManager;
  logger: Logger;
  /** Epoch milliseconds: the clock the token manager reads, for tools that need "today". */
  now: () => number;
}

export interface ToolDepsOptions {
  store: CredentialStore;
  logger: Logger;
  settings?: Partial<UpstreamSettings>;
  /** Deadline of each credential store call (default 5 s, credentials/store-deadline.ts). */
  storeTimeoutMs?: number;
  /** The network seam (default: undici, one keep-alive pool per origin bounded like the calls in flight). */
  http?: SendHttp;
  /** Clock in epoch milliseconds (tests move it to expire tokens). */
  now?: () => number;
  /** Source of this process's refresh moment within the spread (tests fix it). */
  random?: () => number;
  /** Upstream calls in flight at once (default 64); see `UpstreamClient`. */
  maxConcurrentRequests?: number;
  /** A say over each upstream request before it is sent (see `UpstreamAdmission`). */
  admission?: UpstreamAdmission;
  /** Called when Strava refused the stored refresh token (see `TokenManagerOptions.onRefreshTokenDead`). */
  onRefreshTokenDead?: () => Promise<void>;
}

export function createToolDeps(options: ToolDepsOptions): ToolDeps {
  const settings: UpstreamSettings = { ...defaultUpstreamSettings, ...options.settings };
  const maxConcurrentRequests = options.maxConcurrentRequests ?? defaultMaxConcurrentRequests;
  const http = options.http ?? createHttpSender({ connectionsPerOrigin: maxConcurrentRequests });
  const tokens = new TokenManager({
    store: options.store,
    tokenUrl: settings.tokenUrl,
    timeoutMs: settings.timeoutMs,
    storeTimeoutMs: options.storeTimeoutMs,
    logger: options.logger,
    http,
    now: options.now,
    random: options.random,
    onRefreshTokenDead: options.onRefreshTokenDead,
  });
  const client = new UpstreamClient({
    settings,
    tokens,
    logger: options.logger,
    http,
    now: options.now,
    maxConcurrentRequests,
    admission: options.admission,
  });
  return { client, athlete: new AthleteIdentity(client), tokens, logger: options.logger, now: options.now ?? Date.now };
}
