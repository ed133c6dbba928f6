/**
 * The MCP server's credentials: the three STRAVA_* environment variables are the source, and every token
 * refresh is persisted to a token file (Strava rotates refresh tokens: the one in the environment
 * stops working after the first rotation, so the rotated one must survive a restart). Several servers
 * started with the same environment (Claude Desktop and Claude Code, two editor windows) share the file;
 * credentials/stores/token-file.ts makes that safe.
 *
 * The file remembers a hash of the environment's refresh token it descends from. When the operator
 * puts a new refresh token in the environment (after authorizing again), the hashes differ and the
 * environment wins over the older stored tokens.
 */
import {
  CredentialStoreError,
  type CredentialSnapshot,
  type CredentialStore,
  type SaveOutcome,
  type StoredCredentials,
  type TokenSet,
} from "../credential-store.ts";
import type { TokenFileStore } from "./token-file-store.ts";
import type { TokenFile, TokenRecord } from "./token-file.ts";
import { lineageOf, refreshTokenHash } from "../token-lineage.ts";

/** The three variables this store is made from (the front end reads them: common/settings/credential-variables.ts). */
export const stravaEnvNames = ["STRAVA_CLIENT_ID", "STRAVA_CLIENT_SECRET", "STRAVA_REFRESH_TOKEN"] as const;

class EnvVersion {
  readonly refreshToken: string;
  /** The file's record when it belongs to this environment's grant, else undefined. */
  readonly record: TokenRecord | undefined;
  constructor(refreshToken: string, record: TokenRecord | undefined) {
    this.refreshToken = refreshToken;
    this.record = record;
  }
}

export class EnvCredentialStore implements CredentialStore {
  readonly description: string;
  readonly #clientId: string;
  readonly #clientSecret: string;
  readonly #refreshToken: string;
  /** Hashed on first use, not when the store is opened at start (common/on-demand-crypto.ts). */
  #refreshTokenHashMemo: string | undefined;
  readonly #file: TokenFile;

  constructor(options: { clientId: string; clientSecret: string; refreshToken: string; file: TokenFileStore }) {
    const missing = stravaEnvNames.filter(
      (_name, index) => [options.clientId, options.clientSecret, options.refreshToken][index]?.trim() === "",
    );
    if (missing.length > 0) {
      throw new CredentialStoreError(`Set ${missing.join(", ")} (all three of ${stravaEnvNames.join(", ")} are needed for Strava).`);
    }
    this.#clientId = options.clientId.trim();
    this.#clientSecret = options.clientSecret.trim();
    this.#refreshToken = options.refreshToken.trim();
    this.#file = options.file.file;
    this.description = `STRAVA_* variables and their token file ${options.file.path}`;
  }

  async load(signal: AbortSignal): Promise<CredentialSnapshot> {
    return this.#snapshot(await this.#file.readRecovered(signal, this.#refreshTokenOf));
  }

  async saveTokens(expected: CredentialSnapshot, tokens: TokenSet, signal: AbortSignal): Promise<SaveOutcome> {
    const version = expected.version;
    if (!(version instanceof EnvVersion)) throw new TypeError("saveTokens was given a snapshot of another store");
    const record: TokenRecord = {
      ...version.record,
      ...tokens,
      env_refresh_token_sha256: this.#refreshTokenHash(),
      ...lineageOf(version.refreshToken),
      updated_at: new Date().toISOString(),
    };
    const journal = this.#file.journal(record);
    const { committed, current } = await this.#file.commit(
      journal,
      signal,
      (now) => this.#refreshTokenOf(now) === version.refreshToken,
      this.#refreshTokenOf,
    );
    if (committed) return { saved: true, snapshot: this.#snapshot(record) };
    return { saved: false, current: this.#snapshot(current) };
  }

  /** The environment's refresh token, or the file's when the file descends from this environment's grant. */
  readonly #refreshTokenOf = (record: TokenRecord | undefined): string | undefined => this.#credentialsOf(record).refresh_token;

  #credentialsOf(record: TokenRecord | undefined): StoredCredentials {
    const base: StoredCredentials = { client_id: this.#clientId, client_secret: this.#clientSecret, refresh_token: this.#refreshToken };
    if (!this.#belongsHere(record)) return base;
    const refreshToken = record["refresh_token"];
    const accessToken = record["access_token"];
    const expiresAt = record["expires_at"];
    if (typeof refreshToken === "string" && refreshToken !== "") base.refresh_token = refreshToken;
    if (typeof accessToken === "string" && typeof expiresAt === "number") {
      base.access_token = accessToken;
      base.expires_at = expiresAt;
    }
    return base;
  }

  #refreshTokenHash(): string {
    return (this.#refreshTokenHashMemo ??= refreshTokenHash(this.#refreshToken));
  }

  #belongsHere(record: TokenRecord | undefined): record is TokenRecord {
    return record !== undefined && record["env_refresh_token_sha256"] === this.#refreshTokenHash();
  }

  #snapshot(record: TokenRecord | undefined): CredentialSnapshot {
    const credentials = this.#credentialsOf(record);
    return { credentials, version: new EnvVersion(credentials.refresh_token, this.#belongsHere(record) ? record : undefined) };
  }
}
