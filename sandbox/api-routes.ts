/**
 * The Strava API v3 operations the tools use, as handlers from a parsed request to a Reply. The
 * server has already counted the request against the rate limits and checked the access token; these
 * check scopes, parameters and ids, and read or change the sandbox's state.
 */
import type { Activity, StreamKey } from "./activity-model.ts";
import { activityTypeFor, sportTypes, streamKeys } from "./activity-model.ts";
import type { ActivityStore } from "./activity-store.ts";
import { uploadDataTypes } from "./activity-files.ts";
import type { UploadDataType } from "./activity-files.ts";
import { detailedAthleteJson, summaryAthleteObject } from "./athlete-json.ts";
import { serializeJson } from "./bigint-json.ts";
import { clubFeed, seedClub } from "./clubs.ts";
import type { memberActivities } from "./clubs.ts";
import { badRequest, faultReply, missingPermission, pathNotFound, recordNotFound } from "./fault-bodies.ts";
import { activityReadAccess } from "./oauth.ts";
import { epochParam, flagValue, pageParams, pathId, slicePage } from "./parameter-parsing.ts";
import type { Parsed } from "./parameter-parsing.ts";
import type { Reply } from "./reply.ts";
import { jsonReply } from "./reply.ts";
import { handLoggedActivity } from "./hand-logged-activity.ts";
import { bodyKind, decodeForm } from "./body-decoding.ts";
import { seedAthlete, seedGear } from "./seed-athlete.ts";
import type { AthleteIdentity } from "./second-athlete.ts";
import { statsJson } from "./stats.ts";
import { instantFromWallClock, type WallClock } from "../common/time-zone.ts";
import { stravaTimezoneLabel } from "./strava-dates.ts";
import type { UploadProcessor } from "./uploads.ts";
import { zonesJson } from "./zones.ts";
import { athleteZonesJson } from "./athlete-zones.ts";

export interface ApiRequest {
  method: string;
  /** Path below /api/v3, e.g. "/activities/123". */
  path: string;
  query: URLSearchParams;
  contentType: string | undefined;
  body: Buffer;
  scopes: ReadonlySet<string>;
}

export interface ApiState {
  /** The athlete whose data this is (the access token's owner). */
  athlete: AthleteIdentity;
  store: ActivityStore;
  uploads: UploadProcessor;
  clock: () => number;
  clubMembers: ReturnType<typeof memberActivities>;
  /** Serialised answers that depend on all activities, keyed by what they depend on. */
  memo: Map<string, { key: string; json: string }>;
  clubFeed: { key: string; items: string[] } | null;
}

function memo(state: ApiState, name: string, key: string, build: () => string): string {
  const hit = state.memo.get(name);
  if (hit && hit.key === key) return hit.json;
  const json = build();
  state.memo.set(name, { key, json });
  return json;
}

/** Minute of the clock: answers that depend on "now" are rebuilt at most once a minute. */
const minute = (state: ApiState): number => Math.floor(state.clock() / 60_000);

/** "GET /activities/{id}": the route a request matched, for counters and fault matching. */
export function routeKey(method: string, path: string): string {
  const parts = path.split("/");
  const templated = parts.map((p, i) => (i > 0 && /^\d+$/.test(p) ? (parts[i - 1] === "uploads" ? "{uploadId}" : "{id}") : p)).join("/");
  return `${method} ${templated}`;
}

export async function handleApi(req: ApiRequest, state: ApiState): Promise<Reply> {
  state.uploads.settle();
  const parts = req.path.split("/").filter((p) => p.length > 0);
  const [first, second, third] = parts;
  const m = req.method;
  if (parts.length === 1 && first === "athlete" && m === "GET") return getAthlete(req, state);
  if (parts.length === 2 && first === "athlete" && second === "activities" && m === "GET") return listActivities(req, state);
  if (parts.length === 2 && first === "athlete" && second === "zones" && m === "GET") return getAthleteZones(req);
  if (parts.length === 1 && first === "activities" && m === "POST") return createActivity(req, state);
  if (first === "activities" && parts.length >= 2) {
    const id = pathId(second);
    if (parts.length === 2 && m === "GET") return getActivity(req, state, id);
    if (parts.length === 2 && m === "PUT") return updateActivity(req, state, id);
    if (parts.length === 3 && third === "zones" && m === "GET") return getZones(req, state, id);
    if (parts.length === 3 && third === "streams" && m === "GET") return getStreams(req, state, id);
  }
  if (parts.length === 3 && first === "athletes" && third === "stats" && m === "GET") return getStats(req, state, second);
  if (parts.length === 3 && first === "clubs" && third === "activities" && m === "GET") return getClubActivities(req, state, second);
  if (parts.length === 1 && first === "uploads" && m === "POST") return createUpload(req, state);
  if (parts.length === 2 && first === "uploads" && m === "GET") return getUpload(req, state, pathId(second));
  return pathNotFound();
}

