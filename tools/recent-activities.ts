/**
 * The activities that started since an instant, read through the table's activity list (`get_activities`,
 * run by the runner like any call) asking only for what a background watcher needs: each activity's id, start
 * and the upload it came from, and the athlete's time zone (the newest activity's). One upstream request.
 *
 * The plugin's debriefs notice new workouts with it. It speaks the upstream's terms (Strava's `after` in epoch
 * seconds, its `timezone` label) so that the plugin does not: a second upstream's list answers here too.
 */
import type { ToolDeps } from "./runner/tool-deps.ts";
import { runTool } from "./runner/run-tool.ts";
import type { ToolResult } from "./runner/tool-result.ts";
import { getActivities } from "./get-activities.ts";
import { zoneOfStravaLabel } from "./training-load/calendar-days.ts";

export interface RecentActivity {
  /** The upstream's id, as a string. */
  id: string;
  /** When it started (epoch milliseconds). */
  startedAtMs: number;
  /** The upload it came from, when the upstream says. */
  uploadId?: string;
}

export type RecentActivities =
  | {
      ok: true;
      /** Newest first. */
      activities: RecentActivity[];
      /** The IANA zone of the newest activity that has one (the athlete's, as the upstream records it). */
      timeZone?: string;
    }
  /** The list could not be read: the tool's error result (its text names the cause and the fix). */
  | { ok: false; error: ToolResult };

/** The most activities one request lists; far more than an athlete records in two days. */
const pageSize = 200;
const fields = ["id", "start_date", "timezone", "upload_id_str"];

export async function listRecentActivities(deps: ToolDeps, sinceMs: number, signal?: AbortSignal): Promise<RecentActivities> {
  const args = { after: Math.floor(sinceMs / 1000), per_page: pageSize, fields };
  const result = await runTool(getActivities, args, deps, signal);
  if (result.isError) return { ok: false, error: result };
  const listed = parseList(result.content[0].text);
  if (!listed) {
    return {
      ok: false,
      error: { content: [{ type: "text", text: "Error: the activity list was not a list of activities." }], isError: true },
    };
  }
  const activities: Array<RecentActivity & { timeZone?: string }> = [];
  for (const item of listed) {
    const id = idText(item["id"]);
    const startedAtMs = typeof item["start_date"] === "string" ? Date.parse(item["start_date"]) : Number.NaN;
    if (id === undefined || !Number.isFinite(startedAtMs)) continue;
    const uploadId = idText(item["upload_id_str"]);
    const timeZone = zoneOfStravaLabel(item["timezone"]);
    activities.push({ id, startedAtMs, ...(uploadId ? { uploadId } : {}), ...(timeZone ? { timeZone } : {}) });
  }
  activities.sort((a, b) => b.startedAtMs - a.startedAtMs);
  const timeZone = activities.find((activity) => activity.timeZone)?.timeZone;
  return {
    ok: true,
    activities: activities.map(({ timeZone: _zone, ...activity }) => activity),
    ...(timeZone ? { timeZone } : {}),
  };
}

function parseList(text: string): Array<Record<string, unknown>> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return undefined;
    return parsed.filter((item): item is Record<string, unknown> => typeof item === "object" && item !== null && !Array.isArray(item));
  } catch {
    return undefined;
  }
}

function idText(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  return undefined;
}
