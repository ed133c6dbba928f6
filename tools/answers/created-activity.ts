/**
 * What an answer says about an activity the caller made: a created activity's id, an upload's id and the
 * activity it became (Strava processes an upload after answering, so `activity_id` is set only once it is
 * ready), or the activities an intervals.icu upload made (it answers once they exist). Read from the successful
 * answer's text, ids as strings (intervals.icu's are "i1234567"). The plugin keeps these so its debriefs never
 * report back to the athlete what the coach itself logged.
 */
import type { CreatedActivity } from "../definition/tool-definition.ts";

/** A created activity's detail: its top-level `id`. */
export function createdActivityOf(resultText: string): CreatedActivity | undefined {
  const id = topLevelId(parseObject(resultText), "id");
  return id === undefined ? undefined : { activityIds: [id] };
}

/** An upload or its status: the upload's `id_str` (or `id`), and `activity_id` once the upload is ready. */
export function uploadOutcomeOf(resultText: string): CreatedActivity | undefined {
  const upload = parseObject(resultText);
  const uploadId = topLevelId(upload, "id_str") ?? topLevelId(upload, "id");
  if (uploadId === undefined) return undefined;
  const activityId = topLevelId(upload, "activity_id");
  return activityId === undefined ? { uploadId } : { uploadId, activityIds: [activityId] };
}

/** An intervals.icu upload's answer, `{icu_athlete_id, id, activities: [{icu_athlete_id, id}]}`: the activities it made. */
export function uploadedActivitiesOf(resultText: string): CreatedActivity | undefined {
  const answer = parseObject(resultText);
  const listed = Array.isArray(answer?.["activities"]) ? (answer["activities"] as unknown[]) : [];
  const ids = [topLevelId(answer, "id"), ...listed.map((item) => topLevelId(asObject(item), "id"))].filter(
    (id): id is string => id !== undefined,
  );
  return ids.length === 0 ? undefined : { activityIds: [...new Set(ids)] };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    return asObject(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function topLevelId(record: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = record?.[key];
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  return undefined;
}
