/**
 * The one way the product puts a file's new content in place: written whole to a temporary file beside it
 * (created with O_EXCL, mode 0600 unless told otherwise, set with fchmod so the umask cannot narrow it),
 * flushed to the disk, renamed over the file (readers see the old or the new content, whole), then the folder
 * flushed, so that the rename itself survives a power cut. A crash at any point leaves the file whole or
 * absent, and at worst a temporary file beside it.
 *
 * - `writeFileDurably` / `writeFileDurablySync`: write or replace a file.
 * - `createFileDurably` / `createFileDurablySync`: create a file only if no file has that name (of several
 *   processes creating it at once exactly one wins: the temporary file is linked into place, which fails when
 *   the name exists), for content made once (a generated token, a signing key, an owner).
 * - `StagedFile`: the same steps one by one, for a caller that writes the content first and decides later,
 *   under a lock, whether it goes into place (the token file: its temporary file is its journal).
 * - `moveFileDurably`: a rename whose new name must survive a power cut (a recovered journal, a file set aside).
 *
 * `flush: false` keeps the whole-or-absent rename but skips both flushes, for records that are cheap to lose
 * to a power cut (a day's counts, a registration the client can repeat).
 *
 * Nothing else in the product calls rename, link or fsync to put content in place
 * (test/architecture/durable-writes.test.ts); the behaviour is tested by test/common/durable-file.test.ts,
 * which kills a writer at each system call under strace.
 */
