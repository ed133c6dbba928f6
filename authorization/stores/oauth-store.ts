/**
 * What OAuth mode keeps between requests, and the one interface its two stores implement: local files
 * (file-oauth-store.ts, one machine) and DynamoDB with the signing key in Secrets Manager
 * (dynamodb-oauth-store.ts, the hosted deployment). Any instance may serve any request, so everything a
 * later request needs is here, never in one process's memory:
 *
 * - registered clients (dynamic registration; Client ID Metadata Documents are fetched, not stored). A
 *   registration that has not completed a grant takes one of a fixed number of places, shared out by
 *   network, and one whose sign-in is in progress is not evicted (registration-ring.ts), so anonymous
 *   registrations cannot grow the store and a real new client gets in. Valid registrations are counted
 *   per source and hour, in a fixed number of counts (`registrationCountSlot`);
 * - the Strava sign-in states already used: a state comes back from Strava once, and a replay of it (with a
 *   code made up to make this server spend a token request at Strava) finds it spent, on every instance;
 * - authorization codes, stored by their hash, single-use: `redeemCode` marks a code redeemed atomically,
 *   naming the grant it created, so of two instances redeeming one code only one succeeds, and a replay
 *   finds the grant to revoke;
 * - grants: one per client authorization, holding the hash of its current refresh token; a refresh is a
 *   compare-and-swap on the grant's revision, so two instances refreshing one grant cannot both rotate it;
 * - each admitted athlete's Strava tokens, through the same `CredentialStore` compare-and-swap design the
 *   token manager drives for one athlete (`credentialStoreFor`);
 * - the owner (the first athlete to sign in, when no list of athletes is configured), claimed once;
 * - which stored athletes are no longer admitted, and since when, and whose grants all ended as a precaution
 *   (a code or refresh token presented again), and when (either way their Strava tokens wait out a grace
 *   period before they are revoked and deleted);
 * - each athlete's count of Strava requests in the current rate-limit windows (their fair share), and of
 *   the checks a deauthorization event asks of Strava (a budget of their own);
 * - the key access tokens are signed with.
 *
 * Every read or write touches the records it names, never all of them: the work of a request does not grow
 * with what anonymous callers registered.
 *
 * Secrets are never stored as they are: codes and refresh tokens by SHA-256, a registered client's secret
 * by SHA-256. Records carry an expiry (epoch seconds) after which they count as absent; stores delete
 * them lazily (files) or by TTL (DynamoDB).
 */
import { createHmac } from "node:crypto";
import type { AuthorizationStore, CredentialStore } from "../../credentials/credential-store.ts";
import type { RingPlacement } from "./registration-ring.ts";

export interface RegisteredClient {
  client_id: string;
  /** SHA-256 (hex) of the client secret, for confidential clients. */
  client_secret_sha256?: string;
  client_id_issued_at: number;
  redirect_uris: string[];
  client_name?: string;
  client_uri?: string;
  token_endpoint_auth_method: "none" | "client_secret_basic" | "client_secret_post";
  grant_types: string[];
  response_types: string[];
  scope?: string;
  /** Epoch seconds after which an unused registration is gone (extended whenever it gets tokens). */
  expires_at: number;
  /**
   * Its place among the unused registrations while it has not completed a grant; absent once it has, and
   * on registrations stored before the places existed (those keep their own expiry).
   */
  unused_seq?: number;
  /** Epoch seconds: while unused, its first sign-in started and is in progress until then (it is not evicted before). */
  sign_in_until?: number;
}

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

/** One athlete's Strava credentials: what the token manager drives, plus the sign-in's unconditional write. */
export type AthleteCredentialStore = CredentialStore & Pick<AuthorizationStore, "writeAuthorization">;

/** How many Strava requests one athlete may send per window (their share of the application's limits). */
export interface FairShare {
  overall: { fifteenMinute: number; daily: number };
  read: { fifteenMinute: number; daily: number };
}

export type FairShareWindow = "overall 15-minute" | "overall daily" | "read 15-minute" | "read daily";

export type FairShareVerdict = { admitted: true } | { admitted: false; window: FairShareWindow; used: number; share: number };

/** A count against a limit: admitted, or refused until the window ends. */
export type RateVerdict = { admitted: true } | { admitted: false; retryAfterSeconds: number };

