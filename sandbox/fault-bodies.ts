/**
 * Strava's error bodies. Every error Strava returns is a Fault:
 * `{"message": string, "errors": [{"resource", "field", "code"}]}`; these builders give the exact
 * messages and error triples that the real API sends (or, where the real one is unknown, ones of the
 * same shape, documented in docs/reference/sandbox.md).
 */
import { serializeJson } from "./bigint-json.ts";
import type { Reply } from "./reply.ts";

export interface FaultError {
  resource: string;
  field: string;
  code: string;
}

export function faultReply(status: number, message: string, errors: FaultError[]): Reply {
  return { status, body: serializeJson({ message, errors: errors.map((e) => ({ ...e })) }) };
}

export function badRequest(resource: string, field: string, code: string): Reply {
  return faultReply(400, "Bad Request", [{ resource, field, code }]);
}

/** 404 for an id that does not exist, e.g. `notFound("Activity")`. */
export function recordNotFound(resource: string, field = "id"): Reply {
  return faultReply(404, "Record Not Found", [{ resource, field, code: "invalid" }]);
}

/** 404 for a path Strava does not serve (and for the retired club feed of an unknown club). */
export function pathNotFound(): Reply {
  return faultReply(404, "Record Not Found", [{ resource: "resource", field: "path", code: "invalid" }]);
}

/** 401 for a missing, unknown or expired access token. */
export function invalidAccessToken(): Reply {
  return faultReply(401, "Authorization Error", [{ resource: "Athlete", field: "access_token", code: "invalid" }]);
}

/** 401 when the token lacks a scope, e.g. `missingPermission("activity:write_permission")`. */
export function missingPermission(field: string): Reply {
  return faultReply(401, "Authorization Error", [{ resource: "AccessToken", field, code: "missing" }]);
}

export function rateLimitExceeded(): Reply {
  return faultReply(429, "Rate Limit Exceeded", [{ resource: "Application", field: "rate limit", code: "exceeded" }]);
}

/** An injected server error: the status's own message and no error details. */
export function serverError(status: number, message: string): Reply {
  return faultReply(status, message, []);
}

/**
 * Strava's answer to every call of an application switched off for want of a subscription (since June
 * 2026): 403 "Application Status Inactive". The message is Strava's; its error list is not known here,
 * so this one is of the usual shape and made up.
 */
export function applicationInactive(): Reply {
  return faultReply(403, "Application Status Inactive", [{ resource: "Application", field: "status", code: "inactive" }]);
}
