/**
 * Strava's webhook (the application's push subscription, callback `PUBLIC_URL/strava/webhook/<secret>`,
 * webhook-path.ts; any other path under /strava/webhook, the old one included, is 404 like any unknown path):
 *
 * - `GET` with `hub.mode=subscribe`, `hub.challenge`, `hub.verify_token`: Strava checking the callback when
 *   the subscription is created. Answered `{"hub.challenge": ...}` when the verify token is this
 *   deployment's `STRAVA_WEBHOOK_VERIFY_TOKEN` (compared in constant time), 403 otherwise.
 * - `POST` events: an athlete update with `updates.authorized: "false"` means the athlete revoked this
 *   application on Strava; everything stored for them is deleted, so their grants end too. Other events
 *   (activities) are acknowledged and ignored.
 *
 * Strava does not sign its events. The secret path keeps anybody else from posting one; should it leak (a
 * proxy's log), an event must still cost nothing it should not and tell nothing:
 *
 * - each source (an address, or an IPv6 /64) may post `eventsPerSourcePerMinute` events (this process
 *   counts; past it 429), and every line the endpoint logs goes through a rate-limited log;
 * - the event must have Strava's shape (400 otherwise), and its `subscription_id` must be this deployment's
 *   (webhook-subscription.ts), else it is ignored before the store is asked;
 * - a deauthorization is believed only after Strava confirms it: the athlete's own credentials are tried
 *   (GET /athlete) and must be refused. That costs one request of the application's Strava budget, so it
 *   is taken from a budget of its own (`claimDeauthorizationCheck`): at most one per athlete in each
 *   15-minute window and `deauthorizationChecksPerDay` a day, which the athletes' fair shares leave out
 *   (athlete-sessions.ts);
 * - every well-formed event gets the same answer, 200 `{"received":true}`, whether it named another
 *   subscription, an athlete stored here or not, or one whose check is spent: an answer that differed would
 *   tell whoever posts which subscription id is this deployment's and who uses the server. A deauthorization
 *   that could not be checked (its check spent, or Strava not answering) is therefore acknowledged, not
 *   retried by Strava: the log names the athlete (`deauthorization_deferred`, `deauthorization_unchecked`)
 *   so that the operator can `npm run oauth-admin -- forget` them if they did revoke access.
 *
 * Strava wants a 200 within two seconds and tries three times.
 */
import { secretsMatch } from "../../common/digests.ts";
import { RefreshTokenRejectedError, UpstreamStatusError } from "../../strava/strava-errors.ts";
import type { ToolDeps } from "../../tools/runner/create-tool-deps.ts";
import { readBodyText } from "../endpoints/oauth-answers.ts";
import type { Logger } from "../../common/logger.ts";
import type { RateLimitedLog } from "../../common/rate-limited-log.ts";
import type { CredentialStore } from "../../credentials/credential-store.ts";
import { storeSignal } from "../stores/authorization-stores.ts";
import type { AthleteStore } from "../stores/athlete-store.ts";
import type { UsageStore } from "../stores/usage-store.ts";
import type { StravaApplication } from "./strava-sign-in.ts";
import type { WebhookSubscription } from "./webhook-subscription.ts";
import type { SourceCounts } from "../endpoints/source-counts.ts";

/** How many deauthorization checks one athlete's events may cost a day (one per 15-minute window at most). */
export const deauthorizationChecksPerDay = 4;

/** Events one source may post a minute (Strava sends a few per athlete and activity). */
export const eventsPerSourcePerMinute = 60;

export interface WebhookNeeds {
  verifyToken: string | undefined;
  subscription: WebhookSubscription;
  depsFor: (athleteId: string) => ToolDeps;
  /** Every line the endpoint logs, at a bounded rate. */
  log: RateLimitedLog;
  perSource: SourceCounts;
  /** The athletes whose check this process knows is taken in the current quarter hour. */
  checked: QuarterMarks;
  athletes: Pick<AthleteStore, "hasAthlete">;
  usage: Pick<UsageStore, "claimDeauthorizationCheck">;
  /** The athlete's Strava tokens, read to ask Strava whether they still work. */
  athleteCredentials: (athleteId: string) => Pick<CredentialStore, "load">;
  strava: Pick<StravaApplication, "http">;
  /** Deletes everything stored for the athlete (disconnect-athlete.ts), without revoking at Strava: they did. */
  disconnect: (athleteId: string, why: string) => Promise<void>;
  logger: Logger;
  now: () => number;
  storeTimeoutMs: number;
}

