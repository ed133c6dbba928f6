/**
 * The sandbox's second face: the same athlete, from the same ActivityStore as the Strava face (so a write through
 * one face shows through the other), served as intervals.icu's API serves it, under /intervals/api/v1 on the same
 * server. Every request goes: per-address rate limit -> HTTP Basic (user API_KEY, the face's key) -> route ->
 * handler. Shapes follow intervals.icu's OpenAPI description (the contract test checks them against it); where
 * intervals.icu's behaviour is known from public reports (Strava-synced activities as stubs, a bare `newest`
 * date read as the start of its day, its error bodies), it is mirrored: docs/reference/sandbox.md lists what and why.
 */
import { createHash } from "node:crypto";
import type { Activity } from "../activity-model.ts";
import { activityTypeFor, sportTypes } from "../activity-model.ts";
import type { ActivityStore } from "../activity-store.ts";
import { readActivityFile, type UploadDataType } from "../activity-files.ts";
import { serializeJson, type JsonValue } from "../bigint-json.ts";
import { bodyKind, decodeForm } from "../body-decoding.ts";
import { handLoggedActivity } from "../hand-logged-activity.ts";
import type { Reply } from "../reply.ts";
import { jsonReply } from "../reply.ts";
import { recordedActivity } from "../seeded-activity.ts";
import { seedAthlete } from "../seed-athlete.ts";
import { stravaTimezoneLabel } from "../strava-dates.ts";
import { instantFromWallClock, wallClockAt } from "../../common/time-zone.ts";
import { activityLoad, heartRateZoneTimes, powerZoneTimes } from "./activity-load.ts";
import { activityObject, intervalsType, intervalsTypes, localDateTime, type ActivityExtras, type Json } from "./activity-json.ts";
import { intervalsSource } from "./activity-source.ts";
import { AddressRateLimit, intervalsDefaultRateLimit, type AddressRateLimitSettings } from "./address-rate-limit.ts";
import { athleteJson } from "./athlete-json.ts";
import { fitnessHistory, type FitnessHistory } from "./fitness-days.ts";
import { intervalsActivityId, intervalsAthleteId, storeIdOf } from "./intervals-identity.ts";
import {
  accessDenied,
  errorReply,
  missingParameter,
  noRoute,
  notFound,
  stravaActivityUnchangeable,
  stravaActivityUnreadable,
  tooManyRequests,
  unauthorized,
} from "./intervals-replies.ts";
import { localDateParam, localDateTimeParam } from "./local-dates.ts";
import { streamsCsv, streamsJson, streamTypesFor } from "./streams-json.ts";
import { wellnessObject } from "./wellness-json.ts";

/** Where the face is served on the sandbox, and the API's own prefix below it. */
export const intervalsFacePrefix = "/intervals";
const apiPrefix = "/api/v1";

export interface IntervalsRequest {
  method: string;
  /** The whole path, "/intervals/api/v1/athlete/0". */
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  contentType: string | undefined;
  /** The client's address (the rate limit's key). */
  address: string;
  /** Reads the body (only PUT and POST do). */
  body(): Promise<Buffer>;
}

export interface IntervalsFaceOptions {
  store: ActivityStore;
  clock: () => number;
  seed: number;
  apiKey: string;
  rateLimit?: AddressRateLimitSettings;
}

/** The sport types both faces know: a type written through one face must be one the other can show. */
const sharedTypes = [...intervalsTypes].filter((type) => sportTypes.has(type));

const uploadTypes: Array<[suffix: string, type: UploadDataType]> = [
  [".fit.gz", "fit.gz"],
  [".tcx.gz", "tcx.gz"],
  [".gpx.gz", "gpx.gz"],
  [".fit", "fit"],
  [".tcx", "tcx"],
  [".gpx", "gpx"],
];

