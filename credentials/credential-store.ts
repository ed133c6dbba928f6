/**
 * What a credential store holds, and the interface every store implements.
 *
 * The record is the credentials secret the design describes: one JSON object with the OAuth application's
 * `client_id`/`client_secret` and the athlete's current tokens. Stores never put values in their
 * errors or descriptions: a message names the store and the fields, not what they contain.
 *
 * Several processes may share one store (the plugin and MCP servers on one secret, two stdio servers on
 * one token file), so writes of refreshed tokens are compare-and-swap: a store reads a snapshot, and a
 * save names the snapshot it replaces. The store writes only if it still holds that snapshot, and
 * otherwise answers with what it holds now. What a snapshot's `version` is belongs to the store (a
 * Secrets Manager version id, the refresh token a file held, a DynamoDB condition): the token manager
 * never looks inside, so a new store (one record per athlete in DynamoDB, say) needs no change there.
 */
import { NamedError } from "../common/named-error.ts";
import type { TokenSet } from "../strava/token-set.ts";

export interface StoredCredentials {
  client_id: string;
  client_secret: string;
  refresh_token: string;
  access_token?: string;
  /** Epoch seconds at which `access_token` stops working. */
  expires_at?: number;
}

/** The tokens a refresh produces (strava/token-set.ts), as stores take them. */
export type { TokenSet };

/** The credentials as read, and the store's own note of what it read (opaque outside the store). */
export interface CredentialSnapshot {
  readonly credentials: StoredCredentials;
  /** What a conditional save compares with and merges over; only the store that made it reads it. */
  readonly version: unknown;
}

export type SaveOutcome =
  /** The tokens are in the store; `snapshot` is what it holds now. */
  | { saved: true; snapshot: CredentialSnapshot }
  /** The store had moved on since `expected` was read; nothing was written. `current` is what it holds. */
  | { saved: false; current: CredentialSnapshot };

export interface CredentialStore {
  /** Where the credentials live, for messages: never a value. */
  readonly description: string;
  /**
   * Reads the current credentials. A save that a killed process left half done (written but not yet
   * made current) is finished first when it descends from what the store holds. Throws
   * `CredentialStoreError` naming the store and what is wrong; gives up when `signal` aborts.
   */
  load(signal: AbortSignal): Promise<CredentialSnapshot>;
  /**
   * Writes `tokens`, merged over the record `expected` was read from, if and only if the store still
   * holds `expected`. The first thing it does is make the tokens durable (no read before it). Throws
   * when the outcome is unknown or the store failed; a retry with the same `expected` is then safe
   * (it answers `saved: false` with our own tokens as `current` if the first attempt did land).
   */
  saveTokens(expected: CredentialSnapshot, tokens: TokenSet, signal: AbortSignal): Promise<SaveOutcome>;
  /**
   * Where a copy of `tokens`, whose save has not been confirmed, stays on this machine for the next process
   * on the store to save (credentials/rescue/rescuing-store.ts); undefined when only this process holds them.
   */
  keptCopyOf?(tokens: TokenSet): string | undefined;
  /** The command that authorizes the athlete again into this very store, for messages (never a value). */
  readonly authorizeCommand?: string;
  /**
   * What a person does to authorize the athlete again, for messages, where that is not a command an operator runs
   * (OAuth mode: the athlete signs in again from their MCP client). Wins over `authorizeCommand`.
   */
  readonly authorizeAgain?: string;
}

/** What to do once the stored refresh token is dead, as messages say it: the store's own words, or its command. */
export function authorizeAgainAdvice(store: Pick<CredentialStore, "authorizeCommand" | "authorizeAgain">): string {
  return store.authorizeAgain ?? `authorize again (${store.authorizeCommand ?? "npm run authorize"})`;
}

/**
 * The operator's writes (`npm run authorize`): a new grant replaces whatever is stored, and a revoked
 * one is cleared. Unconditional on purpose: the operator's authorization wins over any process.
 */
export interface AuthorizationStore extends CredentialStore {
  /** Stores the application's credentials and a new grant's tokens, keeping the record's other fields. */
  writeAuthorization(credentials: Required<StoredCredentials>, signal: AbortSignal): Promise<void>;
  /** Removes the athlete's tokens, keeping the application's client_id and client_secret. */
  clearTokens(signal: AbortSignal): Promise<void>;
  /**
   * Whichever credential fields the store holds, checked for nothing (to revoke what is there); undefined
   * when there is no store to read (no such secret, no such file).
   */
  readFields(signal: AbortSignal): Promise<Partial<StoredCredentials> | undefined>;
}

/**
 * A field of the record that holds another training log's personal API key (intervals.icu's
 * `intervals_api_key`), beside whatever else the store keeps: read by the plugin, written by the operator's
 * command. A key never changes by itself, so there is nothing to compare and swap but the rest of the record.
 */
export interface KeyFieldStore {
  /** Where the key lives, for messages: never a value. */
  readonly description: string;
  /** The key in `field`, or undefined when the record has none; throws `CredentialsMissingError` when there is no record at all. */
  readKey(field: string, signal: AbortSignal): Promise<string | undefined>;
  /** Sets `field` to `key` (removes it when undefined), keeping every other field; creates the record when there is none. */
  writeKey(field: string, key: string | undefined, signal: AbortSignal): Promise<void>;
}

