/**
 * A remote credential store (Secrets Manager) with a local copy of every token set it has not yet
 * confirmed: the copy is written synchronously, in the same turn as Strava's answer, before the store's
 * request is even built, and removed as soon as the store answers (saved, or moved on).
 *
 * Why: a rotated refresh token is the one piece of state this software must not lose. Between Strava's
 * answer and the save leaving the process lie milliseconds of work (the AWS SDK builds and signs the
 * request), then a round trip; a process killed in that window (SIGKILL, the OOM killer, a crash, a store
 * that failed until shutdown) held the only copy of a token Strava had already rotated. Now it is in the
 * rescue directory (credentials/rescue/rescue-directory.ts: memory-backed, this user's only), and the next load
 * on this machine, by any process on the same store, finishes the save.
 *
 * Finishing is the store's own compare-and-swap over what it holds now, and only when that is the very
 * refresh token the rescued tokens replace (the file keeps its SHA-256). So a copy from a process still
 * running, whose own save is in flight, is safe to finish too: that process's save then finds its own
 * tokens stored and counts them as saved. A copy whose tokens the store holds (they landed after all) is
 * removed. A copy that fits nowhere in what the store holds is left for a day before it is removed (and
 * the removal logged): the store may have moved on (another instance refreshed, the operator authorized
 * again), but copies are told apart by the store's description only, and another store of the same
 * description (the same secret name and region in another AWS account, say) must still find its own.
 */
import { sha256Hex } from "../../common/digests.ts";
import type { Logger } from "../../common/logger.ts";
import { messageOf } from "../../common/named-error.ts";
import {
  CredentialStoreError,
  type CredentialSnapshot,
  type CredentialStore,
  type SaveOutcome,
  type TokenSet,
} from "../credential-store.ts";
import { chooseRescueDirectory, type RescueDirectorySetting, type RescueFile, type TokenRescueDirectory } from "./rescue-directory.ts";

/** A file that never became a complete record is a write cut short; after this long nobody will finish it. */
const incompleteFileGraceMs = 60_000;

/** How long a copy that fits nowhere in this store's history waits for a store of the same description. */
export const unmatchedCopyRetentionMs = 24 * 60 * 60 * 1000;

export class RescuingCredentialStore implements CredentialStore {
  readonly description: string;
  readonly authorizeCommand: string | undefined;
  readonly authorizeAgain: string | undefined;
  readonly #inner: CredentialStore;
  readonly #directory: TokenRescueDirectory;
  readonly #logger: Logger;
  readonly #now: () => number;
  /** File names of this store's copies. */
  readonly #prefix: string;
  /** Copies this process wrote and has not seen answered: its own save (or retry) finishes them. */
  readonly #ours = new Set<string>();
  /** A failing directory is said once, not at every refresh, until a copy is written again. */
  #directoryFailureLogged = false;

  constructor(inner: CredentialStore, directory: TokenRescueDirectory, logger: Logger, now: () => number = Date.now) {
    this.#inner = inner;
    this.#directory = directory;
    this.#logger = logger;
    this.#now = now;
    this.description = inner.description;
    this.authorizeCommand = inner.authorizeCommand;
    this.authorizeAgain = inner.authorizeAgain;
    this.#prefix = `${sha256Hex(inner.description).slice(0, 16)}.`;
  }

  async load(signal: AbortSignal): Promise<CredentialSnapshot> {
    return this.#loadFinishing(this.#copiesLeft(), signal);
  }

  /** The directory, while it holds this process's copy of `tokens` (written, and its save not answered yet). */
  keptCopyOf(tokens: TokenSet): string | undefined {
    return this.#ours.has(this.#copyName(tokens)) ? this.#directory.path : undefined;
  }