export class IntervalsFace {
  readonly apiKey: string;
  readonly #store: ActivityStore;
  readonly #clock: () => number;
  readonly #seed: number;
  readonly #limit: AddressRateLimit;
  readonly #extras = new Map<number, ActivityExtras>();
  readonly #uploadsByHash = new Map<string, number>();
  readonly #json = new Map<number, { key: string; json: string }>();
  readonly #zoneTimes = new Map<number, { version: number; hr: number[] | null; power: Array<{ id: string; secs: number }> | null }>();
  #history: { key: string; history: FitnessHistory } | undefined;

  constructor(options: IntervalsFaceOptions) {
    this.apiKey = options.apiKey;
    this.#store = options.store;
    this.#clock = options.clock;
    this.#seed = options.seed;
    this.#limit = new AddressRateLimit(options.rateLimit ?? intervalsDefaultRateLimit);
  }

  /** "GET /athlete/{id}/activities": the route a request matched, for the sandbox's counters. */
  static routeKey(method: string, path: string): string {
    const below = path.startsWith(intervalsFacePrefix + apiPrefix) ? path.slice(intervalsFacePrefix.length + apiPrefix.length) : path;
    const parts = below.split("/");
    const templated = parts.map((part, i) => {
      if (i === 2 && (parts[1] === "athlete" || parts[1] === "activity")) return "{id}";
      if (i === 4 && parts[3] === "wellness") return "{date}";
      return part;
    });
    return `intervals.icu ${method} ${templated.join("/")}`;
  }

