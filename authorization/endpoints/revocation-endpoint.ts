/**
 * Token revocation (`POST /revoke`, RFC 7009) and what disconnecting means here. A client revokes its
 * refresh token or an access token; either ends the whole grant, so every access token of it stops
 * working at once (the resource server checks the grant on every request). Unknown or invalid tokens
 * are answered 200 as the RFC asks; a token of another client is refused. An expired access token counts
 * as unknown: it proves only that someone once saw it (in an old log, say), and RFC 7009 answers 200
 * either way.
 *
 * When a client ends an athlete's last grant, nothing here needs their Strava tokens any more: the Strava
 * grant is revoked too and everything stored for the athlete is deleted (Strava's deauthorization webhook
 * ends in the same place, strava-webhook.ts). A grant ended as a precaution instead keeps them for the
 * grace period (admission.ts).
 */
import { AccessTokenError } from "../tokens/access-tokens.ts";
import { jsonAnswer, OAuthRequestError, oauthErrorAnswer, readForm, withCors } from "./oauth-answers.ts";
import { storeSignal, type OAuthContext } from "../oauth-context.ts";
import { revokeStravaGrant } from "../strava/strava-sign-in.ts";
import { sha256Hex } from "../../common/digests.ts";
import { messageOf } from "../../common/named-error.ts";

export async function revocationRequest(request: Request, context: OAuthContext, clientAddress?: string): Promise<Response> {
  try {
    const form = await readForm(request);
    const client = await context.clients.authenticate(form, request.headers.get("authorization"), storeSignal(context), clientAddress);
    const token = form.get("token");
    if (!token) throw new OAuthRequestError("invalid_request", "token is missing.");
    const grantId = await grantOf(token, context);
    if (grantId !== undefined) {
      const grant = await context.store.getGrant(grantId, storeSignal(context));
      if (grant !== undefined) {
        if (grant.client_id !== client.clientId)
          throw new OAuthRequestError("invalid_request", "This token was issued to another client; only that client can revoke it.");
        await removeGrant(grantId, context);
        context.logger.info("grant_revoked", { athlete: grant.athlete_id, grant: grant.grant_id });
      }
    }
    return withCors(jsonAnswer(200, {}));
  } catch (error) {
    if (!(error instanceof OAuthRequestError)) throw error;
    context.logger.info("revocation_refused", { error: error.code, message: error.description });
    return withCors(oauthErrorAnswer(error));
  }
}

/** The grant a refresh token (`<grant>.<secret>`, checked against the stored hash) or access token belongs to. */
async function grantOf(token: string, context: OAuthContext): Promise<string | undefined> {
  const refresh = context.refreshTokens.parse(token);
  if (refresh !== undefined) {
    const grant = await context.store.getGrant(refresh.grantId, storeSignal(context));
    const hash = sha256Hex(token);
    const earlier = refresh.generation !== undefined && grant?.generation !== undefined && refresh.generation < grant.generation;
    const ofGrant =
      grant !== undefined &&
      (hash === grant.refresh_sha256 || hash === grant.previous_sha256 || grant.spent_sha256.includes(hash) || earlier);
    return ofGrant ? refresh.grantId : undefined;
  }
  try {
    return (await context.accessTokens.verify(token)).grantId;
  } catch (error) {
    if (error instanceof AccessTokenError) return undefined;
    throw error;
  }
}

/** Ends a grant its client revoked; when it was the athlete's last, disconnects the athlete (Strava revoke, data deleted). */
export async function removeGrant(grantId: string, context: OAuthContext): Promise<void> {
  const removed = await context.store.deleteGrant(grantId, storeSignal(context));
  if (removed === undefined) return;
  const left = await context.store.grantsOf(removed.athlete_id, storeSignal(context));
  if (left.length === 0) await disconnectAthlete(removed.athlete_id, "their last grant ended", context, { revokeAtStrava: true });
}

/**
 * Deletes everything stored for the athlete. With `revokeAtStrava`, the Strava grant is revoked first
 * (best effort: a Strava that does not answer does not keep the data here).
 */
export async function disconnectAthlete(
  athleteId: string,
  why: string,
  context: Pick<OAuthContext, "store" | "strava" | "logger" | "onAthleteDeleted" | "storeTimeoutMs">,
  options: { revokeAtStrava: boolean },
): Promise<void> {
  if (options.revokeAtStrava) {
    try {
      const snapshot = await context.store.credentialStoreFor(athleteId).load(storeSignal(context));
      await revokeStravaGrant(context.strava, snapshot.credentials.refresh_token);
    } catch (error) {
      context.logger.warn("strava_revoke_failed", { athlete: athleteId, message: messageOf(error) });
    }
  }
  await context.store.deleteAthlete(athleteId, storeSignal(context));
  context.onAthleteDeleted(athleteId);
  context.logger.info("athlete_disconnected", { athlete: athleteId, why });
}