  /**
   * Saves what copies other processes left, now rather than at the first call (a server's start): the
   * store's other instances then meet the live refresh token, not the spent one. Reads the store only when
   * there are copies; logs, and resolves, when the store refused (the next load tries again).
   */
  async finishLeftCopies(signal: AbortSignal): Promise<void> {
    // One listing of the whole directory: this store's copies to finish, the others to mention.
    const listed = this.#copiesLeft("");
    this.#sayOthersWaiting(listed.filter((file) => !file.name.startsWith(this.#prefix)));
    const left = listed.filter((file) => file.name.startsWith(this.#prefix));
    if (left.length === 0) return;
    try {
      await this.#loadFinishing(left, signal);
    } catch (error) {
      this.#logger.warn("token_rescue_pending", { store: this.#inner.description, message: messageOf(error) });
    }
  }

  async saveTokens(expected: CredentialSnapshot, tokens: TokenSet, signal: AbortSignal): Promise<SaveOutcome> {
    const name = this.#keep(expected, tokens);
    const outcome = await this.#inner.saveTokens(expected, tokens, signal);
    // Answered: the tokens are stored, or the store moved on and they are dropped. Either way the copy has
    // done its job. A save that threw keeps it: the outcome is unknown and the tokens may be the only ones.
    if (name !== undefined) this.#release(name);
    return outcome;
  }

  /**
   * Copies kept for other stores (another secret, or one renamed since) wait until a process reading that
   * store starts; said at start so they are not forgotten in memory until the next reboot.
   */
  #sayOthersWaiting(others: RescueFile[]): void {
    if (others.length === 0) return;
    const stores = [...new Set(others.map((file) => file.rescued?.store ?? "an unreadable file"))];
    this.#logger.warn("token_rescue_others_waiting", {
      directory: this.#directory.path,
      message:
        `${others.length} kept token ${others.length === 1 ? "copy waits" : "copies wait"} in ${this.#directory.path} for another store ` +
        `(${stores.join("; ")}): a process reading that store saves ${others.length === 1 ? "it" : "them"} when it starts. ` +
        "If that store is gone, remove the files.",
    });
  }

  async #loadFinishing(left: RescueFile[], signal: AbortSignal): Promise<CredentialSnapshot> {
    const current = await this.#inner.load(signal);
    return left.length > 0 ? this.#finish(left, current, signal) : current;
  }

  /**
   * Copies other processes (or an earlier run of this one) left, whose names start with `prefix` (this
   * store's, by default); a directory that fails reads as none.
   */
  #copiesLeft(prefix = this.#prefix): RescueFile[] {
    try {
      return this.#directory.list(prefix, this.#now()).filter((file) => !this.#ours.has(file.name));
    } catch (error) {
      this.#directoryFailed("Copies left by a stopped process could not be read", error);
      return [];
    }
  }

  #directoryFailed(what: string, error: unknown): void {
    if (this.#directoryFailureLogged) return;
    this.#directoryFailureLogged = true;
    this.#logger.warn("token_rescue_failed", {
      directory: this.#directory.path,
      message: `${what} (${this.#directory.path}: ${messageOf(error)}); saving to the ${this.#inner.description} goes on without the copy. Fix the directory or set FITNESS_TOKEN_RESCUE_DIR.`,
    });
  }

  #copyName(tokens: TokenSet): string {
    return `${this.#prefix}${sha256Hex(tokens.refresh_token).slice(0, 16)}.json`;
  }

  /** Writes the copy; a directory that fails costs the copy (said once), never the save. */
  #keep(expected: CredentialSnapshot, tokens: TokenSet): string | undefined {
    const name = this.#copyName(tokens);
    try {
      this.#directory.keep(name, {
        store: this.#inner.description,
        replacesSha256: sha256Hex(expected.credentials.refresh_token),
        tokens,
        writtenAt: this.#now(),
      });
      this.#ours.add(name);
      this.#directoryFailureLogged = false;
      return name;
    } catch (error) {
      // A rewrite (the retry of a save) that failed leaves the earlier copy, if the directory still has it;
      // if not (the directory was emptied meanwhile), nothing is kept and nothing may be claimed.
      if (!this.#directory.holds(name)) this.#ours.delete(name);
      this.#directoryFailed("New tokens could not be copied before saving them", error);
      return undefined;
    }
  }

  #release(name: string): void {
    this.#ours.delete(name);
    this.#remove(name);
  }

  /** A copy that cannot be removed stays (and is looked at again); it never fails a load or a save. */
  #remove(name: string): void {
    try {
      this.#directory.remove(name);
    } catch (error) {
      this.#directoryFailed("A copy no longer needed could not be removed", error);
    }
  }

  /**
   * Finishes the saves that the copies in `files` stand for, oldest first, from `current` (what the store
   * holds). Returns what the store holds afterwards.
   */
  async #finish(files: RescueFile[], current: CredentialSnapshot, signal: AbortSignal): Promise<CredentialSnapshot> {
    for (const file of files) {
      const rescued = file.rescued;
      if (rescued === undefined) {
        if (file.ageMs > incompleteFileGraceMs) {
          this.#remove(file.name);
          this.#logger.warn("token_rescue_unreadable", {
            directory: this.#directory.path,
            message: `Removed ${file.name}: it never held a complete token set.`,
          });
        }
        continue;
      }
      const stored = current.credentials.refresh_token;
      if (stored === rescued.tokens.refresh_token) {
        this.#remove(file.name); // saved after all
        continue;
      }
      if (sha256Hex(stored) !== rescued.replacesSha256) {
        if (file.ageMs > unmatchedCopyRetentionMs) {
          this.#remove(file.name);
          this.#logger.info("token_rescue_dropped", {
            directory: this.#directory.path,
            message: `Removed ${file.name}, a copy of tokens from ${Math.round(file.ageMs / 3_600_000)} h ago that the ${this.#inner.description} has moved past.`,
          });
        }
        continue;
      }
      let outcome: SaveOutcome;
      try {
        outcome = await this.#inner.saveTokens(current, rescued.tokens, signal);
      } catch (error) {
        throw new CredentialStoreError(
          `The ${this.#inner.description} holds a refresh token that a stopped process already spent, and did not take the new tokens that ` +
            `process kept in ${this.#directory.path}: ${messageOf(error)} They stay there; the next call tries again.`,
        );
      }
      current = outcome.saved ? outcome.snapshot : outcome.current;
      this.#remove(file.name);
      if (outcome.saved) {
        this.#logger.warn("tokens_rescued", {
          store: this.#inner.description,
          message:
            `A process stopped before the ${this.#inner.description} had taken the tokens Strava gave it ` +
            `${Math.round(file.ageMs / 1000)} s ago; they were kept in ${this.#directory.path} and are saved now.`,
        });
      }
    }
    return current;
  }
}