/** An athlete whose Strava tokens are stored here. */
export interface StoredAthlete {
  athleteId: string;
  /** Epoch ms since which the athlete is no longer admitted (their tokens wait out the grace period). */
  unadmittedSinceMs: number | undefined;
  /** Epoch ms when the athlete's last grant was ended as a precaution (their tokens wait out the grace period). */
  grantsEndedAtMs: number | undefined;
}

/** How many registrations one source may make per hour, how many unused ones are kept in all, and in how many counts. */
export interface RegistrationLimits {
  perSourcePerHour: number;
  unusedCapacity: number;
  /** How many sources' counts an hour keeps at most (see `registrationCountSlot`). */
  countSlots: number;
}

/** Where a registration went: in (having evicted what it had to), or refused until a sign-in in progress ends. */
export type RegistrationPlacement = { placed: true } | Extract<RingPlacement, { placed: false }>;

export interface OAuthStore {
  /** Where the state lives, for messages and logs. */
  readonly description: string;

  // Registrations and their counts.
  /**
   * Counts a valid registration from `source` (an address, or an IPv6 /64) in the hour containing `nowMs`:
   * refused, and not counted, once the source made `perSourcePerHour` that hour. The counts take at most
   * `countSlots` places an hour, however many sources register (`registrationCountSlot`).
   */
  countRegistration(
    source: string,
    limits: Pick<RegistrationLimits, "perSourcePerHour" | "countSlots">,
    nowMs: number,
    signal: AbortSignal,
  ): Promise<RateVerdict>;
  /**
   * Stores a new registration from `source` as unused, in one of `capacity` places shared out by network,
   * evicting what registration-ring.ts says must go; or refuses it (then nothing is stored). Sets `unused_seq`.
   */
  registerClient(
    client: RegisteredClient,
    placement: { source: string; capacity: number; nowMs: number },
    signal: AbortSignal,
  ): Promise<RegistrationPlacement>;
  /**
   * An unused registration's first sign-in started: it is not evicted until `untilMs` (epoch ms). Changes
   * nothing for a registration that is not unused, or whose first sign-in already started.
   */
  startSignIn(clientId: string, untilMs: number, signal: AbortSignal): Promise<void>;
  /** Keeps a registration that completed a grant: out of the unused places, expiring at `expiresAt` (epoch s). */
  keepClient(clientId: string, expiresAt: number, signal: AbortSignal): Promise<void>;
  getClient(clientId: string, signal: AbortSignal): Promise<RegisteredClient | undefined>;

  // Strava sign-in states.
  /**
   * Marks the Strava sign-in state `stateId` used, kept until `expiresAt` (epoch s, when the state itself
   * expires): true for exactly one caller, false for every later one (on any instance).
   */
  spendSignInState(stateId: string, expiresAt: number, signal: AbortSignal): Promise<boolean>;

  // Codes and grants.
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

  /** The owner, claiming it for `athleteId` when nobody has claimed it yet. */
  claimOwner(athleteId: string, signal: AbortSignal): Promise<string>;
  /** The owner, or undefined while nobody has claimed it. */
  owner(signal: AbortSignal): Promise<string | undefined>;
  /** Forgets the owner (the operator's command): the next athlete to sign in claims it. */
  resetOwner(signal: AbortSignal): Promise<void>;
  /** The athlete's Strava tokens. */
  credentialStoreFor(athleteId: string): AthleteCredentialStore;
  /** Whether the store holds Strava tokens for the athlete. */
  hasAthlete(athleteId: string, signal: AbortSignal): Promise<boolean>;
  /** Deletes everything stored for the athlete: their Strava tokens, grants and counts. */
  deleteAthlete(athleteId: string, signal: AbortSignal): Promise<void>;
  /** The athletes whose Strava tokens are stored, with when each stopped being admitted (if they did). */
  storedAthletes(signal: AbortSignal): Promise<StoredAthlete[]>;
  /** Records that the athlete is no longer admitted, unless already recorded; returns the recorded time. */
  markUnadmitted(athleteId: string, sinceMs: number, signal: AbortSignal): Promise<number>;
  /** The athlete is admitted again. */
  clearUnadmitted(athleteId: string, signal: AbortSignal): Promise<void>;
  /** Records that the athlete's last grant was ended as a precaution at `atMs` (a later record replaces an earlier one). */
  markGrantsEnded(athleteId: string, atMs: number, signal: AbortSignal): Promise<void>;
  /** The athlete signed in again after their grants ended as a precaution. */
  clearGrantsEnded(athleteId: string, signal: AbortSignal): Promise<void>;

