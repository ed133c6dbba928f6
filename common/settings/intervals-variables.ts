/**
 * The second training log, intervals.icu: the athlete's personal API key, whose data it reads, and where its
 * API lives. With the key set, a server serves intervals.icu instead of Strava; the key is a secret (HTTP Basic
 * password with the user name API_KEY) and is never logged or shown.
 */
import { ConfigurationError } from "../configuration-error.ts";
import { defineSetting, httpUrl, readSetting, text, type Environment } from "./setting.ts";

export const defaultIntervalsApiBase = "https://intervals.icu/api/v1";

export const intervalsApiKey = defineSetting({
  name: "INTERVALS_API_KEY",
  type: "secret",
  defaultText: "none",
  meaning: "the athlete's intervals.icu API key (Settings > Developer Settings there): serve their intervals.icu log instead of Strava",
  readBy: ["MCP server"],
  secret: true,
  parse: text(),
});

export const intervalsAthleteId = defineSetting({
  name: "INTERVALS_ATHLETE_ID",
  type: "0 or athlete id",
  defaultText: "0 (the key's own athlete)",
  meaning: "whose intervals.icu log to read: 0 for the key's owner, or an athlete id such as i123456",
  readBy: ["MCP server", "plugin", "authorize"],
  parse: (value) => {
    if (value === undefined) return "0";
    if (!/^(0|i?[1-9]\d{0,15})$/.test(value))
      throw new ConfigurationError(
        `INTERVALS_ATHLETE_ID must be 0 (the API key's own athlete) or an intervals.icu athlete id such as i123456 (intervals.icu's Settings page shows it); got "${value}".`,
      );
    return value;
  },
});

export const intervalsApiBase = defineSetting({
  name: "INTERVALS_API_BASE",
  type: "URL",
  defaultText: defaultIntervalsApiBase,
  meaning: "intervals.icu's API, or another server shaped like it (the sandbox); https unless on loopback",
  readBy: ["MCP server", "plugin", "authorize"],
  parse: httpUrl("INTERVALS_API_BASE", defaultIntervalsApiBase, defaultIntervalsApiBase),
});

/** What the intervals.icu client needs from the environment (intervals/intervals-settings.ts checks the address). */
export function readIntervalsSettings(env: Environment): { apiKey: string | undefined; athleteId: string; apiBase: string } {
  return {
    apiKey: readSetting(env, intervalsApiKey),
    athleteId: readSetting(env, intervalsAthleteId),
    apiBase: readSetting(env, intervalsApiBase).replace(/\/+$/, ""),
  };
}
