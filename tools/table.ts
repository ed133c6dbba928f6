/**
 * The table of the 11 tools, in the order of the specification of the tools. Front ends register exactly these; nothing else
 * in the code base names a tool.
 */
import type { ToolDefinition } from "./definition/tool-definition.ts";
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

/**
 * The tools that never write (their `readOnlyHint` annotation), for a front end serving a read-only grant:
 * a client whose athlete granted no write scope should not be offered the write tools at all.
 */
export function readOnlyTools(table: readonly ToolDefinition[] = toolTable): readonly ToolDefinition[] {
  return table.filter((tool) => tool.annotations.readOnlyHint);
}
