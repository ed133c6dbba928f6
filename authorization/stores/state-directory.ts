/**
 * OAuth mode's state in local files, for `npm start` on one machine (several processes may share it): a
 * directory (mode 0700, default `~/.config/openclaw-fitness/oauth`, `FITNESS_OAUTH_DIR`), checked like
 * every directory of this user's secrets (common/private-directory.ts: a directory others may enter, or
 * whose parents others could swap, is refused with the chmod that fixes it), holding one small file per
 * record, so that a request reads and writes only the records it names. Its layout, and which store keeps what:
 *
 * - `clients/<client_id>.json`: registrations; the unused ones also take a place in `clients/ring.index`
 *   (registration-ring.ts; about 70 bytes a place, so bounded by the number of places), changed under
 *   `clients/ring.lock` with the records it evicts or marks (file-registration-store.ts);
 * - `registrations/<hour>.counts`: the hour's registration counts, 9 bytes per slot (the source's tag
 *   and its count, `registrationCountSlot`), changed under `registrations/counts.lock`: at most 36 KiB an
 *   hour however many sources register (file-registration-store.ts);
 * - `sign-in-states/<expiry>-<state id>`: a Strava sign-in state already used, made with O_EXCL (of several
 *   processes exactly one creates it), an empty file named by when the state expires, so that the sweep
 *   needs only the directory listing (file-grant-store.ts);
 * - `codes/<sha256>.json`, `grants/<grant_id>.json`: changed under a lock file of their own
 *   (common/file-lock.ts), written to a temporary file, flushed and renamed into place, so a reader sees
 *   the old or the new record whole and a crash loses at most the change under way (file-grant-store.ts);
 * - `owner`: the owner's athlete id, made once (the first process to link its file into place wins);
 *   `athletes/<id>.json`: each athlete's Strava tokens, a token file exactly like `npm run authorize`'s
 *   (credentials/stores/athlete-token-file.ts); `athletes/<id>.unadmitted`: since when the athlete is no longer
 *   admitted; `athletes/<id>.grants-ended`: when their last grant was ended as a precaution (file-athlete-store.ts);
 * - `usage.json`, `deauthorization-checks.json`: the day's fair-share counts and deauthorization checks of
 *   the admitted athletes (a few records), changed under a lock but not flushed: a count lost to a power
 *   cut only gives an athlete a few requests more that day (file-usage-store.ts);
 * - `signing-key`: the access-token signing key, made once like `owner` (file-signing-key.ts).
 *
 * Registrations are written without flushing (one lost to a power cut is registered again); codes, grants
 * and the owner are flushed. A `state.json` left by an earlier version (every record in one file) is
 * split into these files the first time a store is used, then renamed `state.json.migrated`: nobody
 * signs in again. Expired records are removed by the stores' sweeps (at start) and when read.
 */
import { mkdirSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigurationError } from "../../common/configuration-error.ts";
import { withFileLock } from "../../common/file-lock.ts";
import { messageOf } from "../../common/named-error.ts";
import { checkPrivateDirectory } from "../../common/private-directory.ts";
import { createFileDurably, moveFileDurably, writeFileDurably } from "../../common/durable-file.ts";
import { CredentialStoreError } from "../../credentials/credential-store.ts";
import { defaultStoreTimeoutMs } from "../../credentials/store-deadline.ts";
import type { AuthorizationCodeRecord, GrantRecord } from "./grant-store.ts";
import type { RegisteredClient } from "./registration-store.ts";

// Names of record files come from requests: only these shapes ever reach a path.
export const clientIdPattern = /^fc_[A-Za-z0-9_-]{1,64}$/;
export const digestPattern = /^[0-9a-f]{64}$/;
export const grantIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const athleteIdPattern = /^\d{1,20}$/;

/** What the stores keep of the state file an earlier version wrote. */
interface LegacyStateFile {
  owner?: string;
  clients?: Record<string, RegisteredClient>;
  codes?: Record<string, AuthorizationCodeRecord>;
  grants?: Record<string, GrantRecord>;
}

/** The directory the file stores share: its layout, and the careful reads and writes every one of them makes. */
export class StateDirectory {
  readonly path: string;
  readonly description: string;
  /** Clock in epoch milliseconds (records' expiry). */
  readonly now: () => number;
  #migrated: Promise<void> | undefined;
  /** This process's turns at each shared lock (the places, the counts): one waits on the lock file at a time, the rest in order here. */
  readonly #turns = new Map<string, Promise<unknown>>();

