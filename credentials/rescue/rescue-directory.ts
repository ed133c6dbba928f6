/**
 * The directory where newly received tokens wait, on this machine, until a remote credential store has
 * them (credentials/rescue/rescuing-store.ts), and how it is chosen:
 *
 * - `FITNESS_TOKEN_RESCUE_DIR`: an absolute path (created 0700 if missing), or `off`;
 * - unset: `$XDG_RUNTIME_DIR/fitness-coach`, else `/dev/shm/fitness-coach-<uid>`, each only when it is
 *   memory-backed (tmpfs or ramfs). Operators put credentials in Secrets Manager to keep tokens off disks,
 *   so a default never writes them to one; a machine without such a directory runs without the copy (and
 *   says so at start), as before.
 *
 * The directory must belong to this user and let nobody else in (no group or other permission bits): a
 * directory others can write could have a file planted in it, and one others can read shows tokens. Each
 * directory above it must belong to this user or root and be writable by nobody else unless sticky (as
 * /dev/shm and /tmp are), or someone else could swap the checked directory for theirs between the check
 * and a write (ssh checks its files' parents the same way). Files are written 0600, never through a
 * symbolic link, under a temporary name flushed and renamed into place (common/durable-file.ts): a reader
 * sees a whole copy or none, and a failed rewrite leaves the copy it meant to replace. A file holds one token set and the SHA-256 of the
 * refresh token it replaces, never the client secret.
 *
 * Windows has neither a memory-backed directory nor POSIX owners and modes to check, so the copy is not
 * offered there (a configured directory is refused, saying to set `off`).
 *
 * A memory-backed directory is emptied when the machine restarts, and, for a user without lingering
 * (`loginctl enable-linger`), when their last session ends: $XDG_RUNTIME_DIR is removed and systemd removes
 * the user's files from /dev/shm.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, statfsSync, unlinkSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import type { TokenSet } from "../credential-store.ts";
import { checkPrivateDirectory } from "../../common/private-directory.ts";
import { ConfigurationError } from "../../common/configuration-error.ts";
import { messageOf } from "../../common/named-error.ts";
import { schemaViolations } from "../../common/schema-check.ts";
import { writeFileDurablySync } from "../../common/durable-file.ts";

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

/** Makes each write's temporary name unique within this process. */
let writes = 0;

/** Where the front end was told to keep copies: FITNESS_TOKEN_RESCUE_DIR, and the session's XDG_RUNTIME_DIR. */
export interface RescueDirectorySetting {
  configured: string | undefined;
  runtimeDirectory: string | undefined;
}

export function chooseRescueDirectory(setting: RescueDirectorySetting, devShm = "/dev/shm"): RescueDirectoryChoice {
  const configured = setting.configured;
  if (configured === "off") return { directory: undefined, reason: `${rescueDirEnvName} is off`, quiet: true };
  const uid = process.getuid?.();
  if (uid === undefined) {
    if (configured) {
      throw new ConfigurationError(
        `${rescueDirEnvName} cannot be used on this platform: the copy needs a directory whose owner and permissions can be checked. Set it to "off".`,
      );
    }
    return {
      directory: undefined,
      reason: `this platform has no per-user memory-backed directory (set ${rescueDirEnvName}=off to silence this warning)`,
      quiet: false,
    };
  }
  if (configured) {
    if (!isAbsolute(configured)) {
      throw new ConfigurationError(`${rescueDirEnvName} must be an absolute path (or "off"); got "${configured}".`);
    }
    return { directory: TokenRescueDirectory.open(configured, { createParents: true }) };
  }
  const runtime = setting.runtimeDirectory;
  const candidates = [...(runtime && isAbsolute(runtime) ? [join(runtime, "fitness-coach")] : []), join(devShm, `fitness-coach-${uid}`)];
  const refused: string[] = [];
  for (const path of candidates) {
    const parent = dirname(path);
    const notInMemory = whyNotMemoryBacked(parent);
    if (notInMemory !== undefined) {
      refused.push(notInMemory);
      continue;
    }
    try {
      return { directory: TokenRescueDirectory.open(path, { createParents: false }) };
    } catch (error) {
      refused.push(messageOf(error));
    }
  }
  return {
    directory: undefined,
    reason: `${refused.join("; ")}. Set ${rescueDirEnvName} to a directory only this user can enter (or to "off")`,
    quiet: false,
  };
}

