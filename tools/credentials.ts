/**
 * What a credential store holds, and the interface every store implements.
 *
 * The shape matches the spec's credentials secret: one JSON object with the OAuth application's
 * `client_id`/`client_secret` and the athlete's current tokens. Stores never put values in their
 * errors or descriptions: a message names the store and the fields, not what they contain.
 */
export interface StoredCredentials {
  client_id: string;
  client_secret: string;
  refresh_token: string;
  access_token?: string;
  /** Epoch seconds at which `access_token` stops working. */
  expires_at?: number;
}

/** The tokens a refresh (or the first code exchange) produces. */
export interface TokenSet {
  access_token: string;
  refresh_token: string;
  expires_at: number;
}

export interface CredentialStore {
  /** Where the credentials live, for messages: never a value. */
  readonly description: string;
  /** Reads the current credentials. Throws `CredentialStoreError` naming the store and what is wrong. */
  load(): Promise<StoredCredentials>;
  /** Writes the given fields, keeping the others (a merge, not a replace). */
  save(update: Partial<StoredCredentials>): Promise<void>;
}

export class CredentialStoreError extends Error {
  override readonly name = "CredentialStoreError";
}

export const requiredCredentialFields = ["client_id", "client_secret", "refresh_token"] as const;

/**
 * Checks a parsed JSON value against the credentials shape. Returns the credentials, or throws a
 * `CredentialStoreError` that names the store and every missing or mistyped field.
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
    if (raw === undefined || raw === null || raw === "") return undefined;
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
    throw new CredentialStoreError(
      `${storeDescription} is incomplete (${parts.join("; ")}). Store the Strava application's client_id and client_secret and the athlete's refresh_token there (npm run authorize does this).`,
    );
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