interface StravaEvent {
  object_type: "activity" | "athlete";
  object_id: number;
  aspect_type: "create" | "update" | "delete";
  owner_id: number;
  subscription_id: number;
  event_time: number;
  updates: Record<string, unknown>;
}

export async function stravaWebhook(request: Request, options: WebhookNeeds, sourceAddress: string | undefined): Promise<Response> {
  const { log } = options;
  if (request.method === "GET") {
    const query = new URL(request.url).searchParams;
    const challenge = query.get("hub.challenge");
    if (query.get("hub.mode") !== "subscribe" || challenge === null) {
      return Response.json(
        {
          error: "invalid_request",
          error_description: "Expected Strava's subscription check: hub.mode=subscribe with hub.challenge and hub.verify_token.",
        },
        { status: 400 },
      );
    }
    if (options.verifyToken === undefined || !secretsMatch(query.get("hub.verify_token") ?? "", options.verifyToken)) {
      log.record("check_refused", { message: "The verify_token does not match STRAVA_WEBHOOK_VERIFY_TOKEN (or it is not set)." });
      return Response.json(
        { error: "forbidden", error_description: "hub.verify_token is not this server's STRAVA_WEBHOOK_VERIFY_TOKEN." },
        { status: 403 },
      );
    }
    options.logger.info("strava_webhook_subscribed", {});
    return Response.json({ "hub.challenge": challenge });
  }
  if (request.method !== "POST") return Response.json({ error: "method_not_allowed" }, { status: 405, headers: { allow: "GET, POST" } });
  const counted = options.perSource.admit(sourceAddress, options.now());
  if (!counted.admitted) {
    log.record("rate", { source: sourceAddress });
    return Response.json(
      {
        error: "too_many_requests",
        error_description: `At most ${eventsPerSourcePerMinute} events a minute from one address (an IPv6 /64).`,
      },
      { status: 429, headers: { "retry-after": String(counted.retryAfterSeconds) } },
    );
  }

  let parsed: unknown;
  try {
    parsed = JSON.parse(await readBodyText(request, 8 * 1024));
  } catch {
    log.record("not_json", {});
    return Response.json(
      { error: "invalid_request", error_description: "The event must be a JSON object of at most 8 KiB." },
      { status: 400 },
    );
  }
  const problem = eventProblem(parsed);
  if (problem !== undefined) {
    log.record("malformed", { message: problem });
    return Response.json({ error: "invalid_request", error_description: `Not a Strava webhook event: ${problem}.` }, { status: 400 });
  }
  await handleEvent(parsed as StravaEvent, options);
  return Response.json({ received: true });
}

/** What a well-formed event does; whatever it is, its answer is the same (this file's header says why). */
async function handleEvent(event: StravaEvent, options: WebhookNeeds): Promise<void> {
  const { log } = options;
  const subscription = await options.subscription.check(event.subscription_id);
  if (subscription === "unknown") {
    log.record("subscription_unknown", {
      message: `This deployment's push subscription is not known yet (${options.subscription.lastFailure ?? "no answer"}); the event is ignored. Set STRAVA_WEBHOOK_SUBSCRIPTION_ID to its id.`,
    });
    return;
  }
  if (subscription === "not-ours") {
    log.record("other_subscription", { subscription_id: event.subscription_id });
    return;
  }
  const deauthorized = event.object_type === "athlete" && event.aspect_type === "update" && String(event.updates["authorized"]) === "false";
  if (!deauthorized) return;
  const athleteId = String(event.object_id);
  const deferred = (): void =>
    log.record("deauthorization_deferred", {
      athlete: athleteId,
      message: `This athlete's deauthorization check with Strava is spent for now, so the event is acknowledged without deleting anything. If they did revoke access on Strava: npm run oauth-admin -- forget ${athleteId}`,
    });
  if (options.checked.has(athleteId, options.now())) return deferred();
  if (!(await options.athletes.hasAthlete(athleteId, storeSignal(options.storeTimeoutMs)))) {
    log.record("deauthorization_ignored", { athlete: athleteId, message: "Nothing is stored for this athlete." });
    return;
  }
  const claimed = await options.usage.claimDeauthorizationCheck(
    athleteId,
    deauthorizationChecksPerDay,
    options.now(),
    storeSignal(options.storeTimeoutMs),
  );
  options.checked.mark(athleteId, options.now());
  if (!claimed) return deferred();
  const verdict = await confirmWithStrava(athleteId, options.depsFor(athleteId), options);
  if (verdict === "still-authorized") {
    log.record("deauthorization_unconfirmed", {
      athlete: athleteId,
      message: "Strava still accepts the athlete's credentials: the event is ignored (forged, or sent in error).",
    });
    return;
  }
  if (verdict === "unknown") {
    log.record("deauthorization_unchecked", {
      athlete: athleteId,
      message: `Could not ask Strava whether the athlete revoked access, so the event is acknowledged without deleting anything. If they did: npm run oauth-admin -- forget ${athleteId}`,
    });
    return;
  }
  await options.disconnect(athleteId, "they revoked this application on Strava");
}

