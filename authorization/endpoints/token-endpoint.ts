/**
 * The token endpoint (`POST /token`, RFC 6749 §3.2): the authorization_code grant with PKCE S256
 * (RFC 7636) and the refresh_token grant with rotation.
 *
 * Bad input loses nothing: a code is checked (client, redirect URI, verifier, resource) before it is
 * used up, so a wrong verifier or a stray request cannot cost the real client its code; only then is it
 * redeemed, atomically, so of two requests with one code only one gets tokens (the other: invalid_grant).
 * A code presented again by its own client after it was redeemed revokes the grant it created (RFC 6749
 * section 4.1.2): whoever replays it has the code, so the tokens it bought cannot be trusted either. Another
 * client presenting it is only refused: it cannot prove the code leaked from the grant's client, and it
 * must not be able to end a grant that is not its own.
 *
 * Refresh tokens (refresh-tokens.ts) are stored by SHA-256 in their grant, and rotate on every use
 * (compare-and-swap on the grant, so two instances cannot both rotate one token). The token just
 * replaced stays good for 60 seconds in case its answer was lost on the way (the next refresh with it
 * rotates again and the lost one dies); any older one presented again means the grant's tokens leaked,
 * so the grant is revoked (OAuth 2.0 Security BCP §4.14.2) and the client must sign in again. A grant
 * ended this way leaves the athlete's Strava authorization alone: when it was their last, their Strava
 * tokens wait out the grace period (admission.ts), and a new sign-in serves them again.
 *
 * An athlete no longer admitted (MCP_ATHLETES changed, or the owner was reset) gets no new tokens: their
 * grants here are revoked at the first refresh (admission.ts).
 */
import { createHash, randomUUID } from "node:crypto";
import type { Logger } from "../../common/logger.ts";
import { sha256Hex } from "../../common/digests.ts";
import { isThisResource, type ServerAddresses } from "../addresses.ts";
import type { ClientDirectory, KnownClient } from "../clients/clients.ts";
import { jsonAnswer, OAuthRequestError, oauthErrorAnswer, readForm, withCors } from "./oauth-answers.ts";
import { storeSignal } from "../stores/authorization-stores.ts";
import type { GrantRecord, GrantStore } from "../stores/grant-store.ts";
import type { RegistrationStore } from "../stores/registration-store.ts";
import type { AccessTokens } from "../tokens/access-tokens.ts";
import type { RefreshTokens } from "../tokens/refresh-tokens.ts";
import { scopeText } from "../tokens/scopes.ts";

/** How long a grant lives without a refresh. */
export const grantIdleSeconds = 90 * 86_400;
/** How long the refresh token just replaced is still accepted (a lost answer). */
const rotationGraceSeconds = 60;
/** Registered clients that got tokens are kept this long after. */
const registrationKeepSeconds = 180 * 86_400;

/** What the token endpoint works with. */
export interface TokenEndpointNeeds {
  addresses: ServerAddresses;
  clients: ClientDirectory;
  grants: Pick<GrantStore, "getCode" | "redeemCode" | "createGrant" | "getGrant" | "replaceGrant">;
  registrations: Pick<RegistrationStore, "getClient" | "keepClient">;
  accessTokens: AccessTokens;
  refreshTokens: RefreshTokens;
  /** Whether the athlete is still served (their grants revoked when not: admission.ts). */
  stillAdmits: (athleteId: string) => Promise<boolean>;
  /** Ends a grant whose tokens can no longer be trusted (grant-endings.ts). */
  endGrantAsPrecaution: (grantId: string, why: string) => Promise<void>;
  logger: Logger;
  now: () => number;
  storeTimeoutMs: number;
}

export async function tokenRequest(request: Request, needs: TokenEndpointNeeds, clientAddress?: string): Promise<Response> {
  try {
    const form = await readForm(request);
    const client = await needs.clients.authenticate(
      form,
      request.headers.get("authorization"),
      storeSignal(needs.storeTimeoutMs),
      clientAddress,
    );
    const grantType = form.get("grant_type");
    let answer: Response;
    if (grantType === "authorization_code") answer = await redeemCode(form, client, needs);
    else if (grantType === "refresh_token") answer = await refresh(form, client, needs);
    else if (!grantType) throw new OAuthRequestError("invalid_request", "grant_type is missing: use authorization_code or refresh_token.");
    else
      throw new OAuthRequestError(
        "unsupported_grant_type",
        `grant_type ${grantType.slice(0, 60)} is not supported: use authorization_code or refresh_token.`,
      );
    return withCors(answer);
  } catch (error) {
    if (!(error instanceof OAuthRequestError)) throw error;
    needs.logger.info("token_request_refused", { error: error.code, message: error.description });
    return withCors(oauthErrorAnswer(error));
  }
}

