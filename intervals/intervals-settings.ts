/**
 * What the intervals.icu client is given: the athlete's API key, whose log it reads, where the API lives and how
 * long a request may take. Front ends read them from the environment (common/settings/intervals-variables.ts);
 * the address is checked here, where the key would be sent to it: https, or plain http only to this machine.
 */
import { ConfigurationError } from "../common/configuration-error.ts";
import { defaultIntervalsApiBase } from "../common/settings/intervals-variables.ts";

export interface IntervalsSettings {
  /** The athlete's personal API key: the HTTP Basic password (user name `API_KEY`) of every request. */
  apiKey: string;
  /** `0` (the key's own athlete) or an athlete id such as `i123456`: the `{id}` of `/athlete/{id}/...` paths. */
  athleteId: string;
  /** Base of the REST API, without a trailing slash. */
  apiBase: string;
  /** Per-request timeout in milliseconds. */
  timeoutMs: number;
}

export const defaultIntervalsTimeoutMs = 30_000;

/**
 * The field of a token file or Secrets Manager secret that keeps the key for the plugin (beside Strava's fields,
 * which it leaves alone): written by `npm run authorize:intervals`, never by hand into plain config.
 */
export const intervalsKeyField = "intervals_api_key";

/**
 * `apiBase` without its trailing slashes, or a `ConfigurationError` naming INTERVALS_API_BASE: the key goes with
 * every request, so it may travel in the clear only to this machine (a local server such as the sandbox).
 */
export function checkedIntervalsApiBase(apiBase: string): string {
  const url = URL.parse(apiBase);
  if (url === null || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new ConfigurationError(`INTERVALS_API_BASE must be an https:// address such as ${defaultIntervalsApiBase}; got "${apiBase}".`);
  }
  if (url.username !== "" || url.password !== "") {
    // The address is not repeated: what is before the @ may be a credential.
    throw new ConfigurationError(
      "INTERVALS_API_BASE must not carry a user name or password (before an @): the API key goes in INTERVALS_API_KEY.",
    );
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw new ConfigurationError(
      `INTERVALS_API_BASE must be an https:// address: the API key goes with every request, and plain http is allowed only to ` +
        `this machine (localhost, 127.0.0.1, [::1]) for a local server such as the sandbox; got "${apiBase}".`,
    );
  }
  return apiBase.replace(/\/+$/, "");
}

/** localhost, 127.0.0.0/8 and ::1: addresses that never leave this machine. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