  /** Creates the directory (0700) and its folders when missing, and checks that it is this user's alone. */
  constructor(options: { directory: string; now?: (() => number) | undefined }) {
    const directory = options.directory;
    this.path = directory;
    this.now = options.now ?? Date.now;
    this.description = `OAuth state directory ${directory}`;
    try {
      mkdirSync(directory, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new ConfigurationError(
        `The OAuth state directory ${directory} cannot be created: ${messageOf(error)}. Set FITNESS_OAUTH_DIR to a directory this user can create.`,
      );
    }
    checkPrivateDirectory(directory, {
      what: `The OAuth state directory ${directory}`,
      fix: `It holds the key that signs every access token: make it this user's alone (chmod 700 ${directory}), or set FITNESS_OAUTH_DIR to a directory of this user's own.`,
      elsewhere: "Set FITNESS_OAUTH_DIR to a directory under one of this user's own.",
      orElsewhere: "or set FITNESS_OAUTH_DIR elsewhere",
      error: (message) => new ConfigurationError(message),
    });
    for (const sub of ["athletes", "clients", "codes", "grants", "registrations", "sign-in-states"]) {
      mkdirSync(join(directory, sub), { recursive: true, mode: 0o700 });
    }
  }

  file(...parts: string[]): string {
    return join(this.path, ...parts);
  }

  clientPath(clientId: string): string {
    return this.file("clients", `${clientId}.json`);
  }

  codePath(codeSha256: string): string {
    if (!digestPattern.test(codeSha256)) throw new TypeError("not a code digest");
    return this.file("codes", `${codeSha256}.json`);
  }

  grantPath(grantId: string): string {
    if (!grantIdPattern.test(grantId)) throw new TypeError(`not a grant id: ${grantId}`);
    return this.file("grants", `${grantId}.json`);
  }

  /** The record, unless it has expired. */
  live<T extends { expires_at: number }>(record: T | undefined): T | undefined {
    return record !== undefined && record.expires_at * 1000 > this.now() ? record : undefined;
  }

  /** The record files of a kind (not the places, locks or temporary files). */
  async recordNames(kind: "clients" | "codes" | "grants"): Promise<string[]> {
    return (await readdir(this.file(kind))).filter((name) => name.endsWith(".json") && !name.includes(".tmp"));
  }

  async readRecord<T>(path: string): Promise<T | undefined> {
    const text = await readOptional(path).catch((error: unknown) => {
      throw this.error("read", error);
    });
    if (text === undefined) return undefined;
    const record = parseJson<T>(text);
    if (record === undefined)
      throw new CredentialStoreError(`${path} is not valid JSON; delete it (the client it belongs to then signs in again).`);
    return record;
  }

  /** Writes `text` to `path` whole (common/durable-file.ts), flushed to the disk when `durable`. */
  async write(path: string, text: string, options: { durable: boolean }): Promise<void> {
    try {
      await writeFileDurably(path, text, { flush: options.durable });
    } catch (error) {
      throw this.error("write", error);
    }
  }

  /** Creates `path` holding `text` unless it exists: of several processes, the first to link wins. */
  async linkOnce(path: string, text: string): Promise<void> {
    try {
      await createFileDurably(path, text);
    } catch (error) {
      throw this.error("write", error);
    }
  }

  /** Runs `work` holding the lock file at `lockPath`, after this process's earlier turns at it. */
  inTurn<T>(lockPath: string, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const turn = (this.#turns.get(lockPath) ?? Promise.resolve()).then(() => withFileLock(lockPath, { signal }, work));
    this.#turns.set(
      lockPath,
      turn.catch(() => {}),
    );
    return turn;
  }

  /** A small JSON file of the admitted athletes' counts: read, changed and written under its own lock. */
  async updateSmallFile<F extends object, T>(name: string, signal: AbortSignal, change: (file: F) => T): Promise<T> {
    const path = this.file(name);
    return withFileLock(`${path}.lock`, { signal }, async () => {
      // Absent or unreadable: counting starts again (a share is a budget, not a record).
      const file = parseJson<F>(await readOptional(path).catch(() => undefined)) ?? ({} as F);
      const result = change(file);
      await this.write(path, JSON.stringify(file), { durable: false });
      return result;
    });
  }

  /** Splits a state file of an earlier version into record files, once, under its lock (before any store reads). */
  ready(): Promise<void> {
    this.#migrated ??= this.#migrateLegacyState().catch((error: unknown) => {
      this.#migrated = undefined;
      throw error;
    });
    return this.#migrated;
  }

  error(action: string, error: unknown): CredentialStoreError {
    if (error instanceof CredentialStoreError) return error;
    return new CredentialStoreError(`Could not ${action} the ${this.description}: ${messageOf(error)}`);
  }

  async #migrateLegacyState(): Promise<void> {
    const statePath = this.file("state.json");
    if ((await readOptional(statePath)) === undefined) return;
    await withFileLock(`${statePath}.lock`, { signal: AbortSignal.timeout(defaultStoreTimeoutMs) }, async () => {
      const text = await readOptional(statePath);
      if (text === undefined) return; // another process migrated it meanwhile
      const state = parseJson<LegacyStateFile>(text);
      if (state === undefined)
        throw new CredentialStoreError(
          `${statePath} is not valid JSON; restore it from a backup or delete it (every client then signs in again).`,
        );
      const copy = async (path: string, record: { expires_at: number }): Promise<void> => {
        if (this.live(record) !== undefined && (await readOptional(path)) === undefined)
          await this.write(path, JSON.stringify(record), { durable: true });
      };
      for (const client of Object.values(state.clients ?? {}))
        if (clientIdPattern.test(client.client_id)) await copy(this.clientPath(client.client_id), client);
      for (const code of Object.values(state.codes ?? {}))
        if (digestPattern.test(code.code_sha256)) await copy(this.codePath(code.code_sha256), code);
      for (const grant of Object.values(state.grants ?? {}))
        if (grantIdPattern.test(grant.grant_id)) await copy(this.grantPath(grant.grant_id), grant);
      if (state.owner !== undefined && athleteIdPattern.test(state.owner)) await this.linkOnce(this.file("owner"), state.owner);
      await moveFileDurably(statePath, `${statePath}.migrated`);
    });
  }
}

export async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

export function parseJson<T>(text: string | undefined): T | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