  /**
   * Counts one Strava request of the athlete against their share in the windows that contain `nowMs`,
   * unless a window's share is used up (then nothing is counted). Reads count against the read and the
   * overall limits, other requests against the overall ones, as Strava counts them.
   */
  countUpstreamRequest(athleteId: string, read: boolean, share: FairShare, nowMs: number, signal: AbortSignal): Promise<FairShareVerdict>;

  /**
   * Takes one deauthorization check of the athlete with Strava from its own budget: at most one per
   * athlete in each 15-minute window and `dailyLimit` per UTC day. False when the budget is spent.
   */
  claimDeauthorizationCheck(athleteId: string, dailyLimit: number, nowMs: number, signal: AbortSignal): Promise<boolean>;

  /** Removes expired records (local files; DynamoDB's TTL does it there). */
  sweepExpired(signal: AbortSignal): Promise<void>;

  /** The HMAC key access tokens are signed with (at least 32 bytes), the same for every instance. */
  signingKey(signal: AbortSignal): Promise<Uint8Array>;
}

/** The windows a request at `nowMs` falls in: a key for each, and when its count may be forgotten. */
export function fairShareWindows(nowMs: number): { quarter: string; day: string; quarterEndsMs: number; dayEndsMs: number } {
  const quarterMs = 15 * 60_000;
  const dayMs = 86_400_000;
  const quarterStart = Math.floor(nowMs / quarterMs) * quarterMs;
  const dayStart = Math.floor(nowMs / dayMs) * dayMs;
  return {
    day: new Date(dayStart).toISOString().slice(0, 10),
    quarter: String(Math.floor((nowMs - dayStart) / quarterMs)),
    quarterEndsMs: quarterStart + quarterMs,
    dayEndsMs: dayStart + dayMs,
  };
}

/** The hour a registration count belongs to, and when it ends. */
export function registrationWindow(nowMs: number): { hour: string; endsMs: number } {
  const hourMs = 3_600_000;
  const start = Math.floor(nowMs / hourMs) * hourMs;
  return { hour: String(start / hourMs), endsMs: start + hourMs };
}

/**
 * Where a source's registration count is kept: one of `slots` places, and the tag that says the count in
 * that place is this source's. Both come from the source hashed with the signing key, so nobody can pick
 * a source whose count lands on someone else's. A source that finds another's tag in its place takes the
 * place over and starts at zero: the counts never refuse a source for another's registrations, and take
 * the same room however many sources register; the price is that, when more sources than places register
 * within one hour, a source whose count was taken over may register more than its limit that hour (what
 * the unused registrations may hold is bounded apart from it, per network).
 */
export function registrationCountSlot(key: Uint8Array, source: string, slots: number): { slot: number; tag: Buffer } {
  const digest = createHmac("sha256", key).update(`registration count\n${source}`).digest();
  return { slot: digest.readUInt32BE(0) % slots, tag: digest.subarray(4, 12) };
}

/** The counts kept for one athlete and one UTC day. */
export interface DailyUsage {
  overall_day: number;
  read_day: number;
  /** Per quarter-hour of the day ("0".."95"). */
  overall_quarters: Record<string, number>;
  read_quarters: Record<string, number>;
}

/** Applies one request to `usage` if every window has room; says which window is full otherwise. */
export function countInto(usage: DailyUsage, quarter: string, read: boolean, share: FairShare): FairShareVerdict {
  const checks: { window: FairShareWindow; used: number; share: number }[] = [
    { window: "overall 15-minute", used: usage.overall_quarters[quarter] ?? 0, share: share.overall.fifteenMinute },
    { window: "overall daily", used: usage.overall_day, share: share.overall.daily },
  ];
  if (read) {
    checks.push({ window: "read 15-minute", used: usage.read_quarters[quarter] ?? 0, share: share.read.fifteenMinute });
    checks.push({ window: "read daily", used: usage.read_day, share: share.read.daily });
  }
  const full = checks.find((check) => check.used >= check.share);
  if (full) return { admitted: false, ...full };
  usage.overall_day += 1;
  usage.overall_quarters[quarter] = (usage.overall_quarters[quarter] ?? 0) + 1;
  if (read) {
    usage.read_day += 1;
    usage.read_quarters[quarter] = (usage.read_quarters[quarter] ?? 0) + 1;
  }
  return { admitted: true };
}

export function emptyUsage(): DailyUsage {
  return { overall_day: 0, read_day: 0, overall_quarters: {}, read_quarters: {} };
}
