/**
 * intervals.icu's error answers: `{"status": 403, "error": "Access denied"}`, the shape public reports of its API
 * quote (its forum's API threads, issue threads of its API clients); an address it does not serve gets the
 * framework's own 404 with `timestamp` and `path`. Messages marked "modelled" are of that shape with words of
 * our own, where intervals.icu's exact words are not known (docs/reference/sandbox.md).
 */
import { serializeJson } from "../bigint-json.ts";
import type { Reply } from "../reply.ts";
import { toIsoUtc } from "../../common/time-zone.ts";

export function errorReply(status: number, error: string): Reply {
  return { status, body: serializeJson({ status, error }) };
}

/** No Authorization header, or not Basic with a password (modelled words). */
export const unauthorized = (): Reply => errorReply(401, "Unauthorized");

/** A wrong key, a user name other than API_KEY, a Bearer token, or an athlete the key may not read. */
export const accessDenied = (): Reply => errorReply(403, "Access denied");

/** More than the address's share of requests (modelled words). */
export const tooManyRequests = (): Reply => errorReply(429, "Too Many Requests");

/** A record that does not exist (modelled words). */
export const notFound = (what: string): Reply => errorReply(404, `${what} not found`);

/** A path no route serves: Spring's own answer. */
export function noRoute(path: string, nowMs: number): Reply {
  return {
    status: 404,
    body: serializeJson({ timestamp: toIsoUtc(nowMs).replace("Z", ".000+00:00"), status: 404, error: "Not Found", path }),
  };
}

/** A missing required parameter, in the words of intervals.icu's framework. */
export function missingParameter(name: string, type: string): Reply {
  return errorReply(422, `Required request parameter '${name}' for method parameter type ${type} is not present`);
}

/** What intervals.icu answers for the data of an activity Strava sent it. */
export const stravaActivityUnreadable = (): Reply => errorReply(422, "Cannot read Strava activities via the API");

/** A change to an activity Strava sent it (its API description: "Strava activities cannot be updated"). */
export const stravaActivityUnchangeable = (): Reply => errorReply(422, "Strava activities cannot be updated");