/** The text of `field` in `record`, trimmed, or undefined when it holds none. */
export function keyFieldOf(record: Record<string, unknown> | undefined, field: string): string | undefined {
  const value = record?.[field];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** The credential fields of a record that hold text (a number client_id as Strava shows it, too). */
export function credentialFieldsOf(record: Record<string, unknown> | undefined): Partial<StoredCredentials> {
  const fields: Partial<StoredCredentials> = {};
  const text = (value: unknown): string | undefined =>
    typeof value === "string" && value.trim() !== ""
      ? value
      : typeof value === "number" && Number.isSafeInteger(value)
        ? String(value)
        : undefined;
  const clientId = text(record?.["client_id"]);
  const clientSecret = text(record?.["client_secret"]);
  const refreshToken = text(record?.["refresh_token"]);
  if (clientId !== undefined) fields.client_id = clientId;
  if (clientSecret !== undefined) fields.client_secret = clientSecret;
  if (refreshToken !== undefined) fields.refresh_token = refreshToken;
  return fields;
}

export class CredentialStoreError extends NamedError {}

/** The store did not answer within its deadline (the call was abandoned; the next call tries again). */
export class CredentialStoreTimeoutError extends CredentialStoreError {}

/** The store holds no usable refresh token: only a new authorization helps. */
export class CredentialsMissingError extends CredentialStoreError {}

export const requiredCredentialFields = ["client_id", "client_secret", "refresh_token"] as const;

/** When the operator revoked the grant (`clearTokens` writes it, a new grant removes it): a record without tokens says why. */
export const revokedAtField = "revoked_at";

/** The token fields a grant adds to a record, and `clearTokens` removes. */
export const tokenFields = ["refresh_token", "access_token", "expires_at"] as const;

/**
 * Checks a parsed JSON value against the credentials shape. Returns the credentials, or throws a
 * `CredentialStoreError` that names the store and every missing or mistyped field (a
 * `CredentialsMissingError` when only the athlete's refresh token is missing, as after a revocation).
 * `client_id` may be a number (Strava shows it as one); it is kept as a string.
 */
export function parseStoredCredentials(value: unknown, storeDescription: string): StoredCredentials {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new CredentialStoreError(
      `${storeDescription} must hold a JSON object with client_id, client_secret and refresh_token (optionally access_token and expires_at).`,
    );
  }
  const record = value as Record<string, unknown>;
  const missing: string[] = [];
  const mistyped: string[] = [];
  const text = (field: string, allowNumber = false): string | undefined => {
    const raw = record[field];
    // Blank is missing: a refresh token of spaces would only be refused by Strava, seconds later.
    if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) return undefined;
    if (typeof raw === "string") return raw;
    if (allowNumber && typeof raw === "number" && Number.isSafeInteger(raw)) return String(raw);
    mistyped.push(`${field} (must be a string)`);
    return undefined;
  };
  const clientId = text("client_id", true);
  const clientSecret = text("client_secret");
  const refreshToken = text("refresh_token");
  const accessToken = text("access_token");
  let expiresAt: number | undefined;
  const rawExpiresAt = record["expires_at"];
  if (rawExpiresAt !== undefined && rawExpiresAt !== null) {
    if (typeof rawExpiresAt === "number" && Number.isFinite(rawExpiresAt)) expiresAt = rawExpiresAt;
    else if (typeof rawExpiresAt === "string" && /^\d+$/.test(rawExpiresAt)) expiresAt = Number(rawExpiresAt);
    else mistyped.push("expires_at (must be epoch seconds)");
  }
  if (clientId === undefined && !mistyped.some((m) => m.startsWith("client_id"))) missing.push("client_id");
  if (clientSecret === undefined && !mistyped.some((m) => m.startsWith("client_secret"))) missing.push("client_secret");
  if (refreshToken === undefined && !mistyped.some((m) => m.startsWith("refresh_token"))) missing.push("refresh_token");
  if (missing.length > 0 || mistyped.length > 0) {
    const parts = [];
    if (missing.length > 0) parts.push(`missing ${missing.join(", ")}`);
    if (mistyped.length > 0) parts.push(`wrong type: ${mistyped.join(", ")}`);
    const message = `${storeDescription} is incomplete (${parts.join("; ")}). Store the Strava application's client_id and client_secret and the athlete's refresh_token there (npm run authorize does this).`;
    const onlyTheGrantIsMissing = mistyped.length === 0 && missing.length === 1 && missing[0] === "refresh_token";
    const revokedAt = record[revokedAtField];
    if (onlyTheGrantIsMissing && typeof revokedAt === "string") {
      throw new CredentialsMissingError(
        `${storeDescription} holds no Strava grant: it was revoked at ${revokedAt} (npm run authorize -- --revoke). ` +
          "To serve the athlete again, authorize again (npm run authorize does this).",
      );
    }
    throw onlyTheGrantIsMissing ? new CredentialsMissingError(message) : new CredentialStoreError(message);
  }
  const credentials: StoredCredentials = {
    client_id: clientId as string,
    client_secret: clientSecret as string,
    refresh_token: refreshToken as string,
  };
  if (accessToken !== undefined) credentials.access_token = accessToken;
  if (expiresAt !== undefined) credentials.expires_at = expiresAt;
  return credentials;
}
