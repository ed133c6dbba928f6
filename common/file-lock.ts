/**
 * A lock file shared by the processes of one machine (two stdio MCP servers started by two desktop
 * clients on one token file), held for the few milliseconds a token file's compare-and-swap takes.
 *
 * `open(path, "wx")` creates the lock atomically; it holds the owner's process id, host name and a
 * random nonce. A lock whose owner is dead (same host, no such process: it was killed while holding
 * it) is taken over at once instead of after a timeout, so a process restarted after SIGKILL is not
 * kept waiting. A lock from another host counts as stale only after `staleAfterMs`, an incomplete one
 * after a second. Waiting callers give up when their signal aborts (the store's deadline).
 *
 * Why not a library: proper-lockfile (mkdir locks, staleness by mtime) would make every restart after a
 * kill wait out its stale period (2 s at least), and it installs signal-exit's handlers, which would sit
 * in front of the server's own graceful SIGTERM handling.
 */
import { closeSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync, linkSync } from "node:fs";
import { hostname } from "node:os";
import { NamedError } from "./named-error.ts";
import { randomHex } from "./on-demand-crypto.ts";

export interface FileLockOptions {
  /** Gives up waiting when it aborts. */
  signal: AbortSignal;
  /** A lock from another host, or unreadable, is stale after this long (default 30 s). */
  staleAfterMs?: number;
}

export class LockWaitAbortedError extends NamedError {
  readonly owner: string;
  constructor(lockPath: string, owner: string) {
    super(`gave up waiting for the lock ${lockPath}, held by ${owner}`);
    this.owner = owner;
  }
}

export interface HeldLock {
  /** Whether the lock file is still this holder's (checked right before the step it protects). */
  stillHeld(): boolean;
}

/** Runs `work` while holding the lock at `lockPath`. */
export async function withFileLock<T>(lockPath: string, options: FileLockOptions, work: (lock: HeldLock) => Promise<T>): Promise<T> {
  const nonce = await acquire(lockPath, options);
  try {
    return await work({ stillHeld: () => holds(lockPath, nonce) });
  } finally {
    release(lockPath, nonce);
  }
}

/** Nonces of the locks this process holds now: a lock file with this process id and another nonce was
 * left by an earlier process that had the same id (a restarted container's process is often pid 1). */
const heldHere = new Set<string>();

interface LockContent {
  pid: number;
  host: string;
  nonce: string;
}

async function acquire(lockPath: string, options: FileLockOptions): Promise<string> {
  const own: LockContent = { pid: process.pid, host: hostname(), nonce: randomHex(8) };
  const text = `${own.pid}\n${own.host}\n${own.nonce}\n`;
  let wait = 2;
  for (;;) {
    try {
      const fd = openSync(lockPath, "wx", 0o600);
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      heldHere.add(own.nonce);
      return own.nonce;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readLock(lockPath);
    if (holder === "gone") continue;
    if (isStale(lockPath, holder, options.staleAfterMs ?? 30_000)) {
      breakStaleLock(lockPath, holder);
      continue;
    }
    if (options.signal.aborted) {
      throw new LockWaitAbortedError(lockPath, holder === "unreadable" ? "an unknown process" : `process ${holder.pid} on ${holder.host}`);
    }
    await sleep(wait, options.signal);
    wait = Math.min(wait * 2, 50);
  }
}

function readLock(lockPath: string): LockContent | "unreadable" | "gone" {
  let text: string;
  try {
    text = readFileSync(lockPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    return "unreadable";
  }
  const [pid, host, nonce] = text.split("\n");
  if (!pid || !/^\d+$/.test(pid) || !host || !nonce) return "unreadable";
  return { pid: Number(pid), host, nonce };
}

/**
 * An incomplete lock file (its creator was killed between creating and writing it, microseconds apart)
 * is stale after this long; a reader that caught a live creator in between finds it complete on its
 * next look.
 */
const incompleteStaleAfterMs = 1_000;

function isStale(lockPath: string, holder: LockContent | "unreadable", staleAfterMs: number): boolean {
  if (holder !== "unreadable" && holder.host === hostname()) {
    if (holder.pid === process.pid) return !heldHere.has(holder.nonce);
    return !processIsAlive(holder.pid);
  }
  try {
    return Date.now() - statSync(lockPath).mtimeMs > (holder === "unreadable" ? incompleteStaleAfterMs : staleAfterMs);
  } catch {
    return false;
  }
}

/** Whether a process with this id runs on this machine (in this process's view of it). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/**
 * Moves the stale lock aside (atomic), then checks that what was moved is the stale lock that was read:
 * if another process took it over in between, its fresh lock is put back.
 */
function breakStaleLock(lockPath: string, stale: LockContent | "unreadable"): void {
  const aside = `${lockPath}.${process.pid}.${randomHex(4)}.stale`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return; // already gone: try again
  }
  const moved = readLock(aside);
  const sameLock =
    stale === "unreadable" ? moved === "unreadable" : moved !== "unreadable" && moved !== "gone" && moved.nonce === stale.nonce;
  if (!sameLock) {
    try {
      linkSync(aside, lockPath);
    } catch {
      // A third process holds the lock now; the one moved aside lost it and will notice on release.
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // nothing to clean
  }
}

function holds(lockPath: string, nonce: string): boolean {
  const holder = readLock(lockPath);
  return holder !== "gone" && holder !== "unreadable" && holder.nonce === nonce;
}

function release(lockPath: string, nonce: string): void {
  heldHere.delete(nonce);
  if (!holds(lockPath, nonce)) return;
  try {
    unlinkSync(lockPath);
  } catch {
    // removed by someone who judged it stale
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
