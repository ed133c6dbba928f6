/**
 * The coach's debriefs of new workouts (the fitness plugin's `debriefs` setting, plugin/debriefs/) and what
 * a setup run does with them: --debriefs 15m|off writes that choice (the operator's value wins over the
 * config's), a rerun without it keeps the config's, and a config without one gets the coach's default,
 * "15m" (the fragment's). The plugin's `debriefAgent` names the agent being set up, so the debriefs wake it.
 */
import { debriefIntervalMinutes, debriefIntervalRange, debriefsPattern } from "../../plugin/plugin-config.ts";
import { getPath, isJsonObject, type JsonObject, type JsonValue } from "./json-tree.ts";
import { pluginConfigPath } from "./credentials-in-config.ts";
import { CoachSetupError } from "./setup-error.ts";

/** The keys of the plugin's config an explicit --debriefs replaces. */
export const chosenDebriefKeys = ["debriefs"] as const;

export interface DebriefsPlan {
  /** add: none in the config; keep: the config's (or the same as asked); replace: --debriefs changes it. */
  action: "add" | "keep" | "replace";
  /** The setting the config holds after the run. */
  value: string;
  explicit: boolean;
  previous?: JsonValue;
}

/** `--debriefs VALUE` as given: "off" or an interval from 5m to 24h. */
export function debriefsOption(value: string): string {
  const trimmed = value.trim();
  const minutes = debriefIntervalMinutes(trimmed);
  const { minMinutes, maxMinutes } = debriefIntervalRange;
  if (!debriefsPattern.test(trimmed) || (minutes !== undefined && (minutes < minMinutes || minutes > maxMinutes))) {
    throw new CoachSetupError(
      `--debriefs must be "off" or how often to check for new workouts, from ${minMinutes}m to 24h (such as ${debriefIntervalRange.defaultSetting} or 1h); got "${value}".`,
    );
  }
  return trimmed;
}

/** The plugin config's `debriefs` as the file holds it (undefined: not set). */
export function configuredDebriefs(config: JsonObject): JsonValue | undefined {
  const block = getPath(config, pluginConfigPath);
  return isJsonObject(block) ? block["debriefs"] : undefined;
}

export function planDebriefs(explicit: string | undefined, configured: JsonValue | undefined, fragmentDefault: string): DebriefsPlan {
  if (configured === undefined) return { action: "add", value: explicit ?? fragmentDefault, explicit: explicit !== undefined };
  if (explicit === undefined) {
    // A value the plugin would refuse is kept as it is (the plugin names it at start); the report shows it.
    return { action: "keep", value: typeof configured === "string" ? configured : JSON.stringify(configured), explicit: false };
  }
  return configured === explicit
    ? { action: "keep", value: explicit, explicit: true }
    : { action: "replace", value: explicit, explicit: true, previous: configured };
}

/** The report's lines: the setting as written, what the run did, and what it means. */
export function debriefsSection(plan: DebriefsPlan, dryRun: boolean): string[] {
  const path = [...pluginConfigPath, "debriefs"].join(".");
  const would = dryRun ? "would be " : "";
  const what =
    plan.action === "add"
      ? plan.explicit
        ? `${would}added, as --debriefs ${plan.value} asked`
        : `${would}added: the coach's default (no --debriefs given, none in the config)`
      : plan.action === "replace"
        ? `${would}changed from ${JSON.stringify(plan.previous)}, as --debriefs ${plan.value} asked`
        : plan.explicit
          ? `kept: it already is what --debriefs ${plan.value} asks`
          : "kept: already in the config (run setup with --debriefs 15m or --debriefs off to change it)";
  const meaning =
    plan.value === "off"
      ? "  the coach does not check for new workouts; the athlete can still ask it to turn debriefs on"
      : `  the coach checks the training log every ${plan.value} (not during quiet hours, 22:00-07:00 in the athlete's time zone)\n` +
        "  and sends a short debrief of each new workout; the athlete can turn this off by telling the coach";
  return [`Debriefs ${path} = ${JSON.stringify(plan.value)}`, `  ${what}`, meaning];
}
