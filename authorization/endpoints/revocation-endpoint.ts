/**
 * Token revocation (`POST /revoke`, RFC 7009) and what disconnecting means here. A client revokes its
 * refresh token or an access token; either ends the whole grant, so every access token of it stops
 * working at once (the resource server checks the grant on every request). Unknown or invalid tokens
 * are answered 200 as the RFC asks; a token of another client is refused. An expired access token counts
 * as unknown: it proves only that someone once saw it (in an old log, say), and RFC 7009 answers 200
 * either way.
 *
 * When a client ends an athlete's last grant, nothing here needs their Strava tokens any more: the Strava
 * grant is revoked too and everything stored for the athlete is deleted (grant-endings.ts `removeGrant`,
 * disconnect-athlete.ts; Strava's deauthorization webhook ends in the same place). A grant ended as a
 * precaution instead keeps them for the grace period (admission.ts).
 */
import type { Logger } from "../../common/logger.ts";
import { sha256Hex } from "../../common/digests.ts";
import type { ClientDirectory } from "../clients/clients.ts";
import { storeSignal } from "../stores/authorization-stores.ts";
import type { GrantStore } from "../stores/grant-store.ts";
import { AccessTokenError, type AccessTokens } from "../tokens/access-tokens.ts";
import type { RefreshTokens } from "../tokens/refresh-tokens.ts";
import { jsonAnswer, OAuthRequestError, oauthErrorAnswer, readForm, withCors } from "./oauth-answers.ts";

/** What the revocation endpoint works with. */
export interface RevocationEndpointNeeds {
  clients: ClientDirectory;
  grants: Pick<GrantStore, "getGrant">;
  accessTokens: AccessTokens;
  refreshTokens: RefreshTokens;
  /** Ends the grant its client revoked (grant-endings.ts `removeGrant`). */
  removeGrant: (grantId: string) => Promise<void>;
  logger: Logger;
  storeTimeoutMs: number;
}

export async function revocationRequest(request: Request, needs: RevocationEndpointNeeds, clientAddress?: string): Promise<Response> {
  try {
    const form = await readForm(request);
    const client = await needs.clients.authenticate(
      form,
      request.headers.get("authorization"),
      storeSignal(needs.storeTimeoutMs),
      clientAddress,
    );
    const token = form.get("token");
    if (!token) throw new OAuthRequestError("invalid_request", "token is missing.");
    const grantId = await grantOf(token, needs);
    if (grantId !== undefined) {
      const grant = await needs.grants.getGrant(grantId, storeSignal(needs.storeTimeoutMs));
      if (grant !== undefined) {
        if (grant.client_id !== client.clientId)
          throw new OAuthRequestError("invalid_request", "This token was issued to another client; only that client can revoke it.");
        await needs.removeGrant(grantId);
        needs.logger.info("grant_revoked", { athlete: grant.athlete_id, grant: grant.grant_id });
      }
    }
    return withCors(jsonAnswer(200, {}));
  } catch (error) {
    if (!(error instanceof OAuthRequestError)) throw error;
    needs.logger.info("revocation_refused", { error: error.code, message: error.description });
    return withCors(oauthErrorAnswer(error));
  }
}

/** The grant a refresh token (`<grant>.<secret>`, checked against the stored hash) or access token belongs to. */
async function grantOf(token: string, needs: RevocationEndpointNeeds): Promise<string | undefined> {
  const refresh = needs.refreshTokens.parse(token);
  if (refresh !== undefined) {
    const grant = await needs.grants.getGrant(refresh.grantId, storeSignal(needs.storeTimeoutMs));
    const hash = sha256Hex(token);
    const earlier = refresh.generation !== undefined && grant?.generation !== undefined && refresh.generation < grant.generation;
    const ofGrant =
      grant !== undefined &&
      (hash === grant.refresh_sha256 || hash === grant.previous_sha256 || grant.spent_sha256.includes(hash) || earlier);
    return ofGrant ? refresh.grantId : undefined;
  }
  try {
    return (await needs.accessTokens.verify(token)).grantId;
  } catch (error) {
    if (error instanceof AccessTokenError) return undefined;
    throw error;
  }
}
