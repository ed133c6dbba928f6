import { NamedError } from "../common/named-error.ts";
import { defaultStoreTimeoutMs } from "../credentials/store-deadline.ts";

/**
 * Where the upstream lives and how long to wait for it. Both forms read these from the environment so
 * that the sandbox, a Prism mock or Strava's announced new host can be used without code changes.
 */
export interface UpstreamSettings {
  /** Base of the REST API, without a trailing slash. */
  apiBase: string;
  /** OAuth token endpoint. */
  tokenUrl: string;
  /** Per-request timeout in milliseconds (token requests included). */
  timeoutMs: number;
  /** Deadline of each credential store call in milliseconds (default 5000, credentials/store-deadline.ts). */
  storeTimeoutMs?: number;
}

export const defaultUpstreamSettings: UpstreamSettings = {
  apiBase: "https://www.strava.com/api/v3",
  tokenUrl: "https://www.strava.com/oauth/token",
  timeoutMs: 30_000,
};

export class SettingsError extends NamedError {}

export function upstreamSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): UpstreamSettings {
  return {
    apiBase: (readHttpUrl(env, "STRAVA_API_BASE", defaultUpstreamSettings.apiBase) ?? defaultUpstreamSettings.apiBase).replace(/\/+$/, ""),
    tokenUrl: readHttpUrl(env, "STRAVA_TOKEN_URL", defaultUpstreamSettings.tokenUrl) ?? defaultUpstreamSettings.tokenUrl,
    timeoutMs: readTimeout(env, "STRAVA_TIMEOUT_MS", defaultUpstreamSettings.timeoutMs),
    storeTimeoutMs: readTimeout(env, "FITNESS_STORE_TIMEOUT_MS", defaultStoreTimeoutMs),
  };
}

/** `env[name]` when it is an absolute http(s) URL, undefined when unset; else a SettingsError showing `example`. */
export function readHttpUrl(env: NodeJS.ProcessEnv, name: string, example: string): string | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  const url = URL.parse(value);
  if (url === null) throw new SettingsError(`${name} must be an absolute http(s) URL such as ${example}; got "${value}".`);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new SettingsError(`${name} must use http or https; got "${url.protocol}".`);
  }
  return value;
}

function readTimeout(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name]?.trim();
  if (!value) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 100 || parsed > 600_000) {
    throw new SettingsError(`${name} must be a whole number of milliseconds between 100 and 600000; got "${value}".`);
  }
  return parsed;
}
