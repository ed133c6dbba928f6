/**
 * OAuth mode's settings (`MCP_AUTH=oauth`), read from the environment once at start-up through the settings
 * inventory (common/settings/oauth-variables.ts). Each bad value is a configuration error that names the
 * variable and says what would be right; what depends on more than one variable is checked here:
 *
 * - `PUBLIC_URL`: the server's external origin (issuer, resource identifier `PUBLIC_URL/mcp`, the Strava
 *   callback). HTTPS, unless the server is on loopback alone: its host is loopback and it listens on loopback
 *   only (then plain http is fine: nobody else can reach it). A loopback PUBLIC_URL does not make a server
 *   bound to every interface private: where it listens counts too (`beyondLoopback`). Unset, a server bound to
 *   loopback uses the address it listens on; bound beyond loopback it is required.
 * - `MCP_ATHLETES`: the Strava athlete ids this deployment serves (comma separated, at most
 *   `STRAVA_ATHLETE_LIMIT`, default 10: Strava's Standard tier). Unset: only its owner, the first athlete
 *   who signs in (claimed once in the store; see docs/operators/oauth-mode.md).
 * - `STRAVA_AUTHORIZE_URL`, `STRAVA_REVOKE_URL`: Strava's OAuth pages (defaults: Strava's; the token URL
 *   and API base are the upstream's own settings).
 * - `STRAVA_WEBHOOK_VERIFY_TOKEN`: the verify_token of the application's push subscription;
 *   `STRAVA_WEBHOOK_SUBSCRIPTION_ID`: its id (unset: asked of Strava when the first event arrives).
 * - `STRAVA_RATE_LIMITS`: the application's limits as `overall15min,overallDaily,read15min,readDaily`
 *   (default Strava's 200,2000,100,1000), shared fairly by the admitted athletes.
 * - `MCP_CLIENT_ADDRESS_HEADER`: behind a proxy, the header it puts the client's address in (such as
 *   `x-forwarded-for`); unset, the connection's address counts (request-origin.ts).
 */
import { isIP } from "node:net";
import { readSetting, type Environment } from "../common/settings/setting.ts";
import {
  mcpAthletes,
  mcpClientAddressHeader,
  publicUrl,
  stravaAthleteLimit,
  stravaRateLimits,
  stravaWebhookSubscriptionId,
  stravaWebhookVerifyToken,
} from "../common/settings/oauth-variables.ts";
import { stravaAuthorizeUrl, stravaPublishedRateLimits, stravaRevokeUrl } from "../common/settings/strava-variables.ts";
import { ConfigurationError } from "../common/configuration-error.ts";

export interface OAuthSettings {
  /** PUBLIC_URL without a trailing slash, or undefined to use the listening address (loopback only). */
  publicUrl: string | undefined;
  /**
   * Whether anybody but this machine's own users may reach the server: it listens beyond loopback, or its
   * PUBLIC_URL is not loopback. Such a server needs MCP_ATHLETES and https, and fetches no client metadata
   * document from loopback.
   */
  beyondLoopback: boolean;
  /** Why it is beyond loopback, for messages: `it listens on HOST=0.0.0.0`, or PUBLIC_URL's origin. */
  reachedThrough: string | undefined;
  /** undefined: the owner only. */
  admittedAthletes: string[] | undefined;
  athleteLimit: number;
  stravaAuthorizeUrl: string;
  stravaRevokeUrl: string | undefined;
  webhookVerifyToken: string | undefined;
  webhookSubscriptionId: number | undefined;
  /** The header a trusted proxy names the client's address in (lower case), or undefined. */
  clientAddressHeader: string | undefined;
  applicationLimits: { overall: [number, number]; read: [number, number] };
}

export { defaultStravaAuthorizeUrl } from "../common/settings/strava-variables.ts";

/**
 * `host` is the address the server listens on (HOST); undefined for the hosted function, which is reached
 * only at its PUBLIC_URL (required there).
 */