async function redeemCode(form: URLSearchParams, client: KnownClient, needs: TokenEndpointNeeds): Promise<Response> {
  const code = form.get("code");
  if (!code) throw new OAuthRequestError("invalid_request", "code is missing.");
  const codeHash = sha256Hex(code);
  const record = await needs.grants.getCode(codeHash, storeSignal(needs.storeTimeoutMs));
  if (record === undefined)
    throw new OAuthRequestError("invalid_grant", "The authorization code is unknown, expired or already used; sign in again.");
  if (record.redeemed_grant !== undefined) {
    if (record.client_id === client.clientId) await revokeReplayedCode(record.redeemed_grant, needs);
    throw new OAuthRequestError("invalid_grant", "The authorization code is unknown, expired or already used; sign in again.");
  }
  if (record.client_id !== client.clientId)
    throw new OAuthRequestError("invalid_grant", "The authorization code was issued to another client.");
  const redirectUri = form.get("redirect_uri");
  if (redirectUri === null)
    throw new OAuthRequestError("invalid_request", "redirect_uri is missing: send the one the authorization request used.");
  if (redirectUri !== record.redirect_uri)
    throw new OAuthRequestError("invalid_grant", "redirect_uri differs from the one the authorization request used.");
  const verifier = form.get("code_verifier");
  if (verifier === null) throw new OAuthRequestError("invalid_request", "code_verifier is missing (PKCE).");
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) {
    throw new OAuthRequestError("invalid_grant", "code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, '-', '.', '_' and '~'.");
  }
  if (createHash("sha256").update(verifier).digest("base64url") !== record.code_challenge) {
    throw new OAuthRequestError("invalid_grant", "code_verifier does not match the code_challenge of the authorization request.");
  }
  checkResource(form, record.resource, needs);
  // Kept before the grant exists: a registration evicted meanwhile gets no grant it could not refresh.
  await keepRegistration(client, needs);
  const grantId = randomUUID();
  const redemption = await needs.grants.redeemCode(codeHash, grantId, storeSignal(needs.storeTimeoutMs));
  if (!redemption.redeemed) {
    if (redemption.grantId !== undefined) await revokeReplayedCode(redemption.grantId, needs);
    throw new OAuthRequestError("invalid_grant", "The authorization code is unknown, expired or already used; sign in again.");
  }
  const now = Math.floor(needs.now() / 1000);
  const refreshToken = needs.refreshTokens.issue(grantId, 1);
  const grant: GrantRecord = {
    grant_id: grantId,
    athlete_id: record.athlete_id,
    client_id: client.clientId,
    client_name: record.client_name,
    scope: record.scope,
    resource: record.resource,
    refresh_sha256: sha256Hex(refreshToken),
    spent_sha256: [],
    generation: 1,
    created_at: now,
    expires_at: now + grantIdleSeconds,
    revision: 1,
  };
  await needs.grants.createGrant(grant, storeSignal(needs.storeTimeoutMs));
  needs.logger.info("grant_created", { athlete: grant.athlete_id, grant: grant.grant_id, scope: grant.scope });
  return tokensAnswer(grant, refreshToken, needs);
}

/** A redeemed code came back from its own client: the grant it bought is revoked. */
async function revokeReplayedCode(grantId: string, needs: TokenEndpointNeeds): Promise<void> {
  const grant = await needs.grants.getGrant(grantId, storeSignal(needs.storeTimeoutMs));
  needs.logger.warn("authorization_code_replayed", {
    grant: grantId,
    athlete: grant?.athlete_id,
    message: "An authorization code was presented again after it was redeemed: the grant it created is revoked.",
  });
  if (grant !== undefined) await needs.endGrantAsPrecaution(grantId, "an authorization code was presented again");
}

async function refresh(form: URLSearchParams, client: KnownClient, needs: TokenEndpointNeeds, attempt = 1): Promise<Response> {
  const presented = form.get("refresh_token");
  if (!presented) throw new OAuthRequestError("invalid_request", "refresh_token is missing.");
  const { grant, current, now } = await presentedGrant(presented, client, needs);
  if (!(await needs.stillAdmits(grant.athlete_id))) {
    throw new OAuthRequestError(
      "invalid_grant",
      "This server no longer serves this Strava athlete (its operator changed who it serves); the grant is revoked.",
    );
  }
  const scope = narrowedScope(form.get("scope"), grant);
  checkResource(form, grant.resource, needs);

  const generation = (grant.generation ?? 0) + 1;
  const next = needs.refreshTokens.issue(grant.grant_id, generation);
  const updated = rotatedGrant(grant, { current, now, generation, refreshSha256: sha256Hex(next) });
  if (!(await needs.grants.replaceGrant(updated, storeSignal(needs.storeTimeoutMs)))) {
    // Another request rotated this grant at the same moment: read it again once.
    if (attempt < 2) return refresh(form, client, needs, attempt + 1);
    throw new OAuthRequestError("invalid_grant", "The grant changed while this refresh ran; refresh again with the newest refresh token.");
  }
  await keepRegistration(client, needs);
  return tokensAnswer({ ...updated, scope }, next, needs);
}

/**
 * The grant a presented refresh token belongs to, when the token is its current one or the one just replaced
 * within the grace period (`current` says which), and the time it was checked at (epoch s). A replaced token
 * presented again ends the grant.
 */
