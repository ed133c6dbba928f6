/**
 * What an answer says about an activity the caller made: a created activity's id, an upload's id and the
 * activity it became (Strava processes an upload after answering, so `activity_id` is set only once it is
 * ready). Read from the successful answer's text, ids as strings (intervals.icu's are "i1234567"). The plugin
 * keeps these so its debriefs never report back to the athlete what the coach itself logged.
 */
import type { CreatedActivity } from "../definition/tool-definition.ts";

/** A created activity's detail: its top-level `id`. */
export function createdActivityOf(resultText: string): CreatedActivity | undefined {
  const id = topLevelId(parseObject(resultText), "id");
  return id === undefined ? undefined : { activityId: id };
}

/** An upload or its status: the upload's `id_str` (or `id`), and `activity_id` once the upload is ready. */
export function uploadOutcomeOf(resultText: string): CreatedActivity | undefined {
  const upload = parseObject(resultText);
  const uploadId = topLevelId(upload, "id_str") ?? topLevelId(upload, "id");
  if (uploadId === undefined) return undefined;
  const activityId = topLevelId(upload, "activity_id");
  return activityId === undefined ? { uploadId } : { uploadId, activityId };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function topLevelId(record: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = record?.[key];
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  return undefined;
}
