/**
 * Strava's side of the tools' dependencies (tools/runner/tool-deps.ts): the token manager on the athlete's
 * credential store, Strava's client that asks it for tokens, and the athlete's id looked up once. Called by the
 * composition root (tools/composition/open-tool-deps.ts) for Strava and for the sandbox in Strava's place; tests
 * call it directly to reach the token manager (`tokens`), which nothing above `credentials/` needs.
 */
import type { Logger } from "../../common/logger.ts";
import { AthleteIdentity } from "../../strava/athlete-identity.ts";
import type { CredentialStore } from "../../credentials/credential-store.ts";
import { createHttpSender, type SendHttp } from "../../common/upstream/http-exchange.ts";
import { TokenManager } from "../../credentials/token-manager.ts";
import { defaultMaxConcurrentRequests, UpstreamClient, type UpstreamAdmission } from "../../strava/strava-client.ts";
import { defaultUpstreamSettings, type UpstreamSettings } from "../../strava/strava-settings.ts";
import type { ToolDeps } from "./tool-deps.ts";

/** The tools' dependencies on Strava, with its token manager and client as themselves. */
export interface StravaToolDeps extends ToolDeps {
  readonly log: "strava";
  client: UpstreamClient;
  athlete: AthleteIdentity;
  tokens: TokenManager;
}

/**
 * Strava's dependencies under the name they had before a second log: for OAuth mode, which serves Strava only
 * (its webhook reads Strava's client), and for tests that reach the token manager. Front ends take `ToolDeps`
 * from tool-deps.ts.
 */
export type { StravaToolDeps as ToolDeps };

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

export function createToolDeps(options: ToolDepsOptions): StravaToolDeps {
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
  return {
    log: "strava",
    client,
    athlete: new AthleteIdentity(client),
    tokens,
    credentials: tokens,
    logger: options.logger,
    now: options.now ?? Date.now,
  };
}