// ---- athlete ------------------------------------------------------------------------------------

function getAthlete(req: ApiRequest, state: ApiState): Reply {
  if (!req.scopes.has("read") && !req.scopes.has("profile:read_all")) return missingPermission("read_permission");
  // Strava's description: "Tokens with profile:read_all scope will receive a detailed athlete representation;
  // all others will receive a summary representation" (no FTP, gear or clubs).
  if (!req.scopes.has("profile:read_all")) return jsonReply(200, serializeJson(summaryAthleteObject(latestUpdate(state), state.athlete)));
  return jsonReply(
    200,
    memo(state, "athlete", `${state.store.version}:${minute(state)}`, () =>
      detailedAthleteJson(latestUpdate(state), (id) => state.store.gearDistance(id), state.athlete),
    ),
  );
}

function getStats(req: ApiRequest, state: ApiState, idSegment: string | undefined): Reply {
  if (!req.scopes.has("read") && !req.scopes.has("profile:read_all")) return missingPermission("read_permission");
  const id = pathId(idSegment);
  // Strava serves stats only for the authenticated athlete; the sandbox answers 403 for any other id.
  if (id !== state.athlete.id) return faultReply(403, "Forbidden", [{ resource: "Athlete", field: "id", code: "forbidden" }]);
  return jsonReply(
    200,
    memo(state, "stats", `${state.store.version}:${minute(state)}`, () =>
      statsJson(state.store.all(), state.clock(), seedAthlete.timeZone),
    ),
  );
}

function getAthleteZones(req: ApiRequest): Reply {
  // Strava's description: "Requires profile:read_all".
  if (!req.scopes.has("profile:read_all")) return missingPermission("profile:read_all_permission");
  return jsonReply(200, athleteZonesJson());
}

/** The athlete's updated_at: their latest activity's start (changes only when the data does). */
function latestUpdate(state: ApiState): number {
  let latest = Date.parse(state.athlete.createdAt);
  for (const a of state.store.all()) if (a.startMs > latest && a.startMs <= state.clock()) latest = a.startMs;
  return latest;
}

// ---- activities: read ----------------------------------------------------------------------------

function listActivities(req: ApiRequest, state: ApiState): Reply {
  const access = activityReadAccess(req.scopes);
  if (!access) return missingPermission("activity:read_permission");
  const before = epochParam(req.query, "before");
  if (!before.ok) return before.reply;
  const after = epochParam(req.query, "after");
  if (!after.ok) return after.reply;
  const page = pageParams(req.query);
  if (!page.ok) return page.reply;
  const beforeMs = before.value === null ? Infinity : before.value * 1000;
  const afterMs = after.value === null ? -Infinity : after.value * 1000;
  let matching = state.store.all().filter((a) => a.startMs < beforeMs && a.startMs > afterMs && (access === "all" || !a.private));
  // Strava quirk: with `after`, the list comes oldest first.
  if (after.value !== null) matching = [...matching].reverse();
  const items = slicePage(matching, page.value).map((a) => state.store.summaryJson(a));
  return jsonReply(200, "[" + items.join(",") + "]");
}

/** The activity if this token may see it (an "Only You" activity needs activity:read_all). */
function readable(req: ApiRequest, state: ApiState, id: number | null): { activity: Activity } | { reply: Reply } {
  const access = activityReadAccess(req.scopes);
  if (!access) return { reply: missingPermission("activity:read_permission") };
  const activity = id === null ? undefined : state.store.get(id);
  if (!activity || (activity.private && access !== "all")) return { reply: recordNotFound("Activity") };
  return { activity };
}

