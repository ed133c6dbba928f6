/**
 * OAuth mode's state in local files, for `npm start` on one machine (several processes may share it): a
 * directory (mode 0700, default `~/.config/openclaw-fitness/oauth`, `FITNESS_OAUTH_DIR`), checked like
 * every directory of this user's secrets (common/private-directory.ts: a directory others may enter, or
 * whose parents others could swap, is refused with the chmod that fixes it), holding one small file per
 * record, so that a request reads and writes only the records it names:
 *
 * - `clients/<client_id>.json`: registrations; the unused ones also take a place in `clients/ring.index`
 *   (registration-ring.ts; about 70 bytes a place, so bounded by the number of places), changed under
 *   `clients/ring.lock` with the records it evicts or marks;
 * - `registrations/<hour>.counts`: the hour's registration counts, 9 bytes per slot (the source's tag
 *   and its count, `registrationCountSlot`), changed under `registrations/counts.lock`: at most 36 KiB an
 *   hour however many sources register;
 * - `sign-in-states/<expiry>-<state id>`: a Strava sign-in state already used, made with O_EXCL (of several
 *   processes exactly one creates it), an empty file named by when the state expires, so that the sweep
 *   needs only the directory listing;
 * - `codes/<sha256>.json`, `grants/<grant_id>.json`: changed under a lock file of their own
 *   (common/file-lock.ts), written to a temporary file, flushed and renamed into place, so a reader sees
 *   the old or the new record whole and a crash loses at most the change under way;
 * - `owner`: the owner's athlete id, made once (the first process to link its file into place wins);
 * - `athletes/<id>.json`: each athlete's Strava tokens, a token file exactly like `npm run authorize`'s,
 *   driven by the token manager through TokenFileStore's compare-and-swap; `athletes/<id>.unadmitted`:
 *   since when the athlete is no longer admitted; `athletes/<id>.grants-ended`: when their last grant was
 *   ended as a precaution;
 * - `usage.json`, `deauthorization-checks.json`: the day's fair-share counts and deauthorization checks of
 *   the admitted athletes (a few records), changed under a lock but not flushed: a count lost to a power
 *   cut only gives an athlete a few requests more that day;
 * - `signing-key`: the access-token signing key, made once like `owner`.
 *
 * Registrations are written without flushing (one lost to a power cut is registered again); codes, grants
 * and the owner are flushed. A `state.json` left by an earlier version (every record in one file) is
 * split into these files the first time the store is used, then renamed `state.json.migrated`: nobody
 * signs in again. Expired records are removed by `sweepExpired` (at start) and when read.
 */
import { randomBytes } from "node:crypto";
import { closeSync, constants, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, readSync, unlinkSync, writeSync } from "node:fs";
import { link, open, readdir, readFile, rename, rm, unlink } from "node:fs/promises";
import { join } from "node:path";
import {
  CredentialStoreError,
  type CredentialSnapshot,
  type SaveOutcome,
  type StoredCredentials,
  type TokenSet,
} from "../../credentials/credential-store.ts";
import { withFileLock } from "../../common/file-lock.ts";
import { checkPrivateDirectory } from "../../common/private-directory.ts";
import { defaultStoreTimeoutMs } from "../../credentials/store-deadline.ts";
import { TokenFileStore } from "../../credentials/stores/token-file-store.ts";
import { ConfigurationError } from "../../common/configuration-error.ts";
import {
  countInto,
  emptyUsage,
  fairShareWindows,
  registrationCountSlot,
  registrationWindow,
  type AthleteCredentialStore,
  type AuthorizationCodeRecord,
  type CodeRedemption,
  type DailyUsage,
  type FairShare,
  type FairShareVerdict,
  type GrantRecord,
  type OAuthStore,
  type RateVerdict,
  type RegisteredClient,
  type RegistrationLimits,
  type RegistrationPlacement,
  type StoredAthlete,
} from "./oauth-store.ts";
import { leaveRing, parseRing, placeInRing, serializeRing, startSignInInRing, type RegistrationRing } from "./registration-ring.ts";
import { messageOf } from "../../common/named-error.ts";

type UsageFile = Record<string, DailyUsage & { day: string }>;
type DeauthorizationChecks = Record<string, { day: string; quarters: string[] }>;