import { closeSync, constants, fchmodSync, fsync, fsyncSync, linkSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { link, open, rename, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { randomHex } from "./on-demand-crypto.ts";

export interface DurableWriteOptions {
  /** Permission bits of the file; 0600 (this user's alone) unless said otherwise. */
  readonly mode?: number;
  /** False: whole or absent still, but not flushed to the disk (a power cut may lose it). True unless said. */
  readonly flush?: boolean;
  /** Refuse to write through a symbolic link planted at the temporary name (O_NOFOLLOW). */
  readonly noFollow?: boolean;
  /** The temporary file's path, when the caller recognises its own leftovers by name; beside the file by default. */
  readonly temporary?: string;
}

/** A private default mode: most of what the product keeps is a secret or names one. */
const defaultMode = 0o600;

/** New content written to a temporary file beside its destination, not yet in place. */
export class StagedFile {
  readonly destination: string;
  readonly temporary: string;
  readonly #fd: number;
  readonly #flush: boolean;
  #flushed: Promise<void> | undefined;
  #closed = false;

  private constructor(destination: string, temporary: string, fd: number, flush: boolean) {
    this.destination = destination;
    this.temporary = temporary;
    this.#fd = fd;
    this.#flush = flush;
  }

  /**
   * Writes `content` to a new temporary file with synchronous calls: once this returns the bytes are in the
   * kernel, so a SIGKILL of this process can no longer lose them (a power cut still can until `flush`).
   */
  static write(destination: string, content: string | Uint8Array, options: DurableWriteOptions = {}): StagedFile {
    const temporary = options.temporary ?? temporaryPathFor(destination);
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (options.noFollow ? constants.O_NOFOLLOW : 0);
    const mode = options.mode ?? defaultMode;
    const fd = openSync(temporary, flags, mode);
    try {
      fchmodSync(fd, mode);
      const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
      for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written);
    } catch (error) {
      closeSync(fd);
      unlinkQuietly(temporary);
      throw error;
    }
    return new StagedFile(destination, temporary, fd, options.flush ?? true);
  }

  /** Flushes the temporary file to the disk (started once; later calls wait for the same flush). */
  flush(): Promise<void> {
    if (!this.#flush) return Promise.resolve();
    this.#flushed ??= new Promise((resolve, reject) => fsync(this.#fd, (error) => (error ? reject(error) : resolve())));
    return this.#flushed;
  }

  /** Flushes, renames the temporary file over the destination and flushes the folder; closes the file. */
  async moveIntoPlace(): Promise<void> {
    try {
      await this.flush();
      await rename(this.temporary, this.destination);
    } catch (error) {
      this.discard();
      throw error;
    }
    await this.#close();
    if (this.#flush) await syncFolder(dirname(this.destination));
  }

  /** `moveIntoPlace` with synchronous calls (for a caller whose turn must end with the file in place). */
  moveIntoPlaceSync(): void {
    try {
      if (this.#flush) fsyncSync(this.#fd);
      renameSync(this.temporary, this.destination);
    } catch (error) {
      this.discard();
      throw error;
    }
    this.#closeSync();
    if (this.#flush) syncFolderSync(dirname(this.destination));
  }

  /**
   * Links the flushed temporary file to the destination unless a file has that name: true when this one was
   * put in place, false when another was there first. The temporary file is removed either way.
   */
  async linkIntoPlace(): Promise<boolean> {
    let linked = false;
    try {
      await this.flush();
      await link(this.temporary, this.destination);
      linked = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      await this.#close();
      await unlink(this.temporary).catch(() => {});
    }
    // Only a new name needs its folder flushed: when another file was there first, nothing changed.
    if (linked && this.#flush) await syncFolder(dirname(this.destination));
    return linked;
  }

  /** `linkIntoPlace` with synchronous calls. */
  linkIntoPlaceSync(): boolean {
    let linked = false;
    try {
      if (this.#flush) fsyncSync(this.#fd);
      linkSync(this.temporary, this.destination);
      linked = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      this.#closeSync();
      unlinkQuietly(this.temporary);
    }
    if (linked && this.#flush) syncFolderSync(dirname(this.destination));
    return linked;
  }

  /** Removes the temporary file and closes it, after any flush under way (the content never goes into place). */
  discard(): void {
    unlinkQuietly(this.temporary);
    // Nothing waits for the close: a failure to close a file being thrown away must not end the process.
    void this.#close().catch(() => {});
  }

  async #close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#flushed?.catch(() => {});
    closeSync(this.#fd);
  }

  #closeSync(): void {
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
  }
}

/** Writes or replaces `path` with `content`: whole or absent after any crash, and (unless `flush: false`) durable. */
export async function writeFileDurably(path: string, content: string | Uint8Array, options: DurableWriteOptions = {}): Promise<void> {
  await StagedFile.write(path, content, options).moveIntoPlace();
}

/** `writeFileDurably` with synchronous calls. */
export function writeFileDurablySync(path: string, content: string | Uint8Array, options: DurableWriteOptions = {}): void {
  StagedFile.write(path, content, options).moveIntoPlaceSync();
}

/** Creates `path` with `content` unless a file has that name: true when created, false when one was there. */
export async function createFileDurably(path: string, content: string | Uint8Array, options: DurableWriteOptions = {}): Promise<boolean> {
  return StagedFile.write(path, content, options).linkIntoPlace();
}

/** `createFileDurably` with synchronous calls. */
export function createFileDurablySync(path: string, content: string | Uint8Array, options: DurableWriteOptions = {}): boolean {
  return StagedFile.write(path, content, options).linkIntoPlaceSync();
}

/**
 * Flushes the file at `from` and renames it to `to`, then flushes the folder: for a file written earlier (a
 * journal left by a killed process) or set aside under a new name. Both names are in one folder.
 */
export async function moveFileDurably(from: string, to: string, options: { flush?: boolean } = {}): Promise<void> {
  const flush = options.flush ?? true;
  if (flush) await syncPath(from);
  await rename(from, to);
  if (flush) await syncFolder(dirname(to));
}

/** `<path>.<pid>.<random>.tmp`: beside the file (a rename never crosses file systems), unique to this write. */
export function temporaryPathFor(path: string): string {
  return `${path}.${process.pid}.${randomHex(4)}.tmp`;
}

/** Flushes a folder, so that the names just made or changed in it survive a power cut. */
export async function syncFolder(folder: string): Promise<void> {
  await syncPath(folder);
}

function syncFolderSync(folder: string): void {
  const fd = openSync(folder, constants.O_RDONLY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

async function syncPath(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}
