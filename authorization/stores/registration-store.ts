/**
 * Registered clients (dynamic registration; Client ID Metadata Documents are fetched, not stored) and what
 * bounds them. A registration that has not completed a grant takes one of a fixed number of places, shared out
 * by network, and one whose sign-in is in progress is not evicted (registration-ring.ts), so anonymous
 * registrations cannot grow the store and a real new client gets in. Valid registrations are counted per source
 * and hour, in a fixed number of counts (`registrationCountSlot`). Two backends: file-registration-store.ts and
 * dynamodb-registration-store.ts.
 *
 * A registered client's secret is stored by SHA-256 only. A registration carries an expiry (epoch seconds) after
 * which it counts as absent; stores delete it lazily (files) or by TTL (DynamoDB).
 */
import { createHmac } from "node:crypto";
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

/** A count against a limit: admitted, or refused until the window ends. */
export type RateVerdict = { admitted: true } | { admitted: false; retryAfterSeconds: number };

/** How many registrations one source may make per hour, how many unused ones are kept in all, and in how many counts. */
export interface RegistrationLimits {
  perSourcePerHour: number;
  unusedCapacity: number;
  /** How many sources' counts an hour keeps at most (see `registrationCountSlot`). */
  countSlots: number;
}

/** Where a source's registration count is kept (`registrationCountSlot`). */
export interface CountSlot {
  slot: number;
  /** Says that the count in the slot is this source's. */
  tag: Buffer;
}

/** Where a registration went: in (having evicted what it had to), or refused until a sign-in in progress ends. */
export type RegistrationPlacement = { placed: true } | Extract<RingPlacement, { placed: false }>;

export interface RegistrationStore {
  /** Where the registrations live, for messages and logs. */
  readonly description: string;
  /**
   * Counts a valid registration of the source whose count is kept in `place`, in the hour containing `nowMs`:
   * refused, and not counted, once that source made `perSourcePerHour` that hour.
   */
  countRegistration(place: CountSlot, perSourcePerHour: number, nowMs: number, signal: AbortSignal): Promise<RateVerdict>;
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
}

/** The hour a registration count belongs to, and when it ends. */
export function registrationWindow(nowMs: number): { hour: string; endsMs: number } {
  const hourMs = 3_600_000;
  const start = Math.floor(nowMs / hourMs) * hourMs;
  return { hour: String(start / hourMs), endsMs: start + hourMs };
}

/** A refusal until the registration hour of `nowMs` ends. */
export function refusedUntilHourEnds(nowMs: number): RateVerdict {
  const { endsMs } = registrationWindow(nowMs);
  return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((endsMs - nowMs) / 1000)) };
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
export function registrationCountSlot(key: Uint8Array, source: string, slots: number): CountSlot {
  const digest = createHmac("sha256", key).update(`registration count\n${source}`).digest();
  return { slot: digest.readUInt32BE(0) % slots, tag: digest.subarray(4, 12) };
}
