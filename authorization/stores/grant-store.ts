/**
 * What a sign-in leaves and a client holds: the Strava sign-in states already used, authorization codes, and
 * grants. Two backends: file-grant-store.ts and dynamodb-grant-store.ts. Any instance may serve any request, so
 * each of these is decided in the store, never in one process's memory:
 *
 * - a Strava sign-in state comes back from Strava once, and a replay of it (with a code made up to make this
 *   server spend a token request at Strava) finds it spent, on every instance;
 * - authorization codes, stored by their hash, single-use: `redeemCode` marks a code redeemed atomically,
 *   naming the grant it created, so of two instances redeeming one code only one succeeds, and a replay
 *   finds the grant to revoke;
 * - grants: one per client authorization, holding the hash of its current refresh token; a refresh is a
 *   compare-and-swap on the grant's revision, so two instances refreshing one grant cannot both rotate it.
 *
 * Codes and refresh tokens are stored by SHA-256 only. Records carry an expiry (epoch seconds) after which they
 * count as absent; stores delete them lazily (files) or by TTL (DynamoDB).
 */

export interface AuthorizationCodeRecord {
  code_sha256: string;
  client_id: string;
  redirect_uri: string;
  /** PKCE S256 challenge. */
  code_challenge: string;
  /** Granted scopes, space separated. */
  scope: string;
  resource: string;
  athlete_id: string;
  /** The client's name when the athlete consented (shown when grants are listed). */
  client_name: string;
  expires_at: number;
  /** Once redeemed: the grant it created (a replayed code revokes it, RFC 6749 section 4.1.2). */
  redeemed_grant?: string;
}

/** What redeeming a code did: redeemed now, or not (unknown, expired, or redeemed before for `grantId`). */
export type CodeRedemption = { redeemed: true } | { redeemed: false; grantId: string | undefined };

export interface GrantRecord {
  grant_id: string;
  athlete_id: string;
  client_id: string;
  client_name: string;
  scope: string;
  resource: string;
  /** SHA-256 (hex) of the current refresh token. */
  refresh_sha256: string;
  /** The refresh token it replaced and when: presented again soon after, it was a lost answer (see token-endpoint.ts). */
  previous_sha256?: string;
  rotated_at?: number;
  /** Older refresh tokens of this grant (newest first, a few): presented again, they mean the grant leaked. */
  spent_sha256: string[];
  /**
   * The generation of the current refresh token, which the token carries under a MAC: any older generation
   * presented again is a spent token, however long ago it was spent. Absent on grants made before it.
   */
  generation?: number;
  created_at: number;
  /** Idle expiry: pushed forward on every refresh. */
  expires_at: number;
  /** Compare-and-swap counter. */
  revision: number;
}

export interface GrantStore {
  /** Where the grants live, for messages and logs. */
  readonly description: string;
  /**
   * Marks the Strava sign-in state `stateId` used, kept until `expiresAt` (epoch s, when the state itself
   * expires): true for exactly one caller, false for every later one (on any instance).
   */
  spendSignInState(stateId: string, expiresAt: number, signal: AbortSignal): Promise<boolean>;

  putCode(record: AuthorizationCodeRecord, signal: AbortSignal): Promise<void>;
  /**
   * Reads a code without using it up (bad input at the token endpoint must not cost the client its code);
   * a redeemed code is returned with `redeemed_grant` until it expires.
   */
  getCode(codeSha256: string, signal: AbortSignal): Promise<AuthorizationCodeRecord | undefined>;
  /** Marks the code redeemed for `grantId`: redeemed for exactly one caller; the others learn the grant. */
  redeemCode(codeSha256: string, grantId: string, signal: AbortSignal): Promise<CodeRedemption>;

  createGrant(grant: GrantRecord, signal: AbortSignal): Promise<void>;
  getGrant(grantId: string, signal: AbortSignal): Promise<GrantRecord | undefined>;
  /** Writes `next` if the stored grant still has `next.revision - 1`; false when it moved on or is gone. */
  replaceGrant(next: GrantRecord, signal: AbortSignal): Promise<boolean>;
  /** Removes a grant; returns it when it existed. */
  deleteGrant(grantId: string, signal: AbortSignal): Promise<GrantRecord | undefined>;
  grantsOf(athleteId: string, signal: AbortSignal): Promise<GrantRecord[]>;
  /** Deletes the athlete's grants and codes (delete-athlete.ts). */
  forgetAthlete(athleteId: string, signal: AbortSignal): Promise<void>;
}
