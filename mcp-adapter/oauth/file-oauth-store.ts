/**
 * OAuth mode's state in local files, for `npm start` on one machine (several processes may share it):
 * a directory (mode 0700, default `~/.config/openclaw-fitness/oauth`, `FITNESS_OAUTH_DIR`) holding
 *
 * - `state.json` (0600): registered clients, authorization codes, grants and the owner. Every change is
 *   a read-modify-write under the machine-wide lock file of tools/file-lock.ts, written to a temporary
 *   file, flushed and renamed into place, so a reader sees the old or the new state whole and a crash
 *   loses at most the change under way. Expired records are dropped on write.
 * - `usage.json` (0600): the day's fair-share counts, changed the same way but not flushed to disk: one
 *   is written for every Strava request, and a count lost to a power cut only gives an athlete a few
 *   requests more that day.
 * - `athletes/<id>.json` (0600): each athlete's Strava tokens, a token file exactly like `npm run
 *   authorize`'s, driven by the token manager through TokenFileStore's compare-and-swap;
 * - `signing-key` (0600): the access-token signing key, made once (the first process to link its file
 *   into place wins; the others read it).
 */
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { CredentialStoreError, type CredentialSnapshot, type SaveOutcome, type StoredCredentials, type TokenSet } from "../../tools/credentials.ts";
import { withFileLock } from "../../tools/file-lock.ts";
import { TokenFileStore } from "../../tools/token-file-store.ts";
import {
  countInto,
  emptyUsage,
  fairShareWindows,
  type AthleteCredentialStore,
  type AuthorizationCodeRecord,
  type DailyUsage,
  type FairShare,
  type FairShareVerdict,
  type GrantRecord,
  type OAuthStore,
  type RegisteredClient,
} from "./oauth-store.ts";
import { messageOf } from "../../common/named-error.ts";

interface StateFile {
  owner?: string;
  clients: Record<string, RegisteredClient>;
  codes: Record<string, AuthorizationCodeRecord>;
  grants: Record<string, GrantRecord>;
}

type UsageFile = Record<string, DailyUsage & { day: string }>;

/** `FITNESS_OAUTH_DIR`, else `$XDG_CONFIG_HOME/openclaw-fitness/oauth` (~/.config by default). */
export function defaultOAuthDirectory(env: NodeJS.ProcessEnv): string {
  const explicit = env["FITNESS_OAUTH_DIR"]?.trim();
  if (explicit) return explicit;
  const configHome = env["XDG_CONFIG_HOME"]?.trim() || join(homedir(), ".config");
  return join(configHome, "openclaw-fitness", "oauth");
}

export interface FileOAuthStoreOptions {
  directory: string;
  /** The deployment's Strava application (kept with each athlete's tokens, as the token file format wants). */
  application: { client_id: string; client_secret: string };
  /** Clock in epoch milliseconds. */
  now?: () => number;
}

export class FileOAuthStore implements OAuthStore {
  readonly description: string;
  readonly #directory: string;
  readonly #statePath: string;
  readonly #usagePath: string;
  readonly #application: { client_id: string; client_secret: string };
  readonly #now: () => number;
  #key: Uint8Array | undefined;

  constructor(options: FileOAuthStoreOptions) {
    this.#directory = options.directory;
    this.#statePath = join(options.directory, "state.json");
    this.#usagePath = join(options.directory, "usage.json");
    this.#application = options.application;
    this.#now = options.now ?? Date.now;
    this.description = `OAuth state directory ${options.directory}`;
    mkdirSync(join(options.directory, "athletes"), { recursive: true, mode: 0o700 });
  }

