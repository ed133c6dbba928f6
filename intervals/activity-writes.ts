/**
 * The two writes of an activity as intervals.icu takes them, as described requests: a manual activity
 * (`POST /athlete/{id}/activities/manual`) and an update (`PUT /activity/{id}`), both JSON in the shape of
 * intervals.icu's `Activity` model. An update carries only the fields given, so nothing else changes (intervals.icu
 * leaves out of an update what the body leaves out). The contract test checks both bodies against intervals.icu's
 * API description.
 */
import type { UpstreamRequest } from "../common/upstream/upstream-request.ts";

export interface ManualActivity {
  name: string;
  /** intervals.icu's activity type: "Ride", "Run", "WeightTraining"... */
  type: string;
  /** The athlete's local wall-clock start, "2026-11-21T18:30:00" (no zone). */
  startDateLocal: string;
  /** Seconds. */
  elapsedTime: number;
  /** Seconds; the elapsed time when not given. */
  movingTime?: number;
  /** Metres. */
  distance?: number;
  description?: string;
  trainer?: boolean;
  commute?: boolean;
}

export interface ActivityUpdate {
  name?: string;
  type?: string;
  description?: string;
  trainer?: boolean;
  commute?: boolean;
}

export function manualActivityRequest(athleteId: string, activity: ManualActivity): UpstreamRequest {
  const body: Record<string, unknown> = {
    name: activity.name,
    type: activity.type,
    start_date_local: activity.startDateLocal,
    elapsed_time: activity.elapsedTime,
    moving_time: activity.movingTime ?? activity.elapsedTime,
  };
  if (activity.distance !== undefined) body["distance"] = activity.distance;
  if (activity.description !== undefined) body["description"] = activity.description;
  if (activity.trainer !== undefined) body["trainer"] = activity.trainer;
  if (activity.commute !== undefined) body["commute"] = activity.commute;
  return { method: "POST", path: `/athlete/${encodeURIComponent(athleteId)}/activities/manual`, body: { kind: "json", value: body } };
}

/** Only the fields present in `changes` go into the body. */
export function activityUpdateRequest(activityId: string, changes: ActivityUpdate): UpstreamRequest {
  const body: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(changes)) if (value !== undefined) body[field] = value;
  return { method: "PUT", path: `/activity/${encodeURIComponent(activityId)}`, body: { kind: "json", value: body } };
}