export function oauthSettingsFromEnv(env: Environment, host: string | undefined): OAuthSettings {
  const athleteLimit = readSetting(env, stravaAthleteLimit);
  const listensBeyondLoopback = host !== undefined && !isLoopbackHostname(host);
  const origin = publicUrlFrom(readSetting(env, publicUrl), host, listensBeyondLoopback);
  const publicBeyondLoopback = origin !== undefined && !isLoopbackHostname(new URL(origin).hostname);
  return {
    publicUrl: origin,
    beyondLoopback: listensBeyondLoopback || publicBeyondLoopback,
    reachedThrough: listensBeyondLoopback ? `it listens on HOST=${host}` : publicBeyondLoopback ? origin : undefined,
    admittedAthletes: athletesWithin(readSetting(env, mcpAthletes), athleteLimit),
    athleteLimit,
    stravaAuthorizeUrl: readSetting(env, stravaAuthorizeUrl),
    stravaRevokeUrl: readSetting(env, stravaRevokeUrl),
    webhookVerifyToken: readSetting(env, stravaWebhookVerifyToken),
    webhookSubscriptionId: readSetting(env, stravaWebhookSubscriptionId),
    clientAddressHeader: readSetting(env, mcpClientAddressHeader),
    applicationLimits: readSetting(env, stravaRateLimits) ?? stravaPublishedRateLimits,
  };
}

/** Whether `hostname` (as URL.hostname writes it) is a loopback name or address. */
export function isLoopbackHostname(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, "");
  if (bare === "localhost") return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  return bare === "::1";
}

function publicUrlFrom(raw: string | undefined, host: string | undefined, listensBeyondLoopback: boolean): string | undefined {
  if (!raw) {
    if (host !== undefined && !listensBeyondLoopback) return undefined;
    throw new ConfigurationError(
      host === undefined
        ? "PUBLIC_URL is required for the hosted function: set it to the https:// address clients reach it at (its function URL without the trailing slash, or your domain in front of it)."
        : `PUBLIC_URL is required in OAuth mode when the server listens beyond loopback (HOST=${host}): set it to the https:// address clients reach it at, such as https://fitness.example.com.`,
    );
  }
  const url = URL.parse(raw);
  if (url === null || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new ConfigurationError(`PUBLIC_URL must be an absolute https:// URL such as https://fitness.example.com; got "${raw}".`);
  }
  if ((url.pathname !== "/" && url.pathname !== "") || url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    throw new ConfigurationError(
      `PUBLIC_URL must be an origin only (scheme, host and port, no path, query or user): got "${raw}". The MCP endpoint is PUBLIC_URL/mcp.`,
    );
  }
  if (url.protocol === "http:" && listensBeyondLoopback) {
    throw new ConfigurationError(
      `PUBLIC_URL must use https when the server listens beyond loopback (HOST=${host}): others on the network would reach its sign-in and tokens in the clear; got "${raw}". ` +
        "Put a TLS proxy in front and set PUBLIC_URL to its https address, or listen on loopback only (HOST=127.0.0.1).",
    );
  }
  if (url.protocol === "http:" && !isLoopbackHostname(url.hostname)) {
    throw new ConfigurationError(
      `PUBLIC_URL must use https in OAuth mode (tokens and Strava sign-ins would cross the network in the clear); got "${raw}". Plain http is allowed only for a loopback address.`,
    );
  }
  return url.origin;
}

function athletesWithin(ids: string[] | undefined, limit: number): string[] | undefined {
  if (ids === undefined) return undefined;
  if (ids.length > limit) {
    throw new ConfigurationError(
      `MCP_ATHLETES names ${ids.length} athletes, more than the Strava application serves (STRAVA_ATHLETE_LIMIT=${limit}; Strava's Standard tier allows 10). Remove some, or raise STRAVA_ATHLETE_LIMIT if Strava granted your application more.`,
    );
  }
  return ids;
}
