/**
 * intervals.icu's error answers as messages a model (and its athlete) can act on: the status, the request as
 * method and path, intervals.icu's own words, then what to do. Its error body is `{"status": 403, "error":
 * "Access denied"}` (a path it does not serve adds `timestamp` and `path`, as Spring applications answer; some
 * bulk endpoints wrap it in an array). Nothing here is retried, and no message ever holds the API key: a body
 * that echoes it has it blanked out before a word of it is quoted.
 */
import { UpstreamStatusError } from "../common/upstream/upstream-errors.ts";
import { defaultIntervalsApiBase } from "../common/settings/intervals-variables.ts";

/** intervals.icu's error body. */
export interface IntervalsErrorBody {
  status?: number;
  error?: string;
  /** Present when no route matched the address (the framework's own 404), so the base is likely wrong. */
  path?: string;
}

export interface IntervalsStatusContext {
  /** "GET /activity/i123": method and path, no host, no query. */
  request: string;
  status: number;
  bodyText: string;
  /** The API key, so that an echo of it in the body is never quoted. */
  apiKey: string;
  /** Extra advice from the tool for its own known conditions. */
  hint?: string | undefined;
}

/** The rate limit intervals.icu states, which the client paces itself to (intervals/request-pacer.ts). */
export const intervalsRateLimitText = "10 requests a second from one address, with a short burst";

export function intervalsStatusError(context: IntervalsStatusContext): UpstreamStatusError {
  const { status } = context;
  const bodyText = blankedOut(context.bodyText, context.apiKey);
  const body = parseIntervalsError(bodyText);
  // Read when an error is worded, not imported: importing node:http by name loads Node's whole HTTP stack (and its
  // fetch) at start-up, which a server that only sends through undici never needs.
  const statusText = process.getBuiltinModule("node:http").STATUS_CODES[status] ?? "";
  let first = `intervals.icu answered ${status}${statusText ? ` ${statusText}` : ""} to ${context.request}`;
  if (body?.error) first += `: ${snippet(body.error)}`;
  else if (body === undefined && bodyText.trim() !== "") first += `: ${snippet(bodyText)}`;
  const parts = [`${first.replace(/[.\s]+$/, "")}.`];
  const advice = adviceFor(status, body);
  if (advice) parts.push(advice);
  if (context.hint) parts.push(context.hint);
  return new UpstreamStatusError(parts.join(" "), status, body);
}

function adviceFor(status: number, body: IntervalsErrorBody | undefined): string | undefined {
  if (status === 401 || status === 403) {
    return (
      "intervals.icu did not accept the API key for this athlete. Check INTERVALS_API_KEY: it must be the key shown under " +
      "Settings > Developer Settings on intervals.icu (generating a new one there ends the old one). Check INTERVALS_ATHLETE_ID " +
      "too: 0 for the key's own athlete, or that athlete's id (it starts with i). Nothing was retried."
    );
  }
  if (status === 429) {
    return (
      `intervals.icu's rate limit is exceeded: it allows ${intervalsRateLimitText}. This server keeps its own requests ` +
      "under that, so another program using intervals.icu from this address is probably sending too. Wait a few seconds " +
      "and try again; this server does not retry."
    );
  }
  if (status === 404 && body?.path !== undefined) {
    return `intervals.icu serves nothing at this address: check INTERVALS_API_BASE (${defaultIntervalsApiBase}).`;
  }
  if (status === 422 && /strava/i.test(body?.error ?? "")) {
    return (
      "This activity reached intervals.icu from Strava, and Strava's rules keep intervals.icu from passing it on through " +
      "its API (its website still shows it). To have such activities here, connect the device or app that records them " +
      "(Garmin, Wahoo, COROS, Polar, Suunto, Zwift...) to intervals.icu directly."
    );
  }
  if (status >= 500) return "This is a failure on intervals.icu's side; try again in a moment.";
  return undefined;
}

/** The body as intervals.icu's error shape, or undefined when it is not one. */
export function parseIntervalsError(bodyText: string): IntervalsErrorBody | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  if (Array.isArray(parsed)) parsed = parsed[0];
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const record = parsed as Record<string, unknown>;
  const body: IntervalsErrorBody = {};
  if (typeof record["status"] === "number") body.status = record["status"];
  if (typeof record["error"] === "string") body.error = record["error"];
  if (typeof record["path"] === "string") body.path = record["path"];
  return body.error === undefined && body.status === undefined ? undefined : body;
}

/** `text` with every occurrence of `secret` replaced (an upstream that echoes a request must not leak the key). */
export function blankedOut(text: string, secret: string): string {
  return secret === "" ? text : text.replaceAll(secret, "[the API key]");
}

/** A short, single-line excerpt for a message. */
function snippet(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}...` : oneLine;
}
