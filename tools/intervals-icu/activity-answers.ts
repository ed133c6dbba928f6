/**
 * intervals.icu's activity answers as the tools give them: its own JSON, except where a record would mislead.
 *
 * An activity that reached intervals.icu from Strava is answered by its API as a stub of five fields (id, athlete,
 * start, `source: "STRAVA"` and a `_note`), which a model would read as an empty workout. Each stub is said to be
 * one, in words: its id, start and source, and a `note` saying why nothing else is there and what would help (the
 * tools' descriptions name this exception to "results are the upstream's bytes"). `fields` keeps only the named
 * top-level fields of the other activities. An answer with no stub and no `fields` is intervals.icu's, byte for byte.
 */
import { isJsonObject, parseExact, type ExactJson } from "../answers/exact-json.ts";
import { UpstreamBodyError } from "../../common/upstream/upstream-errors.ts";

/** What a stub's record says instead of intervals.icu's `_note`. */
export const stubNote =
  "Only a stub: this activity reached intervals.icu from Strava, and intervals.icu's API does not pass such activities on " +
  "(Strava's rules), so its name, type, distance, zones and streams cannot be read or changed here; the athlete sees it on " +
  "intervals.icu's website. Activities their device syncs to intervals.icu directly arrive whole.";

type JsonObject = { [key: string]: ExactJson };

/** intervals.icu's stub of a Strava-synced activity. */
export function isStravaStub(item: ExactJson): item is JsonObject {
  return isJsonObject(item) && item["source"] === "STRAVA" && "_note" in item;
}

/** A stub as the tools answer it, said in words (`wordedStub`): what a caller of the tools meets in their answers. */
export function isWordedStub(item: unknown): boolean {
  return typeof item === "object" && item !== null && (item as Record<string, unknown>)["note"] === stubNote;
}

/** The stub said in words. */
export function wordedStub(stub: JsonObject): JsonObject {
  const worded: JsonObject = {};
  for (const key of ["id", "start_date_local", "source"]) if (stub[key] !== undefined) worded[key] = stub[key];
  worded["note"] = stubNote;
  return worded;
}

/** The list answer (GET /athlete/{id}/activities): stubs in words, `fields` kept; undefined when it stays as sent. */
export function activityListText(bodyText: string, fields: readonly string[] | undefined): string | undefined {
  const answer = parseExact(bodyText);
  if (!Array.isArray(answer)) throw new UpstreamBodyError("intervals.icu answered the activity list with something other than a list.");
  if (fields === undefined && !answer.some(isStravaStub)) return undefined;
  return JSON.stringify(answer.map((item) => shown(item, fields)));
}

/** One activity (GET /activity/{id}): a stub in words, `fields` kept; undefined when it stays as sent. */
export function activityText(bodyText: string, fields: readonly string[] | undefined): string | undefined {
  const answer = parseExact(bodyText);
  if (fields === undefined && !isStravaStub(answer)) return undefined;
  return JSON.stringify(shown(answer, fields));
}

/** The fields of one activity that say how its time was spent in zones, and where the zones lie. */
export const zoneFields = [
  "id",
  "type",
  "icu_hr_zones",
  "icu_hr_zone_times",
  "icu_power_zones",
  "icu_sweet_spot_min",
  "icu_sweet_spot_max",
  "icu_zone_times",
  "pace_zones",
  "pace_zone_times",
  "gap_zone_times",
] as const;

/** One activity cut to its zones and time in zones (a stub in words). */
export function activityZonesText(bodyText: string): string {
  const answer = parseExact(bodyText);
  if (!isJsonObject(answer)) throw new UpstreamBodyError("intervals.icu answered the activity with something other than an object.");
  return JSON.stringify(shown(answer, zoneFields));
}

function shown(item: ExactJson, fields: readonly string[] | undefined): ExactJson {
  if (isStravaStub(item)) return wordedStub(item);
  if (fields === undefined || !isJsonObject(item)) return item;
  const keep = new Set(fields);
  // intervals.icu's order, not the request's: the projection is a filter.
  return Object.fromEntries(Object.entries(item).filter(([key]) => keep.has(key)));
}