/**
 * What gives a remote store the rescue copy on this machine: the directory is chosen once, from
 * FITNESS_TOKEN_RESCUE_DIR or the defaults (credentials/rescue/rescue-directory.ts). With none, stores are left as
 * they are, after one warning saying what that risks and how to fix it. Throws a ConfigurationError when
 * FITNESS_TOKEN_RESCUE_DIR names a directory that cannot be used.
 */
export function tokenRescue(setting: RescueDirectorySetting, logger: Logger, devShm?: string): (store: CredentialStore) => CredentialStore {
  const choice = chooseRescueDirectory(setting, devShm);
  const directory = choice.directory;
  if (directory === undefined) {
    if (!choice.quiet) {
      logger.warn("token_rescue_unavailable", {
        message:
          `New Strava tokens are not copied on this machine before they are saved to the remote credential store: ${choice.reason}. ` +
          "Without the copy, a process killed in the milliseconds between Strava's answer and the save loses the rotated refresh token.",
      });
    }
    return (store) => store;
  }
  // Said at info: the copy helps only processes that share this directory, so an operator must see it.
  logger.info("token_rescue_ready", { directory: directory.path });
  return (store) => new RescuingCredentialStore(store, directory, logger);
}

/**
 * What `finishLeftCopies` does, for a store that may or may not have the rescue copy (nothing without it).
 * Never rejects: callers start it in the background at start-up, where a rejection would end the process.
 */
export async function finishLeftTokenCopies(store: CredentialStore, timeoutMs: number): Promise<void> {
  if (!(store instanceof RescuingCredentialStore)) return;
  try {
    await store.finishLeftCopies(AbortSignal.timeout(timeoutMs));
  } catch {
    // finishLeftCopies logs what it could not do; the next load tries again
  }
}