function whyNotMemoryBacked(path: string): string | undefined {
  let type: number;
  try {
    type = Number(statfsSync(path).type);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT"
      ? `${path} does not exist`
      : `${path} cannot be examined: ${messageOf(error)}`;
  }
  return memoryFileSystems.has(type) ? undefined : `${path} is not a memory-backed file system`;
}

export class TokenRescueDirectory {
  readonly path: string;

  private constructor(path: string) {
    this.path = path;
  }

  /** Creates the directory (0700) if missing and checks it; throws a ConfigurationError saying what is wrong. */
  static open(path: string, options: { createParents: boolean }): TokenRescueDirectory {
    const directory = new TokenRescueDirectory(path);
    directory.#ensure(options.createParents);
    return directory;
  }

  /**
   * Writes (or rewrites) `name` synchronously; the caller's turn ends with the tokens in the file. The
   * directory is checked again first (it may have been removed, or replaced by someone else's, since it
   * was opened): a ConfigurationError says what is wrong and nothing is written.
   */
  keep(name: string, rescued: RescuedTokens): void {
    if (!name.endsWith(".json")) throw new Error(`A copy's name ends with .json; got ${name}`);
    const text = JSON.stringify({
      note: "Strava tokens not yet confirmed saved to the store below; the next process of the fitness tools on this machine that reads that store saves them and removes this file.",
      store: rescued.store,
      replaces_sha256: rescued.replacesSha256,
      access_token: rescued.tokens.access_token,
      refresh_token: rescued.tokens.refresh_token,
      expires_at: rescued.tokens.expires_at,
      written_at: rescued.writtenAt,
    });
    // Cleaners of run-time directories (systemd at logout, tmpfiles) may have removed it: made again.
    if (!this.#check()) this.#ensure(false);
    // Named like a copy (a whole one left by a kill before the rename is a copy like any other; an empty
    // one is removed as a write cut short), and unique to this write.
    const temporary = join(this.path, `${name.slice(0, -".json".length)}.${process.pid}-${++writes}.json`);
    writeFileDurablySync(join(this.path, name), text, { temporary, noFollow: true });
  }

  /** Whether the directory holds a file named `name` (false when it cannot be told). */
  holds(name: string): boolean {
    try {
      return lstatSync(join(this.path, name)).isFile();
    } catch {
      return false;
    }
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
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") {
        const why = code === "ENOENT" ? `${dirname(this.path)} does not exist` : messageOf(error);
        throw new ConfigurationError(
          `The token rescue directory ${this.path} cannot be created: ${why}. Set ${rescueDirEnvName} to a directory this user can create, or to "off".`,
        );
      }
    }
    if (!this.#check())
      throw new ConfigurationError(`The token rescue directory ${this.path} disappeared while it was being created. ${this.#fix()}`);
  }

  #fix(): string {
    return `Use a directory that belongs to this user with permissions 0700 (chmod 700 ${this.path}), or set ${rescueDirEnvName}=off.`;
  }

  /**
   * Whether the directory exists (false when it does not), after checking that it is still a directory (not
   * a symbolic link) of this user's that nobody else may enter; throws a ConfigurationError when it is not.
   */
  #check(): boolean {
    return checkPrivateDirectory(this.path, {
      what: `The token rescue directory ${this.path}`,
      fix: this.#fix(),
      elsewhere: `Set ${rescueDirEnvName} to a directory under one of this user's own, or to "off".`,
      orElsewhere: `or set ${rescueDirEnvName} elsewhere, or to "off"`,
      error: (message) => new ConfigurationError(message),
    });
  }
}

/** A file as written by `keep`. */
const rescueFileSchema = Type.Object({
  store: Type.String(),
  replaces_sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }),
  access_token: Type.String({ format: "not-blank" }),
  refresh_token: Type.String({ format: "not-blank" }),
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
