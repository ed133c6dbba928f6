/**
 * Credentials in a local JSON file (`npm run authorize -- --store file`): the application's
 * client_id/client_secret and the athlete's tokens, mode 0600, written the crash-proof and
 * compare-and-swap way of credentials/stores/token-file.ts. Every field the file holds is kept on every write.
 */
import { accessSync, constants, statSync } from "node:fs";
import { dirname } from "node:path";
import {
  credentialFieldsOf,
  CredentialsMissingError,
  CredentialStoreError,
  keyFieldOf,
  parseStoredCredentials,
  revokedAtField,
  tokenFields,
  type AuthorizationStore,
  type CredentialSnapshot,
  type KeyFieldStore,
  type SaveOutcome,
  type StoredCredentials,
  type TokenSet,
} from "../credential-store.ts";
import { TokenFile, type TokenRecord } from "./token-file.ts";
import { shellQuote } from "../../common/shell-quote.ts";
import { messageOf } from "../../common/named-error.ts";
import { lineageField, lineageOf } from "../token-lineage.ts";

/**
 * Why this process could not save to a token file at `path`, or undefined when it can as far as can be
 * told before trying: the file, if there, is a regular file, and the nearest directory that exists on its
 * way is one this process may write in (saves write a temporary file and a lock file beside it, and create
 * the missing directories). Checked at start, before a refresh spends the refresh token the file would
 * have to keep.
 */
export function tokenFileUnwritable(path: string): string | undefined {
  try {
    if (!statSync(path).isFile()) return `${path} is not a regular file`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") return `${path} cannot be examined (${messageOf(error)})`;
  }
  let directory = dirname(path);
  for (;;) {
    try {
      if (!statSync(directory).isDirectory()) return `${directory} is not a directory`;
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") return `${directory} cannot be examined (${messageOf(error)})`;
      const up = dirname(directory);
      if (up === directory) return `no directory on the way to ${path} exists`;
      directory = up;
    }
  }
  try {
    accessSync(directory, constants.W_OK | constants.X_OK);
  } catch {
    return `this process may not write in ${directory}`;
  }
  return undefined;
}

/** What a snapshot of a token file remembers: the refresh token the save must still find, and the record it merges over. */
class FileVersion {
  readonly refreshToken: string;
  readonly record: TokenRecord;
  constructor(refreshToken: string, record: TokenRecord) {
    this.refreshToken = refreshToken;
    this.record = record;
  }
}

export class TokenFileStore implements AuthorizationStore, KeyFieldStore {
  readonly path: string;
  readonly description: string;
  readonly authorizeCommand: string;
  readonly file: TokenFile;

  constructor(options: { path: string }) {
    this.path = options.path;
    this.file = new TokenFile(options.path);
    this.description = `token file ${options.path}`;
    this.authorizeCommand = `npm run authorize -- --store file --token-file ${shellQuote(options.path)}`;
  }

  async load(signal: AbortSignal): Promise<CredentialSnapshot> {
    return this.#snapshot(await this.file.readRecovered(signal, refreshTokenOf));
  }

  async saveTokens(expected: CredentialSnapshot, tokens: TokenSet, signal: AbortSignal): Promise<SaveOutcome> {
    const version = expected.version;
    if (!(version instanceof FileVersion)) throw new TypeError("saveTokens was given a snapshot of another store");
    const record: TokenRecord = { ...version.record, ...tokens, ...lineageOf(version.refreshToken), updated_at: new Date().toISOString() };
    const journal = this.file.journal(record);
    const { committed, current } = await this.file.commit(
      journal,
      signal,
      (now) => refreshTokenOf(now) === version.refreshToken,
      refreshTokenOf,
    );
    if (committed) return { saved: true, snapshot: this.#snapshot(record) };
    return { saved: false, current: this.#snapshot(current) };
  }

  async writeAuthorization(credentials: Required<StoredCredentials>, signal: AbortSignal): Promise<void> {
    const current = await this.#readForOperator(signal);
    const { [lineageField]: _lineage, [revokedAtField]: _revoked, ...kept } = current ?? {};
    await this.file.replace({ ...kept, ...credentials, updated_at: new Date().toISOString() }, signal, refreshTokenOf);
  }

  async clearTokens(signal: AbortSignal): Promise<void> {
    const current = await this.#readForOperator(signal);
    if (current === undefined) return;
    const now = new Date().toISOString();
    const kept: TokenRecord = { ...current, updated_at: now, [revokedAtField]: now };
    for (const field of [...tokenFields, lineageField]) delete kept[field];
    await this.file.replace(kept, signal, refreshTokenOf);
  }

  async readFields(signal: AbortSignal): Promise<Partial<StoredCredentials> | undefined> {
    const record = await this.file.readRecovered(signal, refreshTokenOf);
    return record === undefined ? undefined : credentialFieldsOf(record);
  }

  async readKey(field: string, signal: AbortSignal): Promise<string | undefined> {
    const record = await this.file.readRecovered(signal, refreshTokenOf);
    if (record === undefined) throw new CredentialsMissingError(`The ${this.description} does not exist.`);
    return keyFieldOf(record, field);
  }

  /**
   * Written only over the refresh token it read: a process refreshing Strava tokens kept in the same file at that
   * moment wins, and the key is written again over its tokens (at most three rounds).
   */
  async writeKey(field: string, key: string | undefined, signal: AbortSignal): Promise<void> {
    for (let round = 1; ; round++) {
      const current = await this.#readForOperator(signal);
      const record: TokenRecord = { ...current, updated_at: new Date().toISOString() };
      if (key === undefined) delete record[field];
      else record[field] = key;
      const read = refreshTokenOf(current);
      const { committed } = await this.file.commit(
        this.file.journal(record),
        signal,
        (now) => refreshTokenOf(now) === read,
        refreshTokenOf,
      );
      if (committed) return;
      if (round >= 3)
        throw new CredentialStoreError(`The ${this.description} kept changing while it was being written; run the command again.`);
    }
  }

  /** The operator's commands replace a broken file rather than refuse to run. */
  async #readForOperator(signal: AbortSignal): Promise<TokenRecord | undefined> {
    try {
      return await this.file.readRecovered(signal, refreshTokenOf);
    } catch (error) {
      if (error instanceof CredentialStoreError) return undefined;
      throw error;
    }
  }

  #snapshot(record: TokenRecord | undefined): CredentialSnapshot {
    if (record === undefined) {
      throw new CredentialsMissingError(
        `The ${this.description} does not exist. Run npm run authorize -- --store file to create it, or set STRAVA_CLIENT_ID, STRAVA_CLIENT_SECRET and STRAVA_REFRESH_TOKEN.`,
      );
    }
    const credentials = parseStoredCredentials(record, `The ${this.description}`);
    return { credentials, version: new FileVersion(credentials.refresh_token, record) };
  }
}

function refreshTokenOf(record: TokenRecord | undefined): string | undefined {
  const token = record?.["refresh_token"];
  return typeof token === "string" && token !== "" ? token : undefined;
}
