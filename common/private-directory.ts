/**
 * A directory that holds secrets of this user's (the token rescue copies, OAuth mode's state with its
 * signing key): it must be a real directory (not a symbolic link) of this user's that nobody else may
 * enter, and every directory above it must belong to this user or root and be writable by nobody else
 * unless sticky (as /tmp and /dev/shm are), or someone else could swap it for theirs between a check and
 * a write (ssh checks its files' parents the same way).
 */
import { lstatSync, realpathSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { messageOf } from "./named-error.ts";

export interface PrivateDirectoryRules {
  /** How messages name it: "The token rescue directory /run/user/1000/fitness-coach". */
  what: string;
  /** The fix for a directory that is not private: what to chmod, or which setting to change. */
  fix: string;
  /** The fix for a parent someone else owns: where else to put it. */
  elsewhere: string;
  /** The fix for a parent others may write to, after its chmod: "or set X elsewhere". */
  orElsewhere: string;
  /** The error to throw (each caller's configuration error). */
  error: (message: string) => Error;
}

/**
 * Whether the directory exists (false when it does not), after checking that it is still a directory of
 * this user's that nobody else may enter, and its parents; throws the rules' error saying what is wrong.
 */
export function checkPrivateDirectory(path: string, rules: PrivateDirectoryRules): boolean {
  let stat;
  try {
    stat = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
  if (stat.isSymbolicLink()) throw rules.error(`${rules.what} is a symbolic link. ${rules.fix}`);
  if (!stat.isDirectory()) throw rules.error(`${rules.what} is not a directory. ${rules.fix}`);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid)
    throw rules.error(`${rules.what} belongs to user ${stat.uid}, not to this user (${uid}). ${rules.fix}`);
  if ((stat.mode & 0o077) !== 0)
    throw rules.error(`${rules.what} lets other users in (permissions ${(stat.mode & 0o777).toString(8)}). ${rules.fix}`);
  checkParents(path, rules);
  return true;
}

/** Throws the rules' error naming the first directory above `path` that someone else could change. */
function checkParents(path: string, rules: PrivateDirectoryRules): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  let directory: string;
  try {
    directory = realpathSync(dirname(path));
  } catch (error) {
    throw rules.error(`${rules.what} cannot be checked: ${messageOf(error)}. ${rules.fix}`);
  }
  for (;;) {
    let stat;
    try {
      stat = statSync(directory);
    } catch (error) {
      throw rules.error(`${rules.what} cannot be checked (${directory}: ${messageOf(error)}). ${rules.fix}`);
    }
    const sticky = (stat.mode & 0o1000) !== 0;
    if (stat.uid !== 0 && stat.uid !== uid) {
      throw rules.error(
        `${rules.what} is inside ${directory}, which belongs to user ${stat.uid}: they could swap it for theirs. ${rules.elsewhere}`,
      );
    }
    if ((stat.mode & 0o022) !== 0 && !sticky) {
      const who = (stat.mode & 0o002) !== 0 ? "others" : `group ${stat.gid}`;
      throw rules.error(
        `${rules.what} is inside ${directory}, which ${who} may write to (permissions ${(stat.mode & 0o777).toString(8)}): ` +
          `they could swap it for theirs. Remove that write permission (chmod go-w ${directory}), ${rules.orElsewhere}.`,
      );
    }
    const up = dirname(directory);
    if (up === directory) return;
    directory = up;
  }
}