function getActivity(req: ApiRequest, state: ApiState, id: number | null): Reply {
  const found = readable(req, state, id);
  if ("reply" in found) return found.reply;
  // Strava's include_all_efforts: true adds the efforts it hides as unimportant; the sandbox takes
  // only true or false (Strava's leniency with other spellings is unknown).
  const allEfforts = req.query.get("include_all_efforts");
  if (allEfforts !== null && allEfforts !== "true" && allEfforts !== "false")
    return badRequest("Activity", "include_all_efforts", "invalid");
  return jsonReply(200, state.store.detailJson(found.activity, allEfforts === "true"));
}

function getZones(req: ApiRequest, state: ApiState, id: number | null): Reply {
  const found = readable(req, state, id);
  if ("reply" in found) return found.reply;
  const a = found.activity;
  return jsonReply(
    200,
    state.store.cachedZones(a, () => zonesJson(a, state.store.series(a))),
  );
}

function getStreams(req: ApiRequest, state: ApiState, id: number | null): Reply {
  const found = readable(req, state, id);
  if ("reply" in found) return found.reply;
  const a = found.activity;
  const keysRaw = req.query.get("keys");
  if (keysRaw === null) return badRequest("Stream", "keys", "missing");
  const requested = keysRaw.split(",").map((k) => k.trim());
  if (requested.some((k) => !(streamKeys as readonly string[]).includes(k))) return badRequest("Stream", "keys", "invalid");
  const keyByTypeRaw = req.query.get("key_by_type");
  if (keyByTypeRaw !== null && keyByTypeRaw !== "true" && keyByTypeRaw !== "false") return badRequest("Stream", "key_by_type", "invalid");
  const plan = a.recording;
  // Manual activities have no streams: Strava answers 404.
  if (!plan) return recordNotFound("Activity", "streams");
  // Strava always adds the series stream (distance, or time) to what was asked for.
  const keys = [...new Set([...(requested as StreamKey[]), plan.seriesType])].filter((k) => plan.streams.includes(k));
  const meta = `"series_type":"${plan.seriesType}","original_size":${a.elapsedTime},"resolution":"high"`;
  const parts: string[] = [];
  for (const key of keys) {
    const data = state.store.streamDataJson(a, key);
    if (data === undefined) continue;
    parts.push(keyByTypeRaw === "true" ? `"${key}":{"data":${data},${meta}}` : `{"type":"${key}","data":${data},${meta}}`);
  }
  return jsonReply(200, keyByTypeRaw === "true" ? "{" + parts.join(",") + "}" : "[" + parts.join(",") + "]");
}

function getClubActivities(req: ApiRequest, state: ApiState, idSegment: string | undefined): Reply {
  if (!req.scopes.has("read")) return missingPermission("read_permission");
  // The live endpoint is retired (404, resource path); the sandbox still serves its own club.
  if (pathId(idSegment) !== seedClub.id) return pathNotFound();
  const page = pageParams(req.query);
  if (!page.ok) return page.reply;
  const key = `${state.store.version}:${minute(state)}`;
  if (state.clubFeed?.key !== key) state.clubFeed = { key, items: clubFeed(state.store.all(), state.clubMembers, state.clock()) };
  return jsonReply(200, "[" + slicePage(state.clubFeed.items, page.value).join(",") + "]");
}

// ---- activities: write ---------------------------------------------------------------------------

async function formFields(req: ApiRequest, resource: string): Promise<Parsed<Record<string, string>>> {
  const kind = bodyKind(req.contentType);
  if (kind !== "form" && kind !== "multipart") {
    return {
      ok: false,
      reply: faultReply(415, "Unsupported Media Type", [{ resource, field: "Content-Type", code: "invalid" }]),
    };
  }
  try {
    return { ok: true, value: (await decodeForm(kind, req.contentType ?? "", req.body)).fields };
  } catch {
    return { ok: false, reply: badRequest(resource, "body", "invalid") };
  }
}

