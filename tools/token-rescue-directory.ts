/**
 * The directory where newly received tokens wait, on this machine, until a remote credential store has
 * them (tools/rescuing-credential-store.ts), and how it is chosen:
 *
 * - `FITNESS_TOKEN_RESCUE_DIR`: an absolute path (created 0700 if missing), or `off`;
 * - unset: `$XDG_RUNTIME_DIR/fitness-coach`, else `/dev/shm/fitness-coach-<uid>`, each only when it is
 *   memory-backed (tmpfs or ramfs). Operators put credentials in Secrets Manager to keep tokens off disks,
 *   so a default never writes them to one; a machine without such a directory runs without the copy (and
 *   says so at start), as before.
 *
 * The directory must belong to this user and let nobody else in (no group or other permission bits): a
 * directory others can write could have a file planted in it, and one others can read shows tokens. Files
 * are written 0600, never through a symbolic link, in one `write` (a reader sees all of a file or, for a
 * moment, nothing). A file holds one token set and the SHA-256 of the refresh token it replaces, never the
 * client secret.
 */
import { closeSync, constants, lstatSync, openSync, mkdirSync, readdirSync, readFileSync, statfsSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import type { TokenSet } from "./credentials.ts";
import { SettingsError } from "./upstream-settings.ts";
import { messageOf } from "../common/named-error.ts";
import { schemaViolations } from "../common/schema-check.ts";

export const rescueDirEnvName = "FITNESS_TOKEN_RESCUE_DIR";

/** What one file holds. */
export interface RescuedTokens {
  /** The store's description (for the operator who finds the file). */
  store: string;
  /** Hex SHA-256 of the refresh token these tokens replace: where in the store's history they belong. */
  replacesSha256: string;
  tokens: TokenSet;
  /** Epoch ms. */
  writtenAt: number;
}

export interface RescueFile {
  name: string;
  /** Undefined when the file is not (or not yet) a complete record. */
  rescued: RescuedTokens | undefined;
  ageMs: number;
}

/** Where the directory is, or why there is none. */
export type RescueDirectoryChoice = { directory: TokenRescueDirectory } | { directory: undefined; reason: string; quiet: boolean };

/** Larger files in the directory are not copies (one is a few hundred bytes) and are not read. */
const maxCopyBytes = 16 * 1024;

const memoryFileSystems = new Set([0x01021994 /* tmpfs */, 0x858458f6 /* ramfs */]);

export function chooseRescueDirectory(env: NodeJS.ProcessEnv, devShm = "/dev/shm"): RescueDirectoryChoice {
  const configured = env[rescueDirEnvName]?.trim();
  if (configured === "off") return { directory: undefined, reason: `${rescueDirEnvName} is off`, quiet: true };
  if (configured) {
    if (!configured.startsWith("/")) {
      throw new SettingsError(`${rescueDirEnvName} must be an absolute path (or "off"); got "${configured}".`);
    }
    return { directory: TokenRescueDirectory.open(configured, { createParents: true }) };
  }
  const uid = process.getuid?.();
  if (uid === undefined) return { directory: undefined, reason: `this platform has no per-user memory-backed directory; set ${rescueDirEnvName}`, quiet: false };
  const runtime = env["XDG_RUNTIME_DIR"]?.trim();
  const candidates = [...(runtime?.startsWith("/") ? [join(runtime, "fitness-coach")] : []), join(devShm, `fitness-coach-${uid}`)];
  const refused: string[] = [];
  for (const path of candidates) {
    const parent = join(path, "..");
    if (!isMemoryBacked(parent)) {
      refused.push(`${parent} is not a memory-backed file system`);
      continue;
    }
    try {
      return { directory: TokenRescueDirectory.open(path, { createParents: false }) };
    } catch (error) {
      refused.push(messageOf(error));
    }
  }
  return { directory: undefined, reason: `${refused.join("; ")}. Set ${rescueDirEnvName} to a directory only this user can enter`, quiet: false };
}

function isMemoryBacked(path: string): boolean {
  try {
    return memoryFileSystems.has(Number(statfsSync(path).type));
  } catch {
    return false;
  }
}

export class TokenRescueDirectory {
  readonly path: string;

  private constructor(path: string) {
    this.path = path;
  }

  /** Creates the directory (0700) if missing and checks it; throws a SettingsError saying what is wrong. */
  static open(path: string, options: { createParents: boolean }): TokenRescueDirectory {
    const directory = new TokenRescueDirectory(path);
    directory.#ensure(options.createParents);
    return directory;
  }

  /**
   * Writes (or rewrites) `name` synchronously; the caller's turn ends with the tokens in the file. The
   * directory is checked again first (it may have been removed, or replaced by someone else's, since it
   * was opened): a SettingsError says what is wrong and nothing is written.
   */
  keep(name: string, rescued: RescuedTokens): void {
    const text = JSON.stringify({
      note: "Strava tokens not yet confirmed saved to the store below; the next process of the fitness tools on this machine that reads that store saves them and removes this file.",
      store: rescued.store,
      replaces_sha256: rescued.replacesSha256,
      access_token: rescued.tokens.access_token,
      refresh_token: rescued.tokens.refresh_token,
      expires_at: rescued.tokens.expires_at,
      written_at: rescued.writtenAt,
    });
    const write = (): void => {
      const fd = openSync(join(this.path, name), constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
      try {
        writeFileSync(fd, text);
      } finally {
        closeSync(fd);
      }
    };
    // Cleaners of run-time directories (systemd at logout, tmpfiles) may have removed it: made again.
    if (!this.#check()) this.#ensure(false);
    write();
  }

  /** The files whose names start with `prefix`, oldest first (after the same check as `keep`). */
  list(prefix: string, nowMs: number): RescueFile[] {
    if (!this.#check()) return [];
    const names = readdirSync(this.path).filter((name) => name.startsWith(prefix) && name.endsWith(".json"));
    const files: RescueFile[] = [];
    for (const name of names) {
      const path = join(this.path, name);
      let text: string;
      let mtimeMs: number;
      try {
        const stat = lstatSync(path);
        // A copy is a few hundred bytes; anything else here was not written by `keep`.
        if (!stat.isFile() || stat.size > maxCopyBytes) continue;
        mtimeMs = stat.mtimeMs;
        text = readFileSync(path, "utf8");
      } catch {
        continue; // removed meanwhile by its writer
      }
      const rescued = parseRescued(text);
      files.push({ name, rescued, ageMs: nowMs - (rescued?.writtenAt ?? mtimeMs) });
    }
    return files.sort((a, b) => b.ageMs - a.ageMs);
  }

  remove(name: string): void {
    try {
      unlinkSync(join(this.path, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }

  #ensure(createParents: boolean): void {
    try {
      mkdirSync(this.path, { mode: 0o700, recursive: createParents });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new SettingsError(`The token rescue directory ${this.path} cannot be created: ${messageOf(error)}. ${this.#fix()}`);
      }
    }
    if (!this.#check()) throw new SettingsError(`The token rescue directory ${this.path} disappeared while it was being created. ${this.#fix()}`);
  }

  #fix(): string {
    return `Use a directory that belongs to this user with permissions 0700 (chmod 700 ${this.path}), or set ${rescueDirEnvName}=off.`;
  }

  /**
   * Whether the directory exists (false when it does not), after checking that it is still a directory (not
   * a symbolic link) of this user's that nobody else may enter; throws a SettingsError when it is not.
   */
  #check(): boolean {
    let stat;
    try {
      stat = lstatSync(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
    const fix = this.#fix();
    if (!stat.isDirectory()) throw new SettingsError(`The token rescue directory ${this.path} is not a directory. ${fix}`);
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) {
      throw new SettingsError(`The token rescue directory ${this.path} belongs to user ${stat.uid}, not to this user (${uid}). ${fix}`);
    }
    if ((stat.mode & 0o077) !== 0) {
      throw new SettingsError(
        `The token rescue directory ${this.path} lets other users in (permissions ${(stat.mode & 0o777).toString(8)}). ${fix}`,
      );
    }
    return true;
  }
}

/** A file as written by `keep`. */
const rescueFileSchema = Type.Object({
  store: Type.String(),
  replaces_sha256: Type.String(),
  access_token: Type.String(),
  refresh_token: Type.String(),
  expires_at: Type.Number(),
  written_at: Type.Number(),
});

function parseRescued(text: string): RescuedTokens | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (schemaViolations(rescueFileSchema, value, 1).length > 0) return undefined;
  const record = value as Static<typeof rescueFileSchema>;
  return {
    store: record.store,
    replacesSha256: record.replaces_sha256,
    tokens: { access_token: record.access_token, refresh_token: record.refresh_token, expires_at: record.expires_at },
    writtenAt: record.written_at,
  };
}
