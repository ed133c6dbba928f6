/**
 * Whether debriefs are on, and how often the log is checked: the choice made last wins. The plugin's
 * `debriefs` setting is the operator's (`npm run setup:coach -- --debriefs 15m|off` writes it); the athlete
 * turns them off and on by telling the coach (plugin/debriefs/debrief-switch-tool.ts), and that choice is
 * kept in the record with the setting it was made under. While the setting is unchanged the athlete's
 * choice stands; a different setting written since (a rerun of setup with `--debriefs`) is the newer
 * choice and wins.
 */
import { debriefIntervalMinutes, debriefIntervalRange, type PluginSettings } from "../plugin-config.ts";
import type { AthleteChoice } from "./debrief-record.ts";

export interface DebriefPlan {
  on: boolean;
  /** Between the starts of two checks. */
  intervalMs: number;
  /** Who decided `on`: the plugin setting, or the athlete in chat. */
  decidedBy: "setting" | "athlete";
}

export function debriefPlan(
  settings: Pick<PluginSettings, "debriefs" | "debriefTestIntervalSeconds">,
  choice: AthleteChoice | undefined,
): DebriefPlan {
  const athleteDecides = choice !== undefined && choice.setting === settings.debriefs;
  const on = athleteDecides ? choice.enabled : settings.debriefs !== "off";
  const minutes = debriefIntervalMinutes(settings.debriefs) ?? debriefIntervalMinutes(debriefIntervalRange.defaultSetting) ?? 15;
  const intervalMs = settings.debriefTestIntervalSeconds > 0 ? settings.debriefTestIntervalSeconds * 1000 : minutes * 60_000;
  return { on, intervalMs, decidedBy: athleteDecides ? "athlete" : "setting" };
}
