/**
 * Strava's side of an upstream call's failures: its error body (the Fault), the messages and advice for its
 * status answers, and the token endpoint's errors. The classes every upstream shares are in
 * common/upstream/upstream-errors.ts; messages name the request ("GET /activities/123"), never a token, and
 * say what to do next where there is something to do.
 */
import { describeRateLimit, readRateLimitHeaders } from "./rate-limit.ts";
import { UpstreamError, UpstreamStatusError } from "../common/upstream/upstream-errors.ts";

/**
 * The shared classes, for code that still imports them from here (OAuth mode's, whose folder other work is
 * changing); new code imports them from common/upstream/upstream-errors.ts.
 */
export {
  CallCancelledError,
  UpstreamBodyError,
  UpstreamError,
  UpstreamNetworkError,
  UpstreamStatusError,
  UpstreamTimeoutError,
} from "../common/upstream/upstream-errors.ts";

/** Strava's error body: `{"message": string, "errors": [{"resource","field","code"}]}`. */
export interface Fault {
  message?: string;
  errors?: Array<{ resource?: string; field?: string; code?: string }>;
}

/** Getting a usable access token failed: the token endpoint refused, was down, or the store failed. */
export class TokenRefreshError extends UpstreamError {}

/** The token endpoint refused the refresh token itself (`RefreshToken` invalid): spent, revoked, or foreign. */
export class RefreshTokenRejectedError extends TokenRefreshError {}

/** Strava answered 403 "Application Status Inactive": the API application is switched off. */
export class ApplicationInactiveError extends TokenRefreshError {}

/**
 * Since June 2026 Strava requires the developer of a Standard-tier API application to hold a Strava
 * subscription; without one, every call answers 403 "Application Status Inactive" (Strava's developer notice of June 2026).
 * Strava's exact error list for it is not known here, so only the message is matched.
 */
export function isApplicationInactive(status: number, fault: Fault | undefined): boolean {
  return status === 403 && /application status inactive/i.test(fault?.message ?? "");
}

export const applicationInactiveAdvice =
  "Strava has switched this API application off (Application Status Inactive): since June 2026 a Standard-tier " +
  "application only works while the Strava account that owns it has an active Strava subscription. Start or renew the " +
  "subscription on that account (the application is the one at https://www.strava.com/settings/api), then try again. " +
  "The stored tokens are kept, so authorizing again should not be needed.";

export function parseFault(bodyText: string): Fault | undefined {
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
    const record = parsed as Record<string, unknown>;
    const fault: Fault = {};
    if (typeof record["message"] === "string") fault.message = record["message"];
    if (Array.isArray(record["errors"])) {
      fault.errors = record["errors"]
        .filter((item): item is Record<string, unknown> => typeof item === "object" && item !== null)
        .map((item) => ({
          resource: typeof item["resource"] === "string" ? item["resource"] : undefined,
          field: typeof item["field"] === "string" ? item["field"] : undefined,
          code: typeof item["code"] === "string" ? item["code"] : undefined,
        }));
    }
    return fault.message === undefined && fault.errors === undefined ? undefined : fault;
  } catch {
    return undefined;
  }
}

/** "Activity.id invalid; AccessToken.activity:read_permission missing" */
export function describeFaultErrors(fault: Fault | undefined): string {
  if (!fault?.errors || fault.errors.length === 0) return "";
  return fault.errors.map((error) => `${error.resource ?? "?"}.${error.field ?? "?"} ${error.code ?? "?"}`.trim()).join("; ");
}

const statusTexts: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

export interface StatusErrorContext {
  /** "GET /activities/123": method and path, no query string (it may be long) and no host. */
  request: string;
  status: number;
  bodyText: string;
  headers: Readonly<Record<string, string>>;
  nowMs: number;
  /** Extra advice a tool adds for its own known conditions (club activities' 404). */
  hint?: string | undefined;
  /** What to do to authorize again where it is not `npm run authorize` (OAuth mode: the athlete signs in again). */
  authorizeAgain?: string | undefined;
}

/** Builds the message for a non-success answer: status, Fault message and errors, and what to do. */
export function statusErrorFor(context: StatusErrorContext): UpstreamStatusError {
  const { status } = context;
  const fault = parseFault(context.bodyText);
  const statusText = statusTexts[status] ?? "";
  const parts = [`Strava answered ${status}${statusText ? ` ${statusText}` : ""} to ${context.request}`];
  if (fault?.message) parts[0] += `: ${fault.message}`;
  else if (context.bodyText.trim() !== "") parts[0] += `: ${snippet(context.bodyText)}`;
  const errors = describeFaultErrors(fault);
  if (errors) parts[0] += ` (${errors})`;
  parts[0] += ".";
  const advice = adviceFor(status, fault, context);
  if (advice) parts.push(advice);
  if (context.hint) parts.push(context.hint);
  return new UpstreamStatusError(parts.join(" "), status, fault);
}

function adviceFor(status: number, fault: Fault | undefined, context: StatusErrorContext): string | undefined {
  const missingScope = fault?.errors?.find((error) => error.code === "missing" && error.resource === "AccessToken");
  if (status === 401 && missingScope) {
    const again =
      context.authorizeAgain === undefined ? "Run the authorization again (npm run authorize)" : `To fix it, ${context.authorizeAgain}`;
    return `The athlete did not grant the permission this needs (${missingScope.field ?? "a scope"}). ${again} and keep every requested scope ticked.`;
  }
  if (status === 401)
    return `The access token was rejected even after a refresh; ${context.authorizeAgain ?? "authorize again (npm run authorize)"}.`;
  if (isApplicationInactive(status, fault)) return applicationInactiveAdvice;
  if (status === 429) return `Strava's rate limit is exceeded. ${describeRateLimit(readRateLimitHeaders(context.headers), context.nowMs)}`;
  if (status >= 500) return "This is a failure on Strava's side; try again in a moment.";
  return undefined;
}

/** A short, single-line excerpt of a non-Fault body (an HTML error page, say) for the message. */
function snippet(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}...` : oneLine;
}