/** What makes `value` not an event of Strava's shape, or undefined when it is one. */
function eventProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
  const event = value as Record<string, unknown>;
  if (event["object_type"] !== "activity" && event["object_type"] !== "athlete") return 'object_type must be "activity" or "athlete"';
  if (!["create", "update", "delete"].includes(String(event["aspect_type"]))) return 'aspect_type must be "create", "update" or "delete"';
  for (const field of ["object_id", "owner_id", "subscription_id", "event_time"]) {
    const number = event[field];
    if (typeof number !== "number" || !Number.isSafeInteger(number) || number <= 0) return `${field} must be a positive whole number`;
  }
  if (event["object_type"] === "athlete" && event["object_id"] !== event["owner_id"])
    return "an athlete event's object_id and owner_id must be the athlete";
  const updates = event["updates"] ?? {};
  if (typeof updates !== "object" || updates === null || Array.isArray(updates)) return "updates must be an object";
  (event as { updates: unknown }).updates = updates;
  return undefined;
}

/** Which athletes' check of the current quarter hour this process saw taken (so repeats skip the store). */
export class QuarterMarks {
  #quarter = -1;
  #athletes = new Set<string>();

  has(athleteId: string, nowMs: number): boolean {
    return this.#roll(nowMs).has(athleteId);
  }

  mark(athleteId: string, nowMs: number): void {
    this.#roll(nowMs).add(athleteId);
  }

  #roll(nowMs: number): Set<string> {
    const quarter = Math.floor(nowMs / 900_000);
    if (quarter !== this.#quarter) {
      this.#quarter = quarter;
      this.#athletes = new Set();
    }
    return this.#athletes;
  }
}

/**
 * Asks Strava whether the athlete's access still works, within Strava's two seconds: with the stored
 * access token when it is still valid by its expiry (one GET /athlete, no refresh, so nothing rotates),
 * else through the athlete's token manager (which refreshes and saves first), bounded in time.
 */
async function confirmWithStrava(
  athleteId: string,
  deps: ToolDeps,
  options: WebhookNeeds,
): Promise<"deauthorized" | "still-authorized" | "unknown"> {
  const deadline = AbortSignal.timeout(1_500);
  try {
    const stored = (await options.athleteCredentials(athleteId).load(deadline)).credentials;
    if (stored.access_token && stored.expires_at && stored.expires_at * 1000 > options.now() + 60_000) {
      const answer = await options.strava.http({
        method: "GET",
        url: `${deps.client.settings.apiBase}/athlete`,
        headers: { authorization: `Bearer ${stored.access_token}`, accept: "application/json" },
        signal: deadline,
        timeoutMs: 1_500,
      });
      if (answer.status === 401) return "deauthorized";
      return answer.status >= 200 && answer.status < 300 ? "still-authorized" : "unknown";
    }
    await deps.client.send({ method: "GET", path: "/athlete" }, { signal: deadline });
    return "still-authorized";
  } catch (error) {
    if (error instanceof UpstreamStatusError && error.status === 401) return "deauthorized";
    if (error instanceof RefreshTokenRejectedError) return "deauthorized";
    return "unknown";
  }
}