  async handle(request: IntervalsRequest): Promise<Reply> {
    if (!this.#limit.admit(request.address)) return tooManyRequests();
    const denied = this.#authenticate(request.authorization);
    if (denied) return denied;
    if (!request.path.startsWith(intervalsFacePrefix + apiPrefix + "/")) return noRoute(request.path, this.#clock());
    const parts = request.path.slice(intervalsFacePrefix.length + apiPrefix.length + 1).split("/");
    const [first, id, third, fourth] = parts;
    const m = request.method;
    if (first === "athlete" && id !== undefined) {
      if (id !== "0" && id !== intervalsAthleteId) return accessDenied();
      if (parts.length === 2 && m === "GET")
        return jsonReply(
          200,
          athleteJson((gear) => this.#store.gearDistance(gear), this.#clock()),
        );
      if (parts.length === 3 && third === "activities" && m === "GET") return this.#listActivities(request.query);
      if (parts.length === 3 && third === "activities" && m === "POST") return this.#upload(request);
      if (parts.length === 4 && third === "activities" && fourth === "manual" && m === "POST") return this.#createManual(request);
      const wellness = /^wellness(\.json|\.csv)?$/.exec(third ?? "");
      if (parts.length === 3 && wellness && m === "GET") return this.#listWellness(request.query, wellness[1] === ".csv");
      if (parts.length === 4 && third === "wellness" && m === "GET") return this.#oneWellness(fourth ?? "");
    }
    if (first === "activity" && id !== undefined) {
      if (parts.length === 2 && m === "GET") return this.#getActivity(id, request.query);
      if (parts.length === 2 && m === "PUT") return this.#updateActivity(id, request);
      const streams = /^streams(\.json|\.csv)?$/.exec(third ?? "");
      if (parts.length === 3 && streams && m === "GET") return this.#streams(id, request.query, streams[1] === ".csv");
    }
    return noRoute(request.path, this.#clock());
  }

  /** A missing or non-Basic header, or no password: 401; a wrong user name or key: 403 (as intervals.icu answers). */
  #authenticate(header: string | undefined): Reply | undefined {
    const match = /^Basic\s+(\S+)$/i.exec(header ?? "");
    if (!match) return header?.match(/^Bearer\s/i) ? accessDenied() : unauthorized();
    const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0 || decoded.slice(colon + 1) === "") return unauthorized();
    const user = decoded.slice(0, colon);
    const key = decoded.slice(colon + 1);
    const expected = createHash("sha256").update(this.apiKey).digest();
    const given = createHash("sha256").update(key).digest();
    return user === "API_KEY" && expected.equals(given) ? undefined : accessDenied();
  }

  // ---- activities: read ------------------------------------------------------------------------

  #listActivities(query: URLSearchParams): Reply {
    const oldestRaw = query.get("oldest");
    if (oldestRaw === null) return missingParameter("oldest", "String");
    const oldest = localDateTimeParam(oldestRaw);
    if (oldest === undefined) return invalidDate("oldest", oldestRaw);
    const newestRaw = query.get("newest");
    const newest = newestRaw === null ? this.#nowLocal() : localDateTimeParam(newestRaw);
    if (newest === undefined) return invalidDate("newest", newestRaw ?? "");
    const limitRaw = query.get("limit");
    if (limitRaw !== null && !/^\d{1,9}$/.test(limitRaw)) return errorReply(422, `Invalid limit "${limitRaw}": expected a whole number`);
    const fields = fieldList(query);
    const matching = this.#store.all().filter((a) => {
      const start = localDateTime(a);
      return start >= oldest && start <= newest;
    });
    const items = (limitRaw === null ? matching : matching.slice(0, Number(limitRaw))).map((a) =>
      fields ? serializeJson(projected(this.#activityJsonObject(a), fields)) : this.#activityJson(a),
    );
    return jsonReply(200, `[${items.join(",")}]`);
  }

  #getActivity(id: string, query: URLSearchParams): Reply {
    const activity = this.#activity(id);
    if (!activity) return notFound("Activity");
    if (query.get("intervals") === "true" && intervalsSource(activity) !== "STRAVA") {
      return jsonReply(200, serializeJson({ ...this.#activityJsonObject(activity), icu_intervals: [], icu_groups: [] }));
    }
    return jsonReply(200, this.#activityJson(activity));
  }

  #streams(id: string, query: URLSearchParams, csv: boolean): Reply {
    const activity = this.#activity(id);
    if (!activity) return notFound("Activity");
    if (intervalsSource(activity) === "STRAVA") return stravaActivityUnreadable();
    const asked = query
      .getAll("types")
      .flatMap((value) => value.split(","))
      .map((type) => type.trim())
      .filter(Boolean);
    const types = streamTypesFor(activity, asked);
    const series = this.#store.series(activity);
    if (csv) return { status: 200, body: streamsCsv(series, types), contentType: "text/csv; charset=utf-8" };
    return jsonReply(200, streamsJson(series, types));
  }

  /** The activity an id of this face names: `i...` for intervals.icu's own, the Strava id for one Strava sent. */
  #activity(id: string): Activity | undefined {
    const named = storeIdOf(id);
    const activity = named && this.#store.get(named.storeId);
    if (!activity || named.stravaForm !== (intervalsSource(activity) === "STRAVA")) return undefined;
    return activity;
  }

  // ---- activities: write -----------------------------------------------------------------------

  async #updateActivity(id: string, request: IntervalsRequest): Promise<Reply> {
    const activity = this.#activity(id);
    if (!activity) return notFound("Activity");
    if (intervalsSource(activity) === "STRAVA") return stravaActivityUnchangeable();
    const body = await jsonObjectBody(request);
    if ("reply" in body) return body.reply;
    const changes = activityChanges(body.value);
    if ("reply" in changes) return changes.reply;
    const extras = { ...this.#extras.get(activity.id), ...changes.extras };
    this.#extras.set(activity.id, extras);
    this.#store.update(activity, changes.record);
    return jsonReply(200, this.#activityJson(activity));
  }

  async #createManual(request: IntervalsRequest): Promise<Reply> {
    const body = await jsonObjectBody(request);
    if ("reply" in body) return body.reply;
    const value = body.value;
    const startRaw = value["start_date_local"];
    if (typeof startRaw !== "string") return errorReply(422, "start_date_local is required");
    const start = localDateTimeParam(startRaw.replace(/Z$/, ""));
    if (start === undefined) return invalidDate("start_date_local", startRaw);
    if (typeof value["type"] !== "string") return errorReply(422, "type is required");
    const changes = activityChanges(value);
    if ("reply" in changes) return changes.reply;
    const elapsed = value["elapsed_time"] ?? value["moving_time"];
    if (!Number.isInteger(elapsed) || (elapsed as number) < 1)
      return errorReply(422, "elapsed_time or moving_time is required: whole seconds, at least 1");
    const moving = value["moving_time"] ?? elapsed;
    if (!Number.isInteger(moving) || (moving as number) < 1 || (moving as number) > (elapsed as number))
      return errorReply(422, "moving_time must be whole seconds from 1 to elapsed_time");
    const distance = value["distance"] ?? 0;
    if (typeof distance !== "number" || !Number.isFinite(distance) || distance < 0)
      return errorReply(422, "distance must be metres, 0 or more");
    const load = value["icu_training_load"];
    if (load !== undefined && load !== null && !(Number.isInteger(load) && (load as number) >= 0))
      return errorReply(422, "icu_training_load must be a whole number, 0 or more");
    const externalId = value["external_id"];
    const zone = seedAthlete.timeZone;
    const [date, time] = start.split("T") as [string, string];
    const [year, month, day] = date.split("-").map(Number) as [number, number, number];
    const [hour, minute, second] = time.split(":").map(Number) as [number, number, number];
    const type = changes.record.sportType ?? "Workout";
    const activity: Activity = {
      ...handLoggedActivity({
        id: this.#store.allocateActivityId(),
        name: changes.record.name ?? type,
        description: changes.record.description ?? null,
        sportType: type,
        startMs: instantFromWallClock({ year, month, day, hour, minute, second }, zone),
        elapsed: elapsed as number,
        distance,
        zone,
        timezoneLabel: stravaTimezoneLabel(zone, this.#clock()),
      }),
      ...changes.record,
      movingTime: moving as number,
      externalId: typeof externalId === "string" ? externalId : null,
      enteredVia: "intervals.icu",
    };
    this.#extras.set(activity.id, { ...changes.extras, enteredLoad: (load as number | null | undefined) ?? null });
    this.#store.add(activity);
    return jsonReply(200, this.#activityJson(activity));
  }

  async #upload(request: IntervalsRequest): Promise<Reply> {
    if (bodyKind(request.contentType) !== "multipart") return errorReply(422, "Expected a multipart/form-data body with a 'file' part");
    let form: Awaited<ReturnType<typeof decodeForm>>;
    try {
      form = await decodeForm("multipart", request.contentType ?? "", await request.body());
    } catch {
      return errorReply(422, "Expected a multipart/form-data body with a 'file' part");
    }
    const file = form.files["file"];
    if (!file) return missingParameter("file", "MultipartFile");
    const dataType = uploadTypes.find(([suffix]) => file.filename.toLowerCase().endsWith(suffix))?.[1];
    if (!dataType) return errorReply(422, `Unsupported file "${file.filename}": send a .fit, .tcx or .gpx file (gzipped or not)`);
    const read = readActivityFile(dataType, file.bytes);
    if (!read.ok) return errorReply(422, `${file.filename}: ${read.error}`);
    const hash = createHash("sha256").update(read.content).digest("hex");
    const existing = this.#uploadsByHash.get(hash);
    const existingActivity = existing === undefined ? undefined : this.#store.get(existing);
    if (existingActivity) return jsonReply(200, uploadAnswer([existingActivity]));
    const query = request.query;
    const created = recordedActivity(
      this.#seed,
      {
        id: this.#store.allocateActivityId(),
        uploadId: 0,
        externalId: query.get("external_id") ?? file.filename,
        sportType: read.summary.sportType,
        startMs: read.summary.startMs,
        elapsed: read.summary.elapsed,
        distance: read.summary.distance,
        start: read.summary.start,
        name: query.get("name") ?? read.summary.name,
        description: query.get("description"),
        trainer: false,
        commute: false,
      },
      this.#clock(),
    );
    const activity: Activity = {
      ...created,
      uploadId: null,
      deviceName: query.get("device_name") ?? created.deviceName,
      enteredVia: "intervals.icu",
    };
    this.#store.add(activity);
    this.#uploadsByHash.set(hash, activity.id);
    return jsonReply(201, uploadAnswer([activity]));
  }

  // ---- wellness --------------------------------------------------------------------------------

  #listWellness(query: URLSearchParams, csv: boolean): Reply {
    const history = this.#fitness();
    const oldestRaw = query.get("oldest");
    const newestRaw = query.get("newest");
    const oldest = oldestRaw === null ? history.days[0]!.date : localDateParam(oldestRaw);
    if (oldest === undefined) return invalidDate("oldest", oldestRaw ?? "");
    const newest = newestRaw === null ? history.days.at(-1)!.date : localDateParam(newestRaw);
    if (newest === undefined) return invalidDate("newest", newestRaw ?? "");
    const records: Json[] = [];
    history.days.forEach((day, index) => {
      if (day.date >= oldest && day.date <= newest) records.push(wellnessObject(history.days, index, this.#seed, this.#clock()));
    });
    const fields = fieldList(query);
    const shown = fields ? records.map((record) => projected(record, fields)) : records;
    if (csv) return { status: 200, body: wellnessCsv(shown, query), contentType: "text/csv; charset=utf-8" };
    return jsonReply(200, serializeJson(shown));
  }

  #oneWellness(dateRaw: string): Reply {
    const date = localDateParam(dateRaw);
    if (date === undefined) return invalidDate("date", dateRaw);
    const history = this.#fitness();
    const index = history.days.findIndex((day) => day.date === date);
    // A day before the first activity or after today has no record yet: intervals.icu answers an empty one.
    if (index < 0) return jsonReply(200, serializeJson({ id: date }));
    return jsonReply(200, serializeJson(wellnessObject(history.days, index, this.#seed, this.#clock())));
  }

  // ---- shared ----------------------------------------------------------------------------------

  #nowLocal(): string {
    const wall = wallClockAt(this.#clock(), seedAthlete.timeZone);
    const two = (n: number): string => String(n).padStart(2, "0");
    return `${wall.year}-${two(wall.month)}-${two(wall.day)}T${two(wall.hour)}:${two(wall.minute)}:${two(wall.second)}`;
  }

  #fitness(): FitnessHistory {
    const key = `${this.#store.version}:${Math.floor(this.#clock() / 60_000)}`;
    if (this.#history?.key !== key) {
      const loadOf = (a: Activity): number | null =>
        activityLoad(a, intervalsType(a), this.#extras.get(a.id)?.enteredLoad ?? null).trainingLoad;
      this.#history = { key, history: fitnessHistory(this.#store.all(), loadOf, seedAthlete.timeZone, this.#clock()) };
    }
    return this.#history.history;
  }

  #activityJsonObject(activity: Activity): Json {
    return JSON.parse(this.#activityJson(activity)) as Json;
  }

  #activityJson(activity: Activity): string {
    const key = `${activity.version}:${this.#store.version}`;
    const hit = this.#json.get(activity.id);
    if (hit?.key === key) return hit.json;
    const extras = this.#extras.get(activity.id);
    const type = intervalsType(activity);
    let zones = this.#zoneTimes.get(activity.id);
    if (intervalsSource(activity) !== "STRAVA" && zones?.version !== activity.version) {
      const series = this.#store.series(activity);
      zones = { version: activity.version, hr: heartRateZoneTimes(series), power: powerZoneTimes(series) };
      this.#zoneTimes.set(activity.id, zones);
    }
    const day = this.#fitness().of(localDateTime(activity).slice(0, 10));
    const json = serializeJson(
      activityObject(activity, {
        load: activityLoad(activity, type, extras?.enteredLoad ?? null),
        extras,
        hrZoneTimes: zones?.hr ?? null,
        powerZoneTimes: zones?.power ?? null,
        fitness: day && { ctl: day.ctl, atl: day.atl },
        gearDistance: (gear) => this.#store.gearDistance(gear),
      }),
    );
    this.#json.set(activity.id, { key, json });
    return json;
  }
}

function uploadAnswer(activities: Activity[]): string {
  const ids = activities.map((a) => ({ icu_athlete_id: intervalsAthleteId, id: intervalsActivityId(a) }));
  return serializeJson({ icu_athlete_id: intervalsAthleteId, id: ids[0]?.id ?? null, activities: ids });
}

function invalidDate(name: string, value: string): Reply {
  return errorReply(
    422,
    `Invalid ${name} "${value}": expected a local date such as 2026-11-21 or a date and time such as 2026-11-21T16:18:49`,
  );
}

/** `fields=a,b` (or repeated): the names to keep. */
function fieldList(query: URLSearchParams): string[] | undefined {
  const fields = query
    .getAll("fields")
    .flatMap((value) => value.split(","))
    .map((name) => name.trim())
    .filter(Boolean);
  return fields.length > 0 ? fields : undefined;
}

/** Only the named fields, and no nulls (intervals.icu's `fields`: "also excludes null values"). */
function projected(record: Json, fields: readonly string[]): Json {
  const kept: Json = {};
  for (const name of fields) if (record[name] !== undefined && record[name] !== null) kept[name] = record[name];
  return kept;
}

function wellnessCsv(records: readonly Json[], query: URLSearchParams): string {
  const asked = query
    .getAll("cols")
    .flatMap((value) => value.split(","))
    .map((name) => name.trim())
    .filter(Boolean);
  const columns = asked.length > 0 ? asked : Object.keys(records[0] ?? { id: null }).filter((name) => name !== "sportInfo");
  const cell = (value: JsonValue | undefined): string => (value === null || value === undefined ? "" : String(value));
  return [columns.join(","), ...records.map((record) => columns.map((name) => cell(record[name])).join(","))].join("\n") + "\n";
}

async function jsonObjectBody(request: IntervalsRequest): Promise<{ value: Record<string, unknown> } | { reply: Reply }> {
  if (bodyKind(request.contentType) !== "json") return { reply: errorReply(415, "Content-Type must be application/json") };
  try {
    const parsed: unknown = JSON.parse((await request.body()).toString("utf8"));
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return { value: parsed as Record<string, unknown> };
  } catch {
    // Answered below.
  }
  return { reply: errorReply(422, "The body must be a JSON object") };
}

/**
 * The fields of an activity this face lets a client set (others are ignored, as intervals.icu ignores fields
 * it does not take): those kept on the shared record, and intervals.icu's own (RPE, feel) kept beside it.
 */
function activityChanges(body: Record<string, unknown>): { record: Partial<Activity>; extras: ActivityExtras } | { reply: Reply } {
  const record: Partial<Activity> = {};
  const extras: ActivityExtras = {};
  if ("name" in body) {
    if (typeof body["name"] !== "string" || body["name"].trim() === "")
      return { reply: errorReply(422, "name must be a non-empty string") };
    record.name = body["name"];
  }
  if ("description" in body) {
    if (body["description"] !== null && typeof body["description"] !== "string")
      return { reply: errorReply(422, "description must be text or null") };
    record.description = body["description"];
  }
  if ("type" in body) {
    if (typeof body["type"] !== "string" || !sharedTypes.includes(body["type"]))
      return { reply: errorReply(422, `type must be one of ${sharedTypes.join(", ")}; got ${JSON.stringify(body["type"])}`) };
    record.sportType = body["type"];
    record.type = activityTypeFor(body["type"]);
  }
  for (const flag of ["trainer", "commute"] as const) {
    if (!(flag in body)) continue;
    if (typeof body[flag] !== "boolean") return { reply: errorReply(422, `${flag} must be true or false`) };
    record[flag] = body[flag];
  }
  for (const [field, key, max] of [
    ["icu_rpe", "icuRpe", 10],
    ["feel", "feel", 5],
  ] as const) {
    if (!(field in body)) continue;
    const value = body[field];
    if (value !== null && !(Number.isInteger(value) && (value as number) >= 1 && (value as number) <= max))
      return { reply: errorReply(422, `${field} must be a whole number from 1 to ${max}, or null`) };
    extras[key] = value as number | null;
  }
  return { record, extras };
}