/** What the store keeps of the state file an earlier version wrote. */
interface LegacyStateFile {
  owner?: string;
  clients?: Record<string, RegisteredClient>;
  codes?: Record<string, AuthorizationCodeRecord>;
  grants?: Record<string, GrantRecord>;
}

export interface FileOAuthStoreOptions {
  directory: string;
  /** The deployment's Strava application (kept with each athlete's tokens, as the token file format wants). */
  application: { client_id: string; client_secret: string };
  /** Clock in epoch milliseconds. */
  now?: () => number;
}

// Names of record files come from requests: only these shapes ever reach a path.
const clientIdPattern = /^fc_[A-Za-z0-9_-]{1,64}$/;
const digestPattern = /^[0-9a-f]{64}$/;
const grantIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const athleteIdPattern = /^\d{1,20}$/;
const signInStatePattern = /^[A-Za-z0-9_-]{22}$/;

/** How often a long-running process clears the used sign-in states that expired (besides the sweep at start). */
const signInStateSweepMs = 15 * 60_000;

/** A registration count's slot in `registrations/<hour>.counts`: the source's 8-byte tag, then its count. */
const countSlotBytes = 9;

export class FileOAuthStore implements OAuthStore {
  readonly description: string;
  readonly #directory: string;
  readonly #application: { client_id: string; client_secret: string };
  readonly #now: () => number;
  #key: Uint8Array | undefined;
  #migrated: Promise<void> | undefined;
  #registrationHourSwept: string | undefined;
  #signInStatesSweptMs = 0;
  /** This process's turns at each shared lock (the places, the counts): one waits on the lock file at a time, the rest in order here. */
  readonly #turns = new Map<string, Promise<unknown>>();
  /** The places this process wrote last, and their text. */
  #lastRing: { text: string; ring: RegistrationRing } | undefined;