async function createActivity(req: ApiRequest, state: ApiState): Promise<Reply> {
  if (!req.scopes.has("activity:write")) return missingPermission("activity:write_permission");
  const form = await formFields(req, "Activity");
  if (!form.ok) return form.reply;
  const f = form.value;
  const name = f["name"]?.trim();
  if (!name) return badRequest("Activity", "name", "missing");
  let sportType = f["sport_type"];
  if (!sportType && f["type"]) sportType = f["type"];
  if (!sportType) return badRequest("Activity", "sport_type", "missing");
  if (!sportTypes.has(sportType)) return badRequest("Activity", "sport_type", "invalid");
  const startRaw = f["start_date_local"];
  if (!startRaw) return badRequest("Activity", "start_date_local", "missing");
  const local = parseLocalDateTime(startRaw);
  if (!local) return badRequest("Activity", "start_date_local", "invalid");
  const elapsedRaw = f["elapsed_time"];
  if (!elapsedRaw) return badRequest("Activity", "elapsed_time", "missing");
  if (!/^\d+$/.test(elapsedRaw.trim()) || Number(elapsedRaw) < 1) return badRequest("Activity", "elapsed_time", "invalid");
  const elapsed = Number(elapsedRaw);
  let distance = 0;
  if (f["distance"] !== undefined && f["distance"] !== "") {
    distance = Number(f["distance"]);
    if (!Number.isFinite(distance) || distance < 0) return badRequest("Activity", "distance", "invalid");
  }
  const trainer = flagValue(f["trainer"], "Activity", "trainer");
  if (!trainer.ok) return trainer.reply;
  const commute = flagValue(f["commute"], "Activity", "commute");
  if (!commute.ok) return commute.reply;

  const zone = seedAthlete.timeZone;
  const startMs = instantFromWallClock(local, zone);
  const type = activityTypeFor(sportType);
  const defaultGear =
    type === "Run"
      ? seedGear.find((g) => g.kind === "shoe" && g.primary)
      : type === "Ride"
        ? seedGear.find((g) => g.kind === "bike" && g.primary)
        : undefined;
  const activity: Activity = {
    ...handLoggedActivity({
      id: state.store.allocateActivityId(),
      name,
      description: f["description"] ?? null,
      sportType,
      startMs,
      elapsed,
      distance,
      zone,
      timezoneLabel: stravaTimezoneLabel(zone, state.clock()),
    }),
    athleteId: state.athlete.id,
    trainer: trainer.value ?? false,
    commute: commute.value ?? false,
    gearId: defaultGear?.id ?? null,
    enteredVia: "strava",
  };
  state.store.add(activity);
  return jsonReply(201, state.store.detailJson(activity));
}

/** "2026-11-21T18:30:00" (seconds, fraction, Z or offset optional): Strava reads the digits as local time. */
function parseLocalDateTime(raw: string): WallClock | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/.exec(raw.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? "0"].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const check = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return null;
  return { year, month, day, hour, minute, second };
}

async function updateActivity(req: ApiRequest, state: ApiState, id: number | null): Promise<Reply> {
  if (!req.scopes.has("activity:write")) return missingPermission("activity:write_permission");
  const found = readable(req, state, id);
  if ("reply" in found) return found.reply;
  const body = await updateBody(req);
  if (!body.ok) return body.reply;
  const changes = activityChanges(body.value);
  if (!changes.ok) return changes.reply;
  state.store.update(found.activity, changes.value);
  return jsonReply(200, state.store.detailJson(found.activity));
}

/** An update's fields: a JSON object, a form (Strava also takes the updatable fields as form parameters), or nothing. */
async function updateBody(req: ApiRequest): Promise<Parsed<Record<string, unknown>>> {
  const kind = bodyKind(req.contentType);
  if (kind === "json") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(req.body.toString("utf8"));
    } catch {
      return { ok: false, reply: badRequest("Activity", "body", "invalid") };
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      return { ok: false, reply: badRequest("Activity", "body", "invalid") };
    return { ok: true, value: parsed as Record<string, unknown> };
  }
  if (kind === "form" || kind === "multipart") return formFields(req, "Activity");
  if (kind === "none" && req.body.length === 0) return { ok: true, value: {} };
  return {
    ok: false,
    reply: faultReply(415, "Unsupported Media Type", [{ resource: "Activity", field: "Content-Type", code: "invalid" }]),
  };
}

