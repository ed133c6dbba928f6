/**
 * The activities that started since an instant, read through the log's own activity list (`get_activities`, run
 * by the runner like any call, on the client every call uses) asking only for what a background watcher needs:
 * each activity's id, start and, on Strava, the upload it came from, and the athlete's time zone. One request
 * (on intervals.icu, a first one per process for the athlete's profile, which its tools read anyway).
 *
 * The plugin's debriefs notice new workouts with it. It speaks each log's terms so that the plugin does not:
 * - Strava: `after` in epoch seconds; the zone is the newest activity's (`timezone`, Strava's label), since
 *   Strava keeps a zone per activity and none the tools read on the athlete.
 * - intervals.icu: `oldest` and `newest`, the athlete's local dates from the one the instant falls on to today
 *   (a day or so more than asked, cut back to the instant by each activity's start); ids are strings such as
 *   "i1234567"; the zone is the athlete's profile's. An activity that reached intervals.icu from Strava is only a
 *   stub there (no name, sport, duration or load: its API does not pass such activities on), so it is left out:
 *   a debrief could say nothing of it.
 */
import type { ToolDefinition } from "./definition/tool-definition.ts";
import type { ToolDeps } from "./runner/tool-deps.ts";
import { runTool } from "./runner/run-tool.ts";
import { upstreamErrorResult, type ToolResult } from "./runner/tool-result.ts";
import { getActivities } from "./get-activities.ts";
import { getActivities as getIntervalsActivities } from "./intervals-icu/get-activities.ts";
import { isWordedStub } from "./intervals-icu/activity-answers.ts";
import { zoneOfStravaLabel } from "./training-load/calendar-days.ts";
import { UpstreamError } from "../common/upstream/upstream-errors.ts";
import { instantFromWallClock } from "../common/time-zone.ts";

export interface RecentActivity {
  /** The log's id, as a string. */
  id: string;
  /** When it started (epoch milliseconds). */
  startedAtMs: number;
  /** The upload it came from, when the log says (Strava). */
  uploadId?: string;
}

export type RecentActivities =
  | {
      ok: true;
      /** Newest first. */
      activities: RecentActivity[];
      /** The athlete's IANA zone as the log holds it: intervals.icu's profile's, Strava's newest activity's (when one has it). */
      timeZone?: string;
    }
  /** The list could not be read: the tool's error result (its text names the cause and the fix). */
  | { ok: false; error: ToolResult };

type Listed = Array<Record<string, unknown>>;

/** The most activities one Strava request lists; far more than an athlete records in two days. */
const stravaPageSize = 200;

export async function listRecentActivities(deps: ToolDeps, sinceMs: number, signal?: AbortSignal): Promise<RecentActivities> {
  return deps.log === "strava" ? await listOnStrava(deps, sinceMs, signal) : await listOnIntervals(deps, sinceMs, signal);
}

async function listOnStrava(deps: ToolDeps, sinceMs: number, signal: AbortSignal | undefined): Promise<RecentActivities> {
  const args = { after: Math.floor(sinceMs / 1000), per_page: stravaPageSize, fields: ["id", "start_date", "timezone", "upload_id_str"] };
  const listed = await listWith(getActivities, args, deps, signal);
  if (!Array.isArray(listed)) return listed;
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

async function listOnIntervals(deps: ToolDeps, sinceMs: number, signal: AbortSignal | undefined): Promise<RecentActivities> {
  const { athlete } = deps;
  if (!athlete.timeZone || !athlete.today) throw new Error(`the ${deps.log} tools' athlete has no time zone to read local dates in`);
  let zone: string;
  let oldest: string;
  let newest: string;
  try {
    zone = await athlete.timeZone(signal);
    oldest = await athlete.today(sinceMs, signal);
    newest = await athlete.today(Math.max(deps.now(), sinceMs), signal);
  } catch (error) {
    if (error instanceof UpstreamError) return { ok: false, error: upstreamErrorResult(error) };
    throw error;
  }
  const args = { oldest, newest, fields: ["id", "start_date", "start_date_local", "source"] };
  const listed = await listWith(getIntervalsActivities, args, deps, signal);
  if (!Array.isArray(listed)) return listed;
  const activities: RecentActivity[] = [];
  for (const item of listed) {
    if (isWordedStub(item)) continue;
    const id = idText(item["id"]);
    const startedAtMs = intervalsStart(item, zone);
    if (id === undefined || startedAtMs === undefined || startedAtMs < sinceMs) continue;
    activities.push({ id, startedAtMs });
  }
  activities.sort((a, b) => b.startedAtMs - a.startedAtMs);
  return { ok: true, activities, timeZone: zone };
}

/** The list the tool answers, as records; or what the watcher is told when it has none. */
async function listWith(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  deps: ToolDeps,
  signal: AbortSignal | undefined,
): Promise<Listed | { ok: false; error: ToolResult }> {
  const result = await runTool(tool, args, deps, signal);
  if (result.isError) return { ok: false, error: result };
  const listed = parseList(result.content[0].text);
  if (listed) return listed;
  return {
    ok: false,
    error: { content: [{ type: "text", text: "Error: the activity list was not a list of activities." }], isError: true },
  };
}

/** An intervals.icu activity's start: its `start_date` (UTC), else its local start read in the athlete's zone. */
function intervalsStart(item: Record<string, unknown>, zone: string): number | undefined {
  const utc = item["start_date"];
  if (typeof utc === "string" && /(Z|[+-]\d{2}:?\d{2})$/.test(utc)) {
    const ms = Date.parse(utc);
    if (Number.isFinite(ms)) return ms;
  }
  const local =
    typeof item["start_date_local"] === "string" ? /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(item["start_date_local"]) : null;
  if (!local) return undefined;
  const [year, month, day, hour, minute, second] = local.slice(1).map(Number) as [number, number, number, number, number, number];
  return instantFromWallClock({ year, month, day, hour, minute, second }, zone);
}

function parseList(text: string): Listed | undefined {
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
