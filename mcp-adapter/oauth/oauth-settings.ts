/**
 * OAuth mode's settings (`MCP_AUTH=oauth`), read from the environment once at start-up. Each bad value
 * is a StartupError that names the variable and says what would be right.
 *
 * - `PUBLIC_URL`: the server's external origin (issuer, resource identifier `PUBLIC_URL/mcp`, the Strava
 *   callback). HTTPS, unless its host is loopback (then plain http is fine: nobody else can reach it).
 *   Unset, a server bound to loopback uses the address it listens on; bound beyond loopback it is required.
 * - `MCP_ATHLETES`: the Strava athlete ids this deployment serves (comma separated, at most
 *   `STRAVA_ATHLETE_LIMIT`, default 10: Strava's Standard tier). Unset: only its owner, the first athlete
 *   who signs in (claimed once in the store; see the README).
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
import { StartupError } from "../startup-error.ts";

export type AuthMode = "bearer" | "oauth";

export interface OAuthSettings {
  /** PUBLIC_URL without a trailing slash, or undefined to use the listening address (loopback only). */
  publicUrl: string | undefined;
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

export const defaultStravaAuthorizeUrl = "https://www.strava.com/oauth/authorize";

export function authModeFromEnv(env: NodeJS.ProcessEnv): AuthMode {
  const value = env["MCP_AUTH"]?.trim().toLowerCase();
  if (!value || value === "bearer") return "bearer";
  if (value === "oauth") return "oauth";
  throw new StartupError(`MCP_AUTH must be "bearer" (the default: a static token) or "oauth" (MCP authorization with Strava sign-in); got "${env["MCP_AUTH"]}".`);
}

export function oauthSettingsFromEnv(env: NodeJS.ProcessEnv, host: string): OAuthSettings {
  const athleteLimit = wholeNumber(env, "STRAVA_ATHLETE_LIMIT", 1, 100_000) ?? 10;
  return {
    publicUrl: publicUrlFrom(env, host),
    admittedAthletes: athletesFrom(env, athleteLimit),
    athleteLimit,
    stravaAuthorizeUrl: httpUrl(env, "STRAVA_AUTHORIZE_URL") ?? defaultStravaAuthorizeUrl,
    stravaRevokeUrl: httpUrl(env, "STRAVA_REVOKE_URL"),
    webhookVerifyToken: env["STRAVA_WEBHOOK_VERIFY_TOKEN"]?.trim() || undefined,
    webhookSubscriptionId: wholeNumber(env, "STRAVA_WEBHOOK_SUBSCRIPTION_ID", 1, Number.MAX_SAFE_INTEGER),
    clientAddressHeader: headerName(env, "MCP_CLIENT_ADDRESS_HEADER"),
    applicationLimits: limitsFrom(env),
  };
}

/** Whether `hostname` (as URL.hostname writes it) is a loopback name or address. */
export function isLoopbackHostname(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, "");
  if (bare === "localhost") return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  return bare === "::1";
}

function publicUrlFrom(env: NodeJS.ProcessEnv, host: string): string | undefined {
  const raw = env["PUBLIC_URL"]?.trim();
  if (!raw) {
    if (isLoopbackHostname(host)) return undefined;
    throw new StartupError(
      `PUBLIC_URL is required in OAuth mode when the server listens beyond loopback (HOST=${host}): set it to the https:// address clients reach it at, such as https://fitness.example.com.`,
    );
  }
  const url = URL.parse(raw);
  if (url === null || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new StartupError(`PUBLIC_URL must be an absolute https:// URL such as https://fitness.example.com; got "${raw}".`);
  }
  if ((url.pathname !== "/" && url.pathname !== "") || url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    throw new StartupError(`PUBLIC_URL must be an origin only (scheme, host and port, no path, query or user): got "${raw}". The MCP endpoint is PUBLIC_URL/mcp.`);
  }
  if (url.protocol === "http:" && !isLoopbackHostname(url.hostname)) {
    throw new StartupError(
      `PUBLIC_URL must use https in OAuth mode (tokens and Strava sign-ins would cross the network in the clear); got "${raw}". Plain http is allowed only for a loopback address.`,
    );
  }
  return url.origin;
}

function athletesFrom(env: NodeJS.ProcessEnv, limit: number): string[] | undefined {
  const raw = env["MCP_ATHLETES"]?.trim();
  if (!raw) return undefined;
  const ids = raw.split(",").map((part) => part.trim()).filter((part) => part !== "");
  const bad = ids.filter((id) => !/^\d{1,20}$/.test(id));
  if (bad.length > 0 || ids.length === 0) {
    throw new StartupError(`MCP_ATHLETES must be Strava athlete ids separated by commas, such as 48201735,61930114; "${bad.join(", ") || raw}" is not.`);
  }
  const unique = [...new Set(ids)];
  if (unique.length > limit) {
    throw new StartupError(
      `MCP_ATHLETES names ${unique.length} athletes, more than the Strava application serves (STRAVA_ATHLETE_LIMIT=${limit}; Strava's Standard tier allows 10). Remove some, or raise STRAVA_ATHLETE_LIMIT if Strava granted your application more.`,
    );
  }
  return unique;
}

function limitsFrom(env: NodeJS.ProcessEnv): { overall: [number, number]; read: [number, number] } {
  const raw = env["STRAVA_RATE_LIMITS"]?.trim();
  if (!raw) return { overall: [200, 2000], read: [100, 1000] };
  const parts = raw.split(",").map((part) => part.trim());
  if (parts.length !== 4 || !parts.every((part) => /^\d+$/.test(part) && Number(part) > 0)) {
    throw new StartupError(`STRAVA_RATE_LIMITS must be four whole numbers "overall15min,overallDaily,read15min,readDaily", such as 200,2000,100,1000; got "${raw}".`);
  }
  const [o15, oDay, r15, rDay] = parts.map(Number) as [number, number, number, number];
  return { overall: [o15, oDay], read: [r15, rDay] };
}

function headerName(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(raw)) throw new StartupError(`${name} must be an HTTP header name such as x-forwarded-for; got "${raw}".`);
  return raw.toLowerCase();
}

function httpUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const url = URL.parse(raw);
  if (url === null || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new StartupError(`${name} must be an absolute http(s) URL; got "${raw}".`);
  }
  return raw;
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new StartupError(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  return Number(raw);
}