  async putClient(client: RegisteredClient, signal: AbortSignal): Promise<void> {
    await this.#update(signal, (state) => {
      state.clients[client.client_id] = client;
    });
  }

  async getClient(clientId: string): Promise<RegisteredClient | undefined> {
    return this.#live((await this.#read()).clients[clientId]);
  }

  async putCode(record: AuthorizationCodeRecord, signal: AbortSignal): Promise<void> {
    await this.#update(signal, (state) => {
      state.codes[record.code_sha256] = record;
    });
  }

  async getCode(codeSha256: string): Promise<AuthorizationCodeRecord | undefined> {
    return this.#live((await this.#read()).codes[codeSha256]);
  }

  async redeemCode(codeSha256: string, signal: AbortSignal): Promise<boolean> {
    return this.#update(signal, (state) => {
      const present = this.#live(state.codes[codeSha256]) !== undefined;
      delete state.codes[codeSha256];
      return present;
    });
  }

  async createGrant(grant: GrantRecord, signal: AbortSignal): Promise<void> {
    await this.#update(signal, (state) => {
      state.grants[grant.grant_id] = grant;
    });
  }

  async getGrant(grantId: string): Promise<GrantRecord | undefined> {
    return this.#live((await this.#read()).grants[grantId]);
  }

  async replaceGrant(next: GrantRecord, signal: AbortSignal): Promise<boolean> {
    return this.#update(signal, (state) => {
      const current = this.#live(state.grants[next.grant_id]);
      if (current === undefined || current.revision !== next.revision - 1) return false;
      state.grants[next.grant_id] = next;
      return true;
    });
  }

  async deleteGrant(grantId: string, signal: AbortSignal): Promise<GrantRecord | undefined> {
    return this.#update(signal, (state) => {
      const grant = this.#live(state.grants[grantId]);
      delete state.grants[grantId];
      return grant;
    });
  }

  async grantsOf(athleteId: string): Promise<GrantRecord[]> {
    const state = await this.#read();
    return Object.values(state.grants).filter((grant) => grant.athlete_id === athleteId && this.#live(grant) !== undefined);
  }

  async claimOwner(athleteId: string, signal: AbortSignal): Promise<string> {
    return this.#update(signal, (state) => {
      state.owner ??= athleteId;
      return state.owner;
    });
  }

  async owner(): Promise<string | undefined> {
    return (await this.#read()).owner;
  }

  credentialStoreFor(athleteId: string): AthleteCredentialStore {
    return new ApplicationCredentials(new TokenFileStore({ path: this.#athletePath(athleteId) }), this.#application);
  }

  async hasAthlete(athleteId: string): Promise<boolean> {
    try {
      await readFile(this.#athletePath(athleteId));
      return true;
    } catch {
      return false;
    }
  }

  async deleteAthlete(athleteId: string, signal: AbortSignal): Promise<void> {
    await this.#update(signal, (state) => {
      for (const [id, grant] of Object.entries(state.grants)) if (grant.athlete_id === athleteId) delete state.grants[id];
      for (const [hash, code] of Object.entries(state.codes)) if (code.athlete_id === athleteId) delete state.codes[hash];
      rmSync(this.#athletePath(athleteId), { force: true });
    });
    await this.#updateUsage(signal, fairShareWindows(this.#now()).day, (usage) => {
      delete usage[athleteId];
    });
  }

  async countUpstreamRequest(athleteId: string, read: boolean, share: FairShare, nowMs: number, signal: AbortSignal): Promise<FairShareVerdict> {
    const { day, quarter } = fairShareWindows(nowMs);
    return this.#updateUsage(signal, day, (counts) => {
      let usage = counts[athleteId];
      if (usage === undefined || usage.day !== day) usage = { day, ...emptyUsage() };
      const verdict = countInto(usage, quarter, read, share);
      counts[athleteId] = usage;
      return verdict;
    });
  }

  async signingKey(): Promise<Uint8Array> {
    if (this.#key) return this.#key;
    const path = join(this.#directory, "signing-key");
    try {
      this.#key = Buffer.from(readFileSync(path, "utf8").trim(), "base64url");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw this.#error("read the signing key", error);
      const candidate = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
      writeDurably(candidate, randomBytes(32).toString("base64url"));
      try {
        linkSync(candidate, path); // fails if another process made one first: then theirs is the key
      } catch (linkError) {
        if ((linkError as NodeJS.ErrnoException).code !== "EEXIST") throw this.#error("create the signing key", linkError);
      } finally {
        unlinkSync(candidate);
      }
      this.#key = Buffer.from(readFileSync(path, "utf8").trim(), "base64url");
    }
    if (this.#key.length < 32) throw new CredentialStoreError(`The signing key in ${path} is shorter than 32 bytes; delete the file to have a new one made.`);
    return this.#key;
  }

  #athletePath(athleteId: string): string {
    if (!/^\d{1,20}$/.test(athleteId)) throw new TypeError(`not a Strava athlete id: ${athleteId}`);
    return join(this.#directory, "athletes", `${athleteId}.json`);
  }

  #live<T extends { expires_at: number }>(record: T | undefined): T | undefined {
    return record !== undefined && record.expires_at * 1000 > this.#now() ? record : undefined;
  }

  async #read(): Promise<StateFile> {
    let text: string;
    try {
      text = await readFile(this.#statePath, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { clients: {}, codes: {}, grants: {} };
      throw this.#error("read", error);
    }
    try {
      const parsed = JSON.parse(text) as Partial<StateFile>;
      return { owner: parsed.owner, clients: parsed.clients ?? {}, codes: parsed.codes ?? {}, grants: parsed.grants ?? {} };
    } catch {
      throw new CredentialStoreError(`${this.#statePath} is not valid JSON; restore it from a backup or delete it (every client then signs in again).`);
    }
  }

  async #update<T>(signal: AbortSignal, change: (state: StateFile) => T): Promise<T> {
    return withFileLock(`${this.#statePath}.lock`, { signal }, async () => {
      const state = await this.#read();
      const result = change(state);
      const nowSeconds = this.#now() / 1000;
      for (const kind of ["clients", "codes", "grants"] as const) {
        const records = state[kind] as Record<string, { expires_at: number }>;
        for (const [key, record] of Object.entries(records)) if (record.expires_at <= nowSeconds) delete records[key];
      }
      const temporary = `${this.#statePath}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
      try {
        writeDurably(temporary, JSON.stringify(state));
        renameSync(temporary, this.#statePath);
        syncDirectory(this.#directory);
      } catch (error) {
        rmSync(temporary, { force: true });
        throw this.#error("write", error);
      }
      return result;
    });
  }

  /**
   * The fair-share counts: the same read-modify-write under a lock of their own, without flushing. Counts of
   * days other than `today` are dropped: `today` is the day of the request being counted, so the count and
   * the pruning read one clock (the caller's), whatever this store's own clock says.
   */
  async #updateUsage<T>(signal: AbortSignal, today: string, change: (usage: UsageFile) => T): Promise<T> {
    return withFileLock(`${this.#usagePath}.lock`, { signal }, async () => {
      let usage: UsageFile = {};
      try {
        usage = JSON.parse(await readFile(this.#usagePath, "utf8")) as UsageFile;
      } catch {
        // absent or unreadable: counting starts again (a share is a budget, not a record)
      }
      const result = change(usage);
      for (const [athlete, counts] of Object.entries(usage)) if (counts.day !== today) delete usage[athlete];
      const temporary = `${this.#usagePath}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
      try {
        writeFileSync(temporary, JSON.stringify(usage), { mode: 0o600, flag: "wx" });
        renameSync(temporary, this.#usagePath);
      } catch (error) {
        rmSync(temporary, { force: true });
        throw this.#error("write the fair-share counts of", error);
      }
      return result;
    });
  }

  #error(action: string, error: unknown): CredentialStoreError {
    return new CredentialStoreError(`Could not ${action} the ${this.description}: ${messageOf(error)}`);
  }
}

function writeDurably(path: string, text: string): void {
  const fd = openSync(path, "wx", 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function syncDirectory(directory: string): void {
  const fd = openSync(directory, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * An athlete's token file with the deployment's Strava application credentials put over whatever the
 * file holds, so a rotated client secret takes effect for every athlete at the next start.
 */
class ApplicationCredentials implements AthleteCredentialStore {
  readonly description: string;
  readonly #inner: TokenFileStore;
  readonly #application: { client_id: string; client_secret: string };

  constructor(inner: TokenFileStore, application: { client_id: string; client_secret: string }) {
    this.#inner = inner;
    this.#application = application;
    this.description = inner.description;
  }

  async load(signal: AbortSignal): Promise<CredentialSnapshot> {
    const snapshot = await this.#inner.load(signal);
    return { credentials: { ...snapshot.credentials, ...this.#application }, version: snapshot.version };
  }

  saveTokens(expected: CredentialSnapshot, tokens: TokenSet, signal: AbortSignal): Promise<SaveOutcome> {
    return this.#inner.saveTokens(expected, tokens, signal).then((outcome) =>
      outcome.saved
        ? { saved: true, snapshot: { credentials: { ...outcome.snapshot.credentials, ...this.#application }, version: outcome.snapshot.version } }
        : { saved: false, current: { credentials: { ...outcome.current.credentials, ...this.#application }, version: outcome.current.version } },
    );
  }

  writeAuthorization(credentials: Required<StoredCredentials>, signal: AbortSignal): Promise<void> {
    return this.#inner.writeAuthorization({ ...credentials, ...this.#application }, signal);
  }
}