/** The changes an update's fields ask for, each checked as Strava checks it. */
function activityChanges(body: Record<string, unknown>): Parsed<Partial<Activity>> {
  const changes: Partial<Activity> = {};
  const refuse = (field: string): Parsed<never> => ({ ok: false, reply: badRequest("Activity", field, "invalid") });
  if ("name" in body) {
    if (typeof body["name"] !== "string" || body["name"].trim() === "") return refuse("name");
    changes.name = body["name"];
  }
  if ("description" in body) {
    if (body["description"] !== null && typeof body["description"] !== "string") return refuse("description");
    changes.description = body["description"];
  }
  const sport = body["sport_type"] ?? body["type"];
  if (sport !== undefined) {
    if (typeof sport !== "string" || !sportTypes.has(sport)) return refuse("sport_type" in body ? "sport_type" : "type");
    changes.sportType = sport;
    changes.type = activityTypeFor(sport);
  }
  const flags = flagChanges(body, changes);
  if (flags) return { ok: false, reply: flags };
  if ("gear_id" in body) {
    const gearId = body["gear_id"];
    if (gearId === "none" || gearId === null) changes.gearId = null;
    else if (typeof gearId === "string" && seedGear.some((g) => g.id === gearId)) changes.gearId = gearId;
    else return refuse("gear_id");
  }
  return { ok: true, value: changes };
}

/** The update's on/off fields (true/false, or Strava's form spellings) into `changes`; the refusal of a bad one. */
function flagChanges(body: Record<string, unknown>, changes: Partial<Activity>): Reply | undefined {
  for (const [field, key] of [
    ["trainer", "trainer"],
    ["commute", "commute"],
    ["hide_from_home", "hideFromHome"],
  ] as const) {
    if (!(field in body)) continue;
    const value = body[field];
    const flag = typeof value === "boolean" ? value : typeof value === "string" ? flagValue(value, "Activity", field) : null;
    if (flag === null) return badRequest("Activity", field, "invalid");
    if (typeof flag === "boolean") changes[key] = flag;
    else if (!flag.ok) return flag.reply;
    else if (flag.value !== undefined) changes[key] = flag.value;
  }
  return undefined;
}

// ---- uploads -------------------------------------------------------------------------------------

async function createUpload(req: ApiRequest, state: ApiState): Promise<Reply> {
  if (!req.scopes.has("activity:write")) return missingPermission("activity:write_permission");
  if (bodyKind(req.contentType) !== "multipart") return badRequest("Upload", "file", "missing");
  let form: Awaited<ReturnType<typeof decodeForm>>;
  try {
    form = await decodeForm("multipart", req.contentType ?? "", req.body);
  } catch {
    return badRequest("Upload", "file", "invalid");
  }
  const file = form.files["file"];
  if (!file) return badRequest("Upload", "file", "missing");
  const dataType = form.fields["data_type"];
  if (!dataType) return badRequest("Upload", "data_type", "missing");
  if (!(uploadDataTypes as readonly string[]).includes(dataType)) return badRequest("Upload", "data_type", "invalid");
  const trainer = flagValue(form.fields["trainer"], "Upload", "trainer");
  if (!trainer.ok) return trainer.reply;
  const commute = flagValue(form.fields["commute"], "Upload", "commute");
  if (!commute.ok) return commute.reply;
  const json = state.uploads.create({
    filename: file.filename || `upload.${dataType}`,
    dataType: dataType as UploadDataType,
    bytes: file.bytes,
    name: form.fields["name"] || null,
    description: form.fields["description"] ?? null,
    trainer: trainer.value ?? false,
    commute: commute.value ?? false,
    externalId: form.fields["external_id"] || null,
  });
  return jsonReply(201, json);
}

function getUpload(req: ApiRequest, state: ApiState, id: number | null): Reply {
  if (!req.scopes.has("activity:write")) return missingPermission("activity:write_permission");
  const json = id === null ? undefined : state.uploads.get(id);
  if (json === undefined) return recordNotFound("Upload");
  return jsonReply(200, json);
}
