/**
 * A local JSON token file, written so that neither a crash nor a second process can lose a token:
 *
 * 1. Journal: the new record goes to a temporary file beside the token file
 *    (`<file>.<pid>.<random>.tmp`, mode 0600) with synchronous open/write calls, the first thing after
 *    new tokens arrive. Once `write` returns the bytes are in the kernel's page cache: a SIGKILL from then
 *    on cannot lose them. (Synchronous on purpose: a few hundred bytes, two system calls, and no wait
 *    behind other work in libuv's thread pool.)
 * 2. Commit, under a lock file shared by the machine's processes: compare what the file holds with what
 *    the save expects it to hold (compare-and-swap), then fsync the temporary file, rename it over the
 *    token file (atomic: readers see the old or the new file, whole) and fsync the directory, so a power
 *    loss cannot lose the token either (common/durable-file.ts). A stale save is dropped, its temporary file deleted.
 * 3. Recovery: temporary files whose process is gone are a save killed between 1 and 2. One that descends
 *    from what the file holds (credentials/token-lineage.ts) is committed; any other is deleted, so no file
 *    with tokens in it lingers. Temporary files of processes still running are theirs to finish.
 */
import { mkdirSync, readdirSync, statSync, unlinkSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { CredentialStoreError } from "../credential-store.ts";
import { processIsAlive, withFileLock, LockWaitAbortedError, type HeldLock } from "../../common/file-lock.ts";
import { descendsFrom, lineageField } from "../token-lineage.ts";
import { moveFileDurably, StagedFile } from "../../common/durable-file.ts";
import { randomHex } from "../../common/on-demand-crypto.ts";

export type TokenRecord = Record<string, unknown>;

/**
 * Names this process's temporary files apart from those of an earlier process that had the same id (a
 * restarted container's server is often pid 1): `<file>.<pid>.<instance>-<random>.tmp`. Drawn on the first
 * write, not at import (common/on-demand-crypto.ts).
 */
let instance: string | undefined;

/** A record written to its temporary file, not yet committed. */
export type Journal = StagedFile;

/** The refresh token a record stands for, as its store reads it (or undefined when it has none). */
export type RefreshTokenOf = (record: TokenRecord | undefined) => string | undefined;

export class TokenFile {
  readonly path: string;
  readonly #lockPath: string;
  readonly #description: string;

  constructor(path: string) {
    this.path = path;
    this.#lockPath = `${path}.lock`;
    this.#description = `token file ${path}`;
  }

  /** The file's JSON object as stored (any fields), or undefined when there is no file. */
  async read(): Promise<TokenRecord | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new CredentialStoreError(`Could not read the ${this.#description}: ${(error as Error).message}`);
    }
    return this.#parse(text);
  }

  /** Like `read`, after committing or deleting what killed processes left behind (takes the lock only then). */
  async readRecovered(signal: AbortSignal, refreshTokenOf: RefreshTokenOf): Promise<TokenRecord | undefined> {
    if (this.#strays().length === 0) return this.read();
    return this.#locked(signal, async () => {
      await this.#recover(refreshTokenOf);
      return this.read();
    });
  }

  /** Step 1: `record` in a new temporary file, durable against SIGKILL when this returns. */
  journal(record: TokenRecord): Journal {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.${(instance ??= randomHex(3))}-${randomHex(4)}.tmp`;
    try {
      return StagedFile.write(this.path, `${JSON.stringify(record, null, 2)}\n`, { temporary });
    } catch (error) {
      throw new CredentialStoreError(`Could not write the ${this.#description}: ${(error as Error).message}`);
    }
  }

  /**
   * Step 2: under the lock, commits `journal` if `expected` accepts what the file holds now; otherwise
   * deletes it. Returns what the file holds afterwards.
   */
  async commit(
    journal: Journal,
    signal: AbortSignal,
    expected: (current: TokenRecord | undefined) => boolean,
    refreshTokenOf: RefreshTokenOf,
  ): Promise<{ committed: boolean; current: TokenRecord | undefined }> {
    let committed = false;
    // The flush to disk runs while the lock is taken and the file compared; only the rename waits for it.
    const synced = journal.flush();
    synced.catch(() => {});
    try {
      return await this.#locked(signal, async (lock) => {
        await this.#recover(refreshTokenOf);
        const current = await this.read();
        if (!expected(current)) return { committed: false, current };
        await synced;
        if (!lock.stillHeld())
          throw new CredentialStoreError(`Lost the lock on the ${this.#description} to another process; nothing was written.`);
        await journal.moveIntoPlace();
        committed = true;
        return { committed: true, current: await this.read() };
      });
    } catch (error) {
      if (error instanceof CredentialStoreError) throw error;
      throw new CredentialStoreError(`Could not write the ${this.#description}: ${(error as Error).message}`);
    } finally {
      if (!committed) journal.discard();
    }
  }

  /** Writes `record` whatever the file holds (the operator's authorization), the same durable way. */
  async replace(record: TokenRecord, signal: AbortSignal, refreshTokenOf: RefreshTokenOf): Promise<void> {
    await this.commit(this.journal(record), signal, () => true, refreshTokenOf);
  }

  #parse(text: string): TokenRecord {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new CredentialStoreError(
        `The ${this.#description} is not valid JSON. Fix or delete it, then authorize again (npm run authorize -- --store file).`,
      );
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new CredentialStoreError(`The ${this.#description} must hold a JSON object.`);
    }
    return parsed as TokenRecord;
  }

  async #locked<T>(signal: AbortSignal, work: (lock: HeldLock) => Promise<T>): Promise<T> {
    try {
      return await withFileLock(this.#lockPath, { signal }, work);
    } catch (error) {
      if (error instanceof LockWaitAbortedError) {
        throw new CredentialStoreError(`The ${this.#description} stayed locked by ${error.owner} (${this.#lockPath}).`);
      }
      throw error;
    }
  }

  /** Temporary files of processes that no longer run (this version's, and the `<pid>.<random>` ones of older versions). */
  #strays(): Array<{ path: string; pid: number }> {
    const directory = dirname(this.path);
    const prefix = `${basename(this.path)}.`;
    let names: string[];
    try {
      names = readdirSync(directory);
    } catch {
      return [];
    }
    const strays = [];
    for (const name of names) {
      if (!name.startsWith(prefix) || !name.endsWith(".tmp")) continue;
      const [pidText = "", rest = ""] = name.slice(prefix.length).split(".");
      const pid = Number(pidText);
      if (!/^\d+$/.test(pidText) || pid <= 0) continue;
      const ours = pid === process.pid && rest.startsWith(`${instance}-`);
      if (ours || (pid !== process.pid && processIsAlive(pid))) continue;
      strays.push({ path: join(directory, name), pid });
    }
    return strays;
  }

  /** Step 3 (under the lock): commits the stray that continues what the file holds, deletes the rest. */
  async #recover(refreshTokenOf: RefreshTokenOf): Promise<void> {
    const strays = this.#strays();
    if (strays.length === 0) return;
    let current = await this.read().catch(() => undefined);
    let currentMtime = mtimeOf(this.path);
    const candidates: Array<{ path: string; record: TokenRecord; mtime: number }> = [];
    for (const stray of strays) {
      let record: TokenRecord | undefined;
      try {
        record = this.#parse(await readFile(stray.path, "utf8"));
      } catch {
        record = undefined; // cut short by the kill: it never held a complete record
      }
      if (record === undefined) unlinkQuietly(stray.path);
      else candidates.push({ path: stray.path, record, mtime: mtimeOf(stray.path) });
    }
    candidates.sort((a, b) => a.mtime - b.mtime);
    for (const candidate of candidates) {
      const currentToken = refreshTokenOf(current);
      const strayToken = refreshTokenOf(candidate.record);
      const continues =
        strayToken !== undefined &&
        (currentToken === undefined ||
          descendsFrom(candidate.record, currentToken) ||
          // Written by a version before token lineage: a save that never reached its rename, newer than the file.
          (candidate.record[lineageField] === undefined && candidate.mtime > currentMtime && strayToken !== currentToken));
      if (!continues) {
        unlinkQuietly(candidate.path);
        continue;
      }
      await moveFileDurably(candidate.path, this.path);
      current = candidate.record;
      currentMtime = candidate.mtime;
    }
  }
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