async function presentedGrant(
  presented: string,
  client: KnownClient,
  needs: TokenEndpointNeeds,
): Promise<{ grant: GrantRecord; current: boolean; now: number }> {
  const invalid = new OAuthRequestError("invalid_grant", "The refresh token is unknown, expired or revoked; sign in again.");
  const parsed = needs.refreshTokens.parse(presented);
  if (parsed === undefined) throw invalid;
  const grant = await needs.grants.getGrant(parsed.grantId, storeSignal(needs.storeTimeoutMs));
  if (grant === undefined) throw invalid;
  if (grant.client_id !== client.clientId) throw new OAuthRequestError("invalid_grant", "The refresh token was issued to another client.");
  const hash = sha256Hex(presented);
  const now = Math.floor(needs.now() / 1000);
  const current = hash === grant.refresh_sha256;
  const lostAnswer = hash === grant.previous_sha256 && grant.rotated_at !== undefined && now - grant.rotated_at <= rotationGraceSeconds;
  if (current || lostAnswer) return { grant, current, now };
  const olderGeneration = parsed.generation !== undefined && grant.generation !== undefined && parsed.generation < grant.generation;
  if (olderGeneration || hash === grant.previous_sha256 || grant.spent_sha256.includes(hash)) {
    needs.logger.warn("refresh_token_reuse", {
      athlete: grant.athlete_id,
      grant: grant.grant_id,
      message: "A replaced refresh token was used again: the grant is revoked.",
    });
    await needs.endGrantAsPrecaution(grant.grant_id, "a replaced refresh token was used again");
    throw new OAuthRequestError(
      "invalid_grant",
      "This refresh token was already used and replaced; as a precaution the grant is revoked. Sign in again.",
    );
  }
  throw invalid;
}

/** The scope a refresh asks for: the grant's, or a narrower one; never wider. */
function narrowedScope(requested: string | null, grant: GrantRecord): string {
  if (requested === null || requested.trim() === "") return grant.scope;
  const granted = grant.scope.split(" ");
  const asked = requested.split(" ").filter((item) => item !== "" && item !== "offline_access");
  const beyond = asked.filter((item) => !granted.includes(item));
  if (beyond.length > 0)
    throw new OAuthRequestError(
      "invalid_scope",
      `The grant does not include ${beyond.join(", ")}; a refresh can only keep or narrow the scope.`,
    );
  return scopeText(asked);
}

/** The grant with its refresh token rotated: the one presented becomes the previous one (when it was current), and the grant lives on. */
function rotatedGrant(
  grant: GrantRecord,
  rotation: { current: boolean; now: number; generation: number; refreshSha256: string },
): GrantRecord {
  const { current, now } = rotation;
  // Hashes of spent tokens are kept only for tokens issued before generations (they carry none).
  const spentLegacy = current && grant.generation === undefined ? [grant.previous_sha256, ...grant.spent_sha256] : grant.spent_sha256;
  return {
    ...grant,
    refresh_sha256: rotation.refreshSha256,
    previous_sha256: current ? grant.refresh_sha256 : grant.previous_sha256,
    rotated_at: current ? now : grant.rotated_at,
    spent_sha256: spentLegacy.filter((item): item is string => item !== undefined).slice(0, 8),
    generation: rotation.generation,
    expires_at: now + grantIdleSeconds,
    revision: grant.revision + 1,
  };
}

function checkResource(form: URLSearchParams, granted: string, needs: TokenEndpointNeeds): void {
  const resource = form.get("resource");
  // Absent: the resource of the authorization (RFC 8707 lets the client leave it out here).
  if (resource === null) return;
  if (!isThisResource(resource, needs.addresses) || granted !== needs.addresses.resource) {
    throw new OAuthRequestError("invalid_target", `resource must be this server's MCP endpoint, ${needs.addresses.resource}.`);
  }
}

async function tokensAnswer(grant: GrantRecord, refreshToken: string, needs: TokenEndpointNeeds): Promise<Response> {
  const scopes = grant.scope.split(" ").filter((item) => item !== "");
  const access = await needs.accessTokens.issue({
    athleteId: grant.athlete_id,
    clientId: grant.client_id,
    scopes,
    grantId: grant.grant_id,
  });
  return jsonAnswer(200, {
    access_token: access.token,
    token_type: "Bearer",
    expires_in: access.expiresIn,
    refresh_token: refreshToken,
    scope: grant.scope,
  });
}

/** A registered client that gets tokens keeps its registration (unused ones expire). */
async function keepRegistration(client: KnownClient, needs: TokenEndpointNeeds): Promise<void> {
  if (client.kind !== "registered") return;
  const stored = await needs.registrations.getClient(client.clientId, storeSignal(needs.storeTimeoutMs));
  const now = Math.floor(needs.now() / 1000);
  if (stored === undefined)
    throw new OAuthRequestError(
      "invalid_client",
      "This client's registration is gone (an unused one is kept a day); register again and sign in again.",
    );
  if (stored.unused_seq === undefined && stored.expires_at - now > registrationKeepSeconds / 2) return;
  await needs.registrations.keepClient(client.clientId, now + registrationKeepSeconds, storeSignal(needs.storeTimeoutMs));
}
