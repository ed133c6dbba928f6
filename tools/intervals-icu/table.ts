/**
 * The intervals.icu tools, in the order of Strava's table where they share a name and intent; tools whose
 * Strava request intervals.icu has no counterpart for (athlete statistics, club feeds, upload status: intervals.icu
 * answers an upload at once) are not here, and `get_wellness`, which Strava has no data for, is.
 */
import type { ToolDefinition } from "../definition/tool-definition.ts";
import { createActivity } from "./create-activity.ts";
import { createUpload } from "./create-upload.ts";
import { getActivities } from "./get-activities.ts";
import { getActivityById } from "./get-activity-by-id.ts";
import { getActivityStreams } from "./get-activity-streams.ts";
import { getActivityZones } from "./get-activity-zones.ts";
import { getAthlete } from "./get-athlete.ts";
import { getWellness } from "./get-wellness.ts";
import { updateActivity } from "./update-activity.ts";

export const intervalsToolTable: readonly ToolDefinition[] = Object.freeze([
  getActivities,
  getActivityById,
  createActivity,
  updateActivity,
  getActivityZones,
  getAthlete,
  getActivityStreams,
  createUpload,
  getWellness,
]);
