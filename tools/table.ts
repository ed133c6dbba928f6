/**
 * The tool tables, one per training log. Strava's 11 tools are in the order of the specification of the tools;
 * intervals.icu's (tools/intervals-icu/table.ts) share their names where the intent is the same. Front ends register
 * exactly the table of the log they serve (`toolTableFor`); nothing else in the code base names a tool.
 */
import type { ToolDefinition } from "./definition/tool-definition.ts";
import type { TrainingLog } from "../common/upstream/training-log-client.ts";
import { intervalsToolTable } from "./intervals-icu/table.ts";
import { getActivities } from "./get-activities.ts";
import { getActivityById } from "./get-activity-by-id.ts";
import { createActivity } from "./create-activity.ts";
import { updateActivity } from "./update-activity.ts";
import { getActivityZones } from "./get-activity-zones.ts";
import { getAthlete } from "./get-athlete.ts";
import { getAthleteStats } from "./get-athlete-stats.ts";
import { getActivityStreams } from "./get-activity-streams.ts";
import { getClubActivities } from "./get-club-activities.ts";
import { createUpload } from "./create-upload.ts";
import { getUpload } from "./get-upload.ts";

export const toolTable: readonly ToolDefinition[] = Object.freeze([
  getActivities,
  getActivityById,
  createActivity,
  updateActivity,
  getActivityZones,
  getAthlete,
  getAthleteStats,
  getActivityStreams,
  getClubActivities,
  createUpload,
  getUpload,
]);

/** The tools of `log`: what a server or plugin serving it offers. */
export function toolTableFor(log: TrainingLog): readonly ToolDefinition[] {
  return log === "strava" ? toolTable : intervalsToolTable;
}

/** Every table, Strava's first: a front end that lists each tool of either log (the plugin manifest, the tool reference). */
export const toolTables: ReadonlyArray<readonly [TrainingLog, readonly ToolDefinition[]]> = [
  ["strava", toolTable],
  ["intervals.icu", intervalsToolTable],
];

/**
 * The tools that never write (their `readOnlyHint` annotation), for a front end serving a read-only grant:
 * a client whose athlete granted no write scope should not be offered the write tools at all.
 */
export function readOnlyTools(table: readonly ToolDefinition[] = toolTable): readonly ToolDefinition[] {
  return table.filter((tool) => tool.annotations.readOnlyHint);
}
