/**
 * Strava's webhook (the application's push subscription, callback `PUBLIC_URL/strava/webhook`):
 *
 * - `GET` with `hub.mode=subscribe`, `hub.challenge`, `hub.verify_token`: Strava checking the callback when
 *   the subscription is created. Answered `{"hub.challenge": ...}` when the verify token is this
 *   deployment's `STRAVA_WEBHOOK_VERIFY_TOKEN` (compared in constant time), 403 otherwise.
 * - `POST` events: an athlete update with `updates.authorized: "false"` means the athlete revoked this
 *   application on Strava; everything stored for them is deleted, so their grants end too. Strava does
 *   not sign its events, so a deauthorization is believed only after Strava confirms it: the athlete's
 *   own credentials are tried (GET /athlete, refreshing first if due) and must be refused. A forged event
 *   for an athlete whose access still works changes nothing. Other events (activities) are acknowledged
 *   and ignored. Strava wants a 200 within two seconds and tries three times; a check that could not be
 *   finished is answered 503 so that Strava tries again.
 */
import { secretsMatch } from "../../common/digests.ts";
import { RefreshTokenRejectedError, UpstreamStatusError } from "../../tools/upstream-errors.ts";
import type { ToolDeps } from "../../tools/create-tool-deps.ts";
import { readBodyText } from "./oauth-answers.ts";
import { storeSignal, type OAuthContext } from "./oauth-context.ts";
import { disconnectAthlete } from "./revocation-endpoint.ts";

export async function stravaWebhook(request: Request, context: OAuthContext, verifyToken: string | undefined, depsFor: (athleteId: string) => ToolDeps): Promise<Response> {
  if (request.method === "GET") {
    const query = new URL(request.url).searchParams;
    const challenge = query.get("hub.challenge");
    if (query.get("hub.mode") !== "subscribe" || challenge === null) {
      return Response.json({ error: "invalid_request", error_description: "Expected Strava's subscription check: hub.mode=subscribe with hub.challenge and hub.verify_token." }, { status: 400 });
    }
    if (verifyToken === undefined || !secretsMatch(query.get("hub.verify_token") ?? "", verifyToken)) {
      context.logger.warn("strava_webhook_check_refused", { message: "The verify_token does not match STRAVA_WEBHOOK_VERIFY_TOKEN (or it is not set)." });
      return Response.json({ error: "forbidden", error_description: "hub.verify_token is not this server's STRAVA_WEBHOOK_VERIFY_TOKEN." }, { status: 403 });
    }
    context.logger.info("strava_webhook_subscribed", {});
    return Response.json({ "hub.challenge": challenge });
  }
  if (request.method !== "POST") return Response.json({ error: "method_not_allowed" }, { status: 405, headers: { allow: "GET, POST" } });

  let event: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(await readBodyText(request, 8 * 1024));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
    event = parsed as Record<string, unknown>;
  } catch {
    return Response.json({ error: "invalid_request", error_description: "The event must be a JSON object." }, { status: 400 });
  }
  const updates = event["updates"] as Record<string, unknown> | undefined;
  const deauthorized = event["object_type"] === "athlete" && event["aspect_type"] === "update" && String(updates?.["authorized"]) === "false";
  if (!deauthorized) return Response.json({ received: true });
  const athleteId = String(event["object_id"] ?? event["owner_id"] ?? "");
  if (!/^\d{1,20}$/.test(athleteId)) return Response.json({ error: "invalid_request", error_description: "object_id must be the athlete's id." }, { status: 400 });
  if (!(await context.store.hasAthlete(athleteId, storeSignal(context)))) {
    context.logger.info("strava_deauthorization_ignored", { athlete: athleteId, message: "Nothing is stored for this athlete." });
    return Response.json({ received: true });
  }
  const verdict = await confirmWithStrava(athleteId, depsFor(athleteId), context);
  if (verdict === "still-authorized") {
    context.logger.warn("strava_deauthorization_unconfirmed", { athlete: athleteId, message: "Strava still accepts the athlete's credentials: the event is ignored (forged, or sent in error)." });
    return Response.json({ received: true });
  }
  if (verdict === "unknown") {
    context.logger.warn("strava_deauthorization_unchecked", { athlete: athleteId, message: "Could not ask Strava whether the athlete revoked access; answering 503 so Strava sends the event again." });
    return Response.json({ error: "temporarily_unavailable" }, { status: 503 });
  }
  await disconnectAthlete(athleteId, "they revoked this application on Strava", context, { revokeAtStrava: false });
  return Response.json({ received: true });
}

/**
 * Asks Strava whether the athlete's access still works, within Strava's two seconds: with the stored
 * access token when it is still valid by its expiry (one GET /athlete, no refresh, so nothing rotates),
 * else through the athlete's token manager (which refreshes and saves first), bounded in time.
 */
async function confirmWithStrava(athleteId: string, deps: ToolDeps, context: OAuthContext): Promise<"deauthorized" | "still-authorized" | "unknown"> {
  const deadline = AbortSignal.timeout(1_500);
  try {
    const stored = (await context.store.credentialStoreFor(athleteId).load(deadline)).credentials;
    if (stored.access_token && stored.expires_at && stored.expires_at * 1000 > context.now() + 60_000) {
      const answer = await context.strava.http({
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
