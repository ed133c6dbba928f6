/**
 * Sign-in states, codes and grants on local files (state-directory.ts says where): a used sign-in state is an
 * empty file made with O_EXCL, codes and grants a file each, changed under a lock file of their own.
 */
import { open, readdir, rm } from "node:fs/promises";
import { withFileLock } from "../../common/file-lock.ts";
import { digestPattern, grantIdPattern, type StateDirectory } from "./state-directory.ts";
import type { AuthorizationCodeRecord, CodeRedemption, GrantRecord, GrantStore } from "./grant-store.ts";

const signInStatePattern = /^[A-Za-z0-9_-]{22}$/;

/** How often a long-running process clears the used sign-in states that expired (besides the sweep at start). */
const signInStateSweepMs = 15 * 60_000;

export class FileGrantStore implements GrantStore {
  readonly description: string;
  readonly #directory: StateDirectory;
  #signInStatesSweptMs = 0;

  constructor(directory: StateDirectory) {
    this.#directory = directory;
    this.description = directory.description;
  }

  async spendSignInState(stateId: string, expiresAt: number): Promise<boolean> {
    await this.#directory.ready();
    if (!signInStatePattern.test(stateId) || !Number.isSafeInteger(expiresAt)) return false;
    if (this.#directory.now() - this.#signInStatesSweptMs >= signInStateSweepMs) {
      this.#signInStatesSweptMs = this.#directory.now();
      void this.#sweepSignInStates().catch(() => {});
    }
    try {
      await (await open(this.#directory.file("sign-in-states", `${expiresAt}-${stateId}`), "wx", 0o600)).close();
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw this.#directory.error("record a used sign-in state in", error);
    }
  }

  async putCode(record: AuthorizationCodeRecord): Promise<void> {
    await this.#directory.ready();
    await this.#directory.write(this.#directory.codePath(record.code_sha256), JSON.stringify(record), { durable: true });
  }

  async getCode(codeSha256: string): Promise<AuthorizationCodeRecord | undefined> {
    await this.#directory.ready();
    if (!digestPattern.test(codeSha256)) return undefined;
    return this.#directory.live(await this.#directory.readRecord<AuthorizationCodeRecord>(this.#directory.codePath(codeSha256)));
  }

  async redeemCode(codeSha256: string, grantId: string, signal: AbortSignal): Promise<CodeRedemption> {
    await this.#directory.ready();
    if (!digestPattern.test(codeSha256)) return { redeemed: false, grantId: undefined };
    const path = this.#directory.codePath(codeSha256);
    return withFileLock(`${path}.lock`, { signal }, async () => {
      const record = this.#directory.live(await this.#directory.readRecord<AuthorizationCodeRecord>(path));
      if (record === undefined) return { redeemed: false, grantId: undefined };
      if (record.redeemed_grant !== undefined) return { redeemed: false, grantId: record.redeemed_grant };
      await this.#directory.write(path, JSON.stringify({ ...record, redeemed_grant: grantId }), { durable: true });
      return { redeemed: true };
    });
  }

  async createGrant(grant: GrantRecord): Promise<void> {
    await this.#directory.ready();
    await this.#directory.write(this.#directory.grantPath(grant.grant_id), JSON.stringify(grant), { durable: true });
  }

  async getGrant(grantId: string): Promise<GrantRecord | undefined> {
    await this.#directory.ready();
    if (!grantIdPattern.test(grantId)) return undefined;
    return this.#directory.live(await this.#directory.readRecord<GrantRecord>(this.#directory.grantPath(grantId)));
  }

  async replaceGrant(next: GrantRecord, signal: AbortSignal): Promise<boolean> {
    await this.#directory.ready();
    const path = this.#directory.grantPath(next.grant_id);
    return withFileLock(`${path}.lock`, { signal }, async () => {
      const current = this.#directory.live(await this.#directory.readRecord<GrantRecord>(path));
      if (current === undefined || current.revision !== next.revision - 1) return false;
      await this.#directory.write(path, JSON.stringify(next), { durable: true });
      return true;
    });
  }

  async deleteGrant(grantId: string, signal: AbortSignal): Promise<GrantRecord | undefined> {
    await this.#directory.ready();
    if (!grantIdPattern.test(grantId)) return undefined;
    const path = this.#directory.grantPath(grantId);
    return withFileLock(`${path}.lock`, { signal }, async () => {
      const grant = this.#directory.live(await this.#directory.readRecord<GrantRecord>(path));
      await rm(path, { force: true });
      return grant;
    });
  }

  async grantsOf(athleteId: string): Promise<GrantRecord[]> {
    await this.#directory.ready();
    // Grants are made only for admitted athletes who signed in: a handful, whatever anonymous callers do.
    const grants: GrantRecord[] = [];
    for (const name of await this.#directory.recordNames("grants")) {
      const grant = this.#directory.live(await this.#directory.readRecord<GrantRecord>(this.#directory.file("grants", name)));
      if (grant?.athlete_id === athleteId) grants.push(grant);
    }
    return grants;
  }

  async forgetAthlete(athleteId: string, signal: AbortSignal): Promise<void> {
    for (const grant of await this.grantsOf(athleteId)) await this.deleteGrant(grant.grant_id, signal);
    for (const name of await this.#directory.recordNames("codes")) {
      const path = this.#directory.file("codes", name);
      if ((await this.#directory.readRecord<AuthorizationCodeRecord>(path))?.athlete_id === athleteId) await rm(path, { force: true });
    }
  }

  /** Removes expired codes, grants and used sign-in states. */
  async sweepExpired(): Promise<void> {
    await this.#directory.ready();
    for (const kind of ["codes", "grants"] as const) {
      for (const name of await this.#directory.recordNames(kind)) {
        const path = this.#directory.file(kind, name);
        const record = await this.#directory.readRecord<{ expires_at: number }>(path).catch(() => undefined);
        if (record !== undefined && this.#directory.live(record) === undefined) await rm(path, { force: true });
      }
    }
    await this.#sweepSignInStates();
  }

  async #sweepSignInStates(): Promise<void> {
    const directory = this.#directory.file("sign-in-states");
    const nowSeconds = this.#directory.now() / 1000;
    for (const name of await readdir(directory)) {
      const expiresAt = Number(/^(\d+)-/.exec(name)?.[1]);
      if (Number.isFinite(expiresAt) && expiresAt < nowSeconds) await rm(this.#directory.file("sign-in-states", name), { force: true });
    }
  }
}
