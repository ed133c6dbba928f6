/**
 * Where the upstream lives and how long to wait for it. Front ends read these from the environment
 * (common/settings/strava-variables.ts) so that the sandbox, a Prism mock or Strava's announced new host can
 * be used without code changes; the core only receives them.
 */
import { defaultStravaApiBase, defaultStravaTimeoutMs, defaultStravaTokenUrl } from "../common/settings/strava-variables.ts";

export interface UpstreamSettings {
  /** Base of the REST API, without a trailing slash. */
  apiBase: string;
  /** OAuth token endpoint. */
  tokenUrl: string;
  /** Per-request timeout in milliseconds (token requests included). */
  timeoutMs: number;
}

export const defaultUpstreamSettings: UpstreamSettings = {
  apiBase: defaultStravaApiBase,
  tokenUrl: defaultStravaTokenUrl,
  timeoutMs: defaultStravaTimeoutMs,
};