  constructor(options: FileOAuthStoreOptions) {
    this.#directory = options.directory;
    this.#application = options.application;
    this.#now = options.now ?? Date.now;
    this.description = `OAuth state directory ${options.directory}`;
    try {
      mkdirSync(options.directory, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new ConfigurationError(
        `The OAuth state directory ${options.directory} cannot be created: ${messageOf(error)}. Set FITNESS_OAUTH_DIR to a directory this user can create.`,
      );
    }
    checkPrivateDirectory(options.directory, {
      what: `The OAuth state directory ${options.directory}`,
      fix: `It holds the key that signs every access token: make it this user's alone (chmod 700 ${options.directory}), or set FITNESS_OAUTH_DIR to a directory of this user's own.`,
      elsewhere: "Set FITNESS_OAUTH_DIR to a directory under one of this user's own.",
      orElsewhere: "or set FITNESS_OAUTH_DIR elsewhere",
      error: (message) => new ConfigurationError(message),
    });
    for (const sub of ["athletes", "clients", "codes", "grants", "registrations", "sign-in-states"]) {
      mkdirSync(join(options.directory, sub), { recursive: true, mode: 0o700 });
    }
  }

  async countRegistration(
    source: string,
    limits: Pick<RegistrationLimits, "perSourcePerHour" | "countSlots">,
    nowMs: number,
    signal: AbortSignal,
  ): Promise<RateVerdict> {
    await this.#ready();
    const { hour, endsMs } = registrationWindow(nowMs);
    if (this.#registrationHourSwept !== hour) {
      this.#registrationHourSwept = hour;
      void this.#sweepRegistrationCounts(hour).catch(() => {});
    }
    const { slot, tag } = registrationCountSlot(await this.signingKey(), source, limits.countSlots);
    const directory = join(this.#directory, "registrations");
    // Nine bytes read and written under the lock, synchronously like the lock itself: the lock is held for
    // microseconds, not for trips through libuv's thread pool while other registrations queue behind it.
    const admitted = await this.#inTurn(join(directory, "counts.lock"), signal, () => {
      const fd = openSync(join(directory, `${hour}.counts`), constants.O_RDWR | constants.O_CREAT, 0o600);
      try {
        // Past the end of the file a slot is empty (the read finds nothing and leaves the zeros).
        const place = Buffer.alloc(countSlotBytes);
        readSync(fd, place, 0, countSlotBytes, slot * countSlotBytes);
        const count = place.subarray(0, 8).equals(tag) ? (place[8] ?? 0) : 0;
        if (count >= limits.perSourcePerHour) return Promise.resolve(false);
        tag.copy(place, 0);
        place[8] = Math.min(255, count + 1);
        writeSync(fd, place, 0, countSlotBytes, slot * countSlotBytes);
        return Promise.resolve(true);
      } finally {
        closeSync(fd);
      }
    }).catch((error: unknown) => {
      throw this.#error("count a registration in", error);
    });
    return admitted ? { admitted: true } : { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((endsMs - nowMs) / 1000)) };
  }

  async registerClient(
    client: RegisteredClient,
    placement: { source: string; capacity: number; nowMs: number },
    signal: AbortSignal,
  ): Promise<RegistrationPlacement> {
    await this.#ready();
    if (!clientIdPattern.test(client.client_id)) throw new TypeError(`not a client id of this server: ${client.client_id}`);
    return this.#withRing(signal, async () => {
      const ring = await this.#readRing();
      const newcomer = { clientId: client.client_id, source: placement.source, expiresAt: client.expires_at };
      const decision = placeInRing(ring, newcomer, placement.capacity, Math.floor(placement.nowMs / 1000));
      if (!decision.placed) return decision;
      // The record before its place: a place never names a registration that is not there.
      await this.#write(this.#clientPath(client.client_id), JSON.stringify({ ...client, unused_seq: decision.seq }), { durable: false });
      await this.#writeRing(decision.ring);
      for (const evicted of decision.evicted) {
        if (!clientIdPattern.test(evicted.clientId)) continue;
        const stored = await this.#readRecord<RegisteredClient>(this.#clientPath(evicted.clientId)).catch(() => undefined);
        if (stored?.unused_seq === evicted.seq) await rm(this.#clientPath(evicted.clientId), { force: true });
      }
      return { placed: true };
    });
  }

  async startSignIn(clientId: string, untilMs: number, signal: AbortSignal): Promise<void> {
    await this.#ready();
    if (!clientIdPattern.test(clientId)) return;
    await this.#withRing(signal, async () => {
      const stored = this.#live(await this.#readRecord<RegisteredClient>(this.#clientPath(clientId)));
      if (stored?.unused_seq === undefined || stored.sign_in_until !== undefined) return;
      const until = Math.floor(untilMs / 1000);
      const ring = startSignInInRing(await this.#readRing(), clientId, until);
      if (ring !== undefined) await this.#writeRing(ring);
      await this.#write(this.#clientPath(clientId), JSON.stringify({ ...stored, sign_in_until: until }), { durable: false });
    });
  }

  async keepClient(clientId: string, expiresAt: number, signal: AbortSignal): Promise<void> {
    await this.#ready();
    if (!clientIdPattern.test(clientId)) return;
    // Under the ring's lock: an eviction must not remove a registration that is being kept.
    await this.#withRing(signal, async () => {
      const stored = await this.#readRecord<RegisteredClient>(this.#clientPath(clientId));
      if (stored === undefined) return;
      const { unused_seq: place, sign_in_until: _signIn, ...kept } = stored;
      await this.#write(this.#clientPath(clientId), JSON.stringify({ ...kept, expires_at: expiresAt }), { durable: true });
      const ring = place === undefined ? undefined : leaveRing(await this.#readRing(), clientId);
      if (ring !== undefined) await this.#writeRing(ring);
    });
  }

  async getClient(clientId: string): Promise<RegisteredClient | undefined> {
    await this.#ready();
    if (!clientIdPattern.test(clientId)) return undefined;
    return this.#live(await this.#readRecord<RegisteredClient>(this.#clientPath(clientId)));
  }

  async spendSignInState(stateId: string, expiresAt: number): Promise<boolean> {
    await this.#ready();
    if (!signInStatePattern.test(stateId) || !Number.isSafeInteger(expiresAt)) return false;
    if (this.#now() - this.#signInStatesSweptMs >= signInStateSweepMs) {
      this.#signInStatesSweptMs = this.#now();
      void this.#sweepSignInStates().catch(() => {});
    }
    try {
      await (await open(join(this.#directory, "sign-in-states", `${expiresAt}-${stateId}`), "wx", 0o600)).close();
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw this.#error("record a used sign-in state in", error);
    }
  }

  async putCode(record: AuthorizationCodeRecord): Promise<void> {
    await this.#ready();
    await this.#write(this.#codePath(record.code_sha256), JSON.stringify(record), { durable: true });
  }

  async getCode(codeSha256: string): Promise<AuthorizationCodeRecord | undefined> {
    await this.#ready();
    if (!digestPattern.test(codeSha256)) return undefined;
    return this.#live(await this.#readRecord<AuthorizationCodeRecord>(this.#codePath(codeSha256)));
  }

  async redeemCode(codeSha256: string, grantId: string, signal: AbortSignal): Promise<CodeRedemption> {
    await this.#ready();
    if (!digestPattern.test(codeSha256)) return { redeemed: false, grantId: undefined };
    const path = this.#codePath(codeSha256);
    return withFileLock(`${path}.lock`, { signal }, async () => {
      const record = this.#live(await this.#readRecord<AuthorizationCodeRecord>(path));
      if (record === undefined) return { redeemed: false, grantId: undefined };
      if (record.redeemed_grant !== undefined) return { redeemed: false, grantId: record.redeemed_grant };
      await this.#write(path, JSON.stringify({ ...record, redeemed_grant: grantId }), { durable: true });
      return { redeemed: true };
    });
  }

  async createGrant(grant: GrantRecord): Promise<void> {
    await this.#ready();
    await this.#write(this.#grantPath(grant.grant_id), JSON.stringify(grant), { durable: true });
  }

  async getGrant(grantId: string): Promise<GrantRecord | undefined> {
    await this.#ready();
    if (!grantIdPattern.test(grantId)) return undefined;
    return this.#live(await this.#readRecord<GrantRecord>(this.#grantPath(grantId)));
  }

  async replaceGrant(next: GrantRecord, signal: AbortSignal): Promise<boolean> {
    await this.#ready();
    const path = this.#grantPath(next.grant_id);
    return withFileLock(`${path}.lock`, { signal }, async () => {
      const current = this.#live(await this.#readRecord<GrantRecord>(path));
      if (current === undefined || current.revision !== next.revision - 1) return false;
      await this.#write(path, JSON.stringify(next), { durable: true });
      return true;
    });
  }

  async deleteGrant(grantId: string, signal: AbortSignal): Promise<GrantRecord | undefined> {
    await this.#ready();
    if (!grantIdPattern.test(grantId)) return undefined;
    const path = this.#grantPath(grantId);
    return withFileLock(`${path}.lock`, { signal }, async () => {
      const grant = this.#live(await this.#readRecord<GrantRecord>(path));
      await rm(path, { force: true });
      return grant;
    });
  }

  async grantsOf(athleteId: string): Promise<GrantRecord[]> {
    await this.#ready();
    // Grants are made only for admitted athletes who signed in: a handful, whatever anonymous callers do.
    const grants: GrantRecord[] = [];
    for (const name of await this.#recordNames("grants")) {
      const grant = this.#live(await this.#readRecord<GrantRecord>(join(this.#directory, "grants", name)));
      if (grant?.athlete_id === athleteId) grants.push(grant);
    }
    return grants;
  }

  async claimOwner(athleteId: string): Promise<string> {
    await this.#ready();
    await this.#linkOnce(join(this.#directory, "owner"), athleteId);
    return (await this.owner()) ?? athleteId;
  }

  async owner(): Promise<string | undefined> {
    await this.#ready();
    return (await readOptional(join(this.#directory, "owner")))?.trim() || undefined;
  }

  async resetOwner(): Promise<void> {
    await this.#ready();
    await rm(join(this.#directory, "owner"), { force: true });
  }

  credentialStoreFor(athleteId: string): AthleteCredentialStore {
    return new ApplicationCredentials(new TokenFileStore({ path: this.#athletePath(athleteId) }), this.#application);
  }

  async hasAthlete(athleteId: string): Promise<boolean> {
    return (await readOptional(this.#athletePath(athleteId))) !== undefined;
  }

  async deleteAthlete(athleteId: string, signal: AbortSignal): Promise<void> {
    await this.#ready();
    for (const grant of await this.grantsOf(athleteId)) await this.deleteGrant(grant.grant_id, signal);
    for (const name of await this.#recordNames("codes")) {
      const path = join(this.#directory, "codes", name);
      if ((await this.#readRecord<AuthorizationCodeRecord>(path))?.athlete_id === athleteId) await rm(path, { force: true });
    }
    await rm(this.#athletePath(athleteId), { force: true });
    await rm(this.#unadmittedPath(athleteId), { force: true });
    await rm(this.#grantsEndedPath(athleteId), { force: true });
    await this.#updateSmallFile<UsageFile, void>("usage.json", signal, (usage) => {
      delete usage[athleteId];
    });
  }

  async storedAthletes(): Promise<StoredAthlete[]> {
    const names = await readdir(join(this.#directory, "athletes")).catch(() => [] as string[]);
    const athletes: StoredAthlete[] = [];
    for (const name of names) {
      const id = /^(\d{1,20})\.json$/.exec(name)?.[1];
      if (id === undefined) continue;
      const since = Number((await readOptional(this.#unadmittedPath(id)))?.trim());
      const ended = Number((await readOptional(this.#grantsEndedPath(id)))?.trim());
      athletes.push({
        athleteId: id,
        unadmittedSinceMs: Number.isFinite(since) && since > 0 ? since : undefined,
        grantsEndedAtMs: Number.isFinite(ended) && ended > 0 ? ended : undefined,
      });
    }
    return athletes;
  }

  async markUnadmitted(athleteId: string, sinceMs: number): Promise<number> {
    await this.#linkOnce(this.#unadmittedPath(athleteId), String(sinceMs));
    return Number((await readOptional(this.#unadmittedPath(athleteId)))?.trim()) || sinceMs;
  }

  async clearUnadmitted(athleteId: string): Promise<void> {
    await rm(this.#unadmittedPath(athleteId), { force: true });
  }

  async markGrantsEnded(athleteId: string, atMs: number): Promise<void> {
    await this.#write(this.#grantsEndedPath(athleteId), String(atMs), { durable: true });
  }

  async clearGrantsEnded(athleteId: string): Promise<void> {
    await rm(this.#grantsEndedPath(athleteId), { force: true });
  }

  async countUpstreamRequest(
    athleteId: string,
    read: boolean,
    share: FairShare,
    nowMs: number,
    signal: AbortSignal,
  ): Promise<FairShareVerdict> {
    const { day, quarter } = fairShareWindows(nowMs);
    return this.#updateSmallFile<UsageFile, FairShareVerdict>("usage.json", signal, (counts) => {
      // Counts of other days are dropped: the day of the request counted, so counting and pruning read one clock.
      for (const [athlete, usage] of Object.entries(counts)) if (usage.day !== day) delete counts[athlete];
      const usage = counts[athleteId] ?? { day, ...emptyUsage() };
      const verdict = countInto(usage, quarter, read, share);
      counts[athleteId] = usage;
      return verdict;
    });
  }

  async claimDeauthorizationCheck(athleteId: string, dailyLimit: number, nowMs: number, signal: AbortSignal): Promise<boolean> {
    const { day, quarter } = fairShareWindows(nowMs);
    return this.#updateSmallFile<DeauthorizationChecks, boolean>("deauthorization-checks.json", signal, (checks) => {
      for (const [athlete, entry] of Object.entries(checks)) if (entry.day !== day) delete checks[athlete];
      const entry = checks[athleteId] ?? { day, quarters: [] };
      if (entry.quarters.includes(quarter) || entry.quarters.length >= dailyLimit) return false;
      entry.quarters.push(quarter);
      checks[athleteId] = entry;
      return true;
    });
  }

  async sweepExpired(): Promise<void> {
    await this.#ready();
    for (const kind of ["clients", "codes", "grants"] as const) {
      for (const name of await this.#recordNames(kind)) {
        const path = join(this.#directory, kind, name);
        const record = await this.#readRecord<{ expires_at: number }>(path).catch(() => undefined);
        if (record !== undefined && this.#live(record) === undefined) await rm(path, { force: true });
      }
    }
    await this.#sweepRegistrationCounts(registrationWindow(this.#now()).hour);
    await this.#sweepSignInStates();
    // Left by an earlier version, whose places were a file each: its registrations expire by themselves.
    await rm(join(this.#directory, "clients", "ring"), { recursive: true, force: true });
    await rm(join(this.#directory, "clients", "sequence"), { force: true });
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
    if (this.#key.length < 32)
      throw new CredentialStoreError(`The signing key in ${path} is shorter than 32 bytes; delete the file to have a new one made.`);
    return this.#key;
  }

  /** Runs `work` holding the places' lock, after this process's earlier turns. */
  #withRing<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    return this.#inTurn(join(this.#directory, "clients", "ring.lock"), signal, work);
  }

  /** Runs `work` holding the lock file at `lockPath`, after this process's earlier turns at it. */
  #inTurn<T>(lockPath: string, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const turn = (this.#turns.get(lockPath) ?? Promise.resolve()).then(() => withFileLock(lockPath, { signal }, work));
    this.#turns.set(
      lockPath,
      turn.catch(() => {}),
    );
    return turn;
  }

  #ringPath(): string {
    return join(this.#directory, "clients", "ring.index");
  }

  /** The places as the file holds them (under the places' lock); parsed again only when another process changed them. */
  async #readRing(): Promise<RegistrationRing> {
    const text = await readOptional(this.#ringPath());
    if (this.#lastRing !== undefined && text === this.#lastRing.text) return this.#lastRing.ring;
    return parseRing(text);
  }

  async #writeRing(ring: RegistrationRing): Promise<void> {
    const text = serializeRing(ring);
    await this.#write(this.#ringPath(), text, { durable: false });
    this.#lastRing = { text, ring };
  }

  #clientPath(clientId: string): string {
    return join(this.#directory, "clients", `${clientId}.json`);
  }

  #codePath(codeSha256: string): string {
    if (!digestPattern.test(codeSha256)) throw new TypeError("not a code digest");
    return join(this.#directory, "codes", `${codeSha256}.json`);
  }

  #grantPath(grantId: string): string {
    if (!grantIdPattern.test(grantId)) throw new TypeError(`not a grant id: ${grantId}`);
    return join(this.#directory, "grants", `${grantId}.json`);
  }

  #athletePath(athleteId: string): string {
    if (!athleteIdPattern.test(athleteId)) throw new TypeError(`not a Strava athlete id: ${athleteId}`);
    return join(this.#directory, "athletes", `${athleteId}.json`);
  }

  #unadmittedPath(athleteId: string): string {
    if (!athleteIdPattern.test(athleteId)) throw new TypeError(`not a Strava athlete id: ${athleteId}`);
    return join(this.#directory, "athletes", `${athleteId}.unadmitted`);
  }

  #grantsEndedPath(athleteId: string): string {
    if (!athleteIdPattern.test(athleteId)) throw new TypeError(`not a Strava athlete id: ${athleteId}`);
    return join(this.#directory, "athletes", `${athleteId}.grants-ended`);
  }

  #live<T extends { expires_at: number }>(record: T | undefined): T | undefined {
    return record !== undefined && record.expires_at * 1000 > this.#now() ? record : undefined;
  }

  /** The record files of a kind (not the ring, locks or temporary files). */
  async #recordNames(kind: "clients" | "codes" | "grants"): Promise<string[]> {
    return (await readdir(join(this.#directory, kind))).filter((name) => name.endsWith(".json") && !name.includes(".tmp"));
  }

  async #readRecord<T>(path: string): Promise<T | undefined> {
    const text = await readOptional(path).catch((error: unknown) => {
      throw this.#error("read", error);
    });
    if (text === undefined) return undefined;
    const record = parseJson<T>(text);
    if (record === undefined)
      throw new CredentialStoreError(`${path} is not valid JSON; delete it (the client it belongs to then signs in again).`);
    return record;
  }

  /** Writes `text` to `path` whole (a temporary file renamed into place), flushed to the disk when `durable`. */
  async #write(path: string, text: string, options: { durable: boolean }): Promise<void> {
    const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      const handle = await open(temporary, "wx", 0o600);
      try {
        await handle.writeFile(text);
        if (options.durable) await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, path);
      if (options.durable) syncDirectory(join(path, ".."));
    } catch (error) {
      await rm(temporary, { force: true });
      throw this.#error("write", error);
    }
  }

  /** Creates `path` holding `text` unless it exists: of several processes, the first to link wins. */
  async #linkOnce(path: string, text: string): Promise<void> {
    const candidate = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    writeDurably(candidate, text);
    try {
      await link(candidate, path);
      syncDirectory(join(path, ".."));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw this.#error("write", error);
    } finally {
      await unlink(candidate).catch(() => {});
    }
  }

  /** A small JSON file of the admitted athletes' counts: read, changed and written under its own lock. */
  async #updateSmallFile<F extends object, T>(name: string, signal: AbortSignal, change: (file: F) => T): Promise<T> {
    const path = join(this.#directory, name);
    return withFileLock(`${path}.lock`, { signal }, async () => {
      // Absent or unreadable: counting starts again (a share is a budget, not a record).
      const file = parseJson<F>(await readOptional(path).catch(() => undefined)) ?? ({} as F);
      const result = change(file);
      await this.#write(path, JSON.stringify(file), { durable: false });
      return result;
    });
  }

  async #sweepRegistrationCounts(currentHour: string): Promise<void> {
    const directory = join(this.#directory, "registrations");
    for (const name of await readdir(directory)) {
      // `<hour>.counts`, and `<hour>-<digest>` of an earlier version (a file per source).
      const hour = /^(\d+)[-.]/.exec(name)?.[1];
      if (hour !== undefined && Number(hour) < Number(currentHour)) await rm(join(directory, name), { force: true });
    }
  }

  async #sweepSignInStates(): Promise<void> {
    const directory = join(this.#directory, "sign-in-states");
    const nowSeconds = this.#now() / 1000;
    for (const name of await readdir(directory)) {
      const expiresAt = Number(/^(\d+)-/.exec(name)?.[1]);
      if (Number.isFinite(expiresAt) && expiresAt < nowSeconds) await rm(join(directory, name), { force: true });
    }
  }

  /** Splits a state file of an earlier version into record files, once, under its lock. */
  #ready(): Promise<void> {
    this.#migrated ??= this.#migrateLegacyState().catch((error: unknown) => {
      this.#migrated = undefined;
      throw error;
    });
    return this.#migrated;
  }

  async #migrateLegacyState(): Promise<void> {
    const statePath = join(this.#directory, "state.json");
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
        if (this.#live(record) !== undefined && (await readOptional(path)) === undefined)
          await this.#write(path, JSON.stringify(record), { durable: true });
      };
      for (const client of Object.values(state.clients ?? {}))
        if (clientIdPattern.test(client.client_id)) await copy(this.#clientPath(client.client_id), client);
      for (const code of Object.values(state.codes ?? {}))
        if (digestPattern.test(code.code_sha256)) await copy(this.#codePath(code.code_sha256), code);
      for (const grant of Object.values(state.grants ?? {}))
        if (grantIdPattern.test(grant.grant_id)) await copy(this.#grantPath(grant.grant_id), grant);
      if (state.owner !== undefined && athleteIdPattern.test(state.owner))
        await this.#linkOnce(join(this.#directory, "owner"), state.owner);
      await rename(statePath, `${statePath}.migrated`);
      syncDirectory(this.#directory);
    });
  }

  #error(action: string, error: unknown): CredentialStoreError {
    if (error instanceof CredentialStoreError) return error;
    return new CredentialStoreError(`Could not ${action} the ${this.description}: ${messageOf(error)}`);
  }
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function parseJson<T>(text: string | undefined): T | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
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
        ? {
            saved: true,
            snapshot: { credentials: { ...outcome.snapshot.credentials, ...this.#application }, version: outcome.snapshot.version },
          }
        : {
            saved: false,
            current: { credentials: { ...outcome.current.credentials, ...this.#application }, version: outcome.current.version },
          },
    );
  }

  writeAuthorization(credentials: Required<StoredCredentials>, signal: AbortSignal): Promise<void> {
    return this.#inner.writeAuthorization({ ...credentials, ...this.#application }, signal);
  }
}
