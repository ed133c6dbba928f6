/**
 * Registrations on local files (state-directory.ts says where): a file per registration, the unused ones'
 * places in `clients/ring.index` under `clients/ring.lock`, and an hour's registration counts in one
 * fixed-size file under `registrations/counts.lock`.
 */
import { closeSync, constants, openSync, readSync, writeSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { clientIdPattern, readOptional, type StateDirectory } from "./state-directory.ts";
import {
  refusedUntilHourEnds,
  registrationWindow,
  type CountSlot,
  type RateVerdict,
  type RegisteredClient,
  type RegistrationPlacement,
  type RegistrationStore,
} from "./registration-store.ts";
import { leaveRing, parseRing, placeInRing, serializeRing, startSignInInRing, type RegistrationRing } from "./registration-ring.ts";

/** A registration count's slot in `registrations/<hour>.counts`: the source's 8-byte tag, then its count. */
const countSlotBytes = 9;

export class FileRegistrationStore implements RegistrationStore {
  readonly description: string;
  readonly #directory: StateDirectory;
  #registrationHourSwept: string | undefined;
  /** The places this process wrote last, and their text. */
  #lastRing: { text: string; ring: RegistrationRing } | undefined;

  constructor(directory: StateDirectory) {
    this.#directory = directory;
    this.description = directory.description;
  }

  async countRegistration(place: CountSlot, perSourcePerHour: number, nowMs: number, signal: AbortSignal): Promise<RateVerdict> {
    await this.#directory.ready();
    const { hour } = registrationWindow(nowMs);
    if (this.#registrationHourSwept !== hour) {
      this.#registrationHourSwept = hour;
      void this.#sweepCounts(hour).catch(() => {});
    }
    const { slot, tag } = place;
    // Nine bytes read and written under the lock, synchronously like the lock itself: the lock is held for
    // microseconds, not for trips through libuv's thread pool while other registrations queue behind it.
    const admitted = await this.#directory
      .inTurn(this.#directory.file("registrations", "counts.lock"), signal, () => {
        const fd = openSync(this.#directory.file("registrations", `${hour}.counts`), constants.O_RDWR | constants.O_CREAT, 0o600);
        try {
          // Past the end of the file a slot is empty (the read finds nothing and leaves the zeros).
          const stored = Buffer.alloc(countSlotBytes);
          readSync(fd, stored, 0, countSlotBytes, slot * countSlotBytes);
          const count = stored.subarray(0, 8).equals(tag) ? (stored[8] ?? 0) : 0;
          if (count >= perSourcePerHour) return Promise.resolve(false);
          tag.copy(stored, 0);
          stored[8] = Math.min(255, count + 1);
          writeSync(fd, stored, 0, countSlotBytes, slot * countSlotBytes);
          return Promise.resolve(true);
        } finally {
          closeSync(fd);
        }
      })
      .catch((error: unknown) => {
        throw this.#directory.error("count a registration in", error);
      });
    return admitted ? { admitted: true } : refusedUntilHourEnds(nowMs);
  }

  async registerClient(
    client: RegisteredClient,
    placement: { source: string; capacity: number; nowMs: number },
    signal: AbortSignal,
  ): Promise<RegistrationPlacement> {
    await this.#directory.ready();
    if (!clientIdPattern.test(client.client_id)) throw new TypeError(`not a client id of this server: ${client.client_id}`);
    return this.#withRing(signal, async () => {
      const ring = await this.#readRing();
      const newcomer = { clientId: client.client_id, source: placement.source, expiresAt: client.expires_at };
      const decision = placeInRing(ring, newcomer, placement.capacity, Math.floor(placement.nowMs / 1000));
      if (!decision.placed) return decision;
      // The record before its place: a place never names a registration that is not there.
      await this.#directory.write(this.#directory.clientPath(client.client_id), JSON.stringify({ ...client, unused_seq: decision.seq }), {
        durable: false,
      });
      await this.#writeRing(decision.ring);
      for (const evicted of decision.evicted) {
        if (!clientIdPattern.test(evicted.clientId)) continue;
        const path = this.#directory.clientPath(evicted.clientId);
        const stored = await this.#directory.readRecord<RegisteredClient>(path).catch(() => undefined);
        if (stored?.unused_seq === evicted.seq) await rm(path, { force: true });
      }
      return { placed: true };
    });
  }

  async startSignIn(clientId: string, untilMs: number, signal: AbortSignal): Promise<void> {
    await this.#directory.ready();
    if (!clientIdPattern.test(clientId)) return;
    const path = this.#directory.clientPath(clientId);
    await this.#withRing(signal, async () => {
      const stored = this.#directory.live(await this.#directory.readRecord<RegisteredClient>(path));
      if (stored?.unused_seq === undefined || stored.sign_in_until !== undefined) return;
      const until = Math.floor(untilMs / 1000);
      const ring = startSignInInRing(await this.#readRing(), clientId, until);
      if (ring !== undefined) await this.#writeRing(ring);
      await this.#directory.write(path, JSON.stringify({ ...stored, sign_in_until: until }), { durable: false });
    });
  }

  async keepClient(clientId: string, expiresAt: number, signal: AbortSignal): Promise<void> {
    await this.#directory.ready();
    if (!clientIdPattern.test(clientId)) return;
    const path = this.#directory.clientPath(clientId);
    // Under the ring's lock: an eviction must not remove a registration that is being kept.
    await this.#withRing(signal, async () => {
      const stored = await this.#directory.readRecord<RegisteredClient>(path);
      if (stored === undefined) return;
      const { unused_seq: place, sign_in_until: _signIn, ...kept } = stored;
      await this.#directory.write(path, JSON.stringify({ ...kept, expires_at: expiresAt }), { durable: true });
      const ring = place === undefined ? undefined : leaveRing(await this.#readRing(), clientId);
      if (ring !== undefined) await this.#writeRing(ring);
    });
  }

  async getClient(clientId: string): Promise<RegisteredClient | undefined> {
    await this.#directory.ready();
    if (!clientIdPattern.test(clientId)) return undefined;
    return this.#directory.live(await this.#directory.readRecord<RegisteredClient>(this.#directory.clientPath(clientId)));
  }

  /** Removes expired registrations and the counts of past hours. */
  async sweepExpired(): Promise<void> {
    await this.#directory.ready();
    for (const name of await this.#directory.recordNames("clients")) {
      const path = this.#directory.file("clients", name);
      const record = await this.#directory.readRecord<{ expires_at: number }>(path).catch(() => undefined);
      if (record !== undefined && this.#directory.live(record) === undefined) await rm(path, { force: true });
    }
    await this.#sweepCounts(registrationWindow(this.#directory.now()).hour);
    // Left by an earlier version, whose places were a file each: its registrations expire by themselves.
    await rm(this.#directory.file("clients", "ring"), { recursive: true, force: true });
    await rm(this.#directory.file("clients", "sequence"), { force: true });
  }

  /** Runs `work` holding the places' lock, after this process's earlier turns. */
  #withRing<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    return this.#directory.inTurn(this.#directory.file("clients", "ring.lock"), signal, work);
  }

  /** The places as the file holds them (under the places' lock); parsed again only when another process changed them. */
  async #readRing(): Promise<RegistrationRing> {
    const text = await readOptional(this.#directory.file("clients", "ring.index"));
    if (this.#lastRing !== undefined && text === this.#lastRing.text) return this.#lastRing.ring;
    return parseRing(text);
  }

  async #writeRing(ring: RegistrationRing): Promise<void> {
    const text = serializeRing(ring);
    await this.#directory.write(this.#directory.file("clients", "ring.index"), text, { durable: false });
    this.#lastRing = { text, ring };
  }

  async #sweepCounts(currentHour: string): Promise<void> {
    const directory = this.#directory.file("registrations");
    for (const name of await readdir(directory)) {
      // `<hour>.counts`, and `<hour>-<digest>` of an earlier version (a file per source).
      const hour = /^(\d+)[-.]/.exec(name)?.[1];
      if (hour !== undefined && Number(hour) < Number(currentHour)) await rm(this.#directory.file("registrations", name), { force: true });
    }
  }
}
