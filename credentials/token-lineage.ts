/**
 * Which saved record follows which: every record a refresh writes carries the SHA-256 of the refresh
 * token it replaces (`replaces_refresh_token_sha256`). A store that finds a save left half done by a
 * killed process (a token file's temporary file, a Secrets Manager version staged AWSPENDING but never
 * made current) finishes it only when it descends from what the store holds now: then it holds the
 * tokens Strava issued in exchange for the stored refresh token, which is dead since, and dropping it
 * would lose the athlete's grant. Anything else is stale and is dropped.
 *
 * A hash, not the token: records are read by people and tools, and the hash says nothing usable.
 */
import { sha256Hex } from "../common/digests.ts";

export const lineageField = "replaces_refresh_token_sha256";

export function refreshTokenHash(refreshToken: string): string {
  return sha256Hex(refreshToken);
}

/** The fields a refresh adds to the record it writes. */
export function lineageOf(replacedRefreshToken: string): { [lineageField]: string } {
  return { [lineageField]: refreshTokenHash(replacedRefreshToken) };
}

/** Whether `record` was written by a refresh that spent `currentRefreshToken`. */
export function descendsFrom(record: Record<string, unknown>, currentRefreshToken: string): boolean {
  return record[lineageField] === refreshTokenHash(currentRefreshToken) && record["refresh_token"] !== currentRefreshToken;
}
