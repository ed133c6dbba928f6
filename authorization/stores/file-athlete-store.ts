/**
 * Athletes and admission on local files (state-directory.ts says where): the stored athletes are the token
 * files in `athletes/`, the owner a file made once, each mark a small file beside the athlete's tokens.
 */
import { readdir, rm } from "node:fs/promises";
import type { AthleteCredentialsDescription } from "../../credentials/store-choice.ts";
import { athleteTokenFilePath, type ApplicationCredentials } from "../../credentials/stores/athlete-token-file.ts";
import { athleteIdPattern, readOptional, type StateDirectory } from "./state-directory.ts";
import type { AthleteStore, StoredAthlete } from "./athlete-store.ts";

export class FileAthleteStore implements AthleteStore {
  readonly description: string;
  readonly #directory: StateDirectory;
  readonly #application: ApplicationCredentials;

  constructor(directory: StateDirectory, application: ApplicationCredentials) {
    this.#directory = directory;
    this.#application = application;
    this.description = directory.description;
  }

  credentialsOf(athleteId: string): AthleteCredentialsDescription {
    return { kind: "athlete-file", directory: this.#directory.path, athleteId, application: this.#application };
  }

  async recordStored(): Promise<void> {
    // The stored athletes are the token files themselves.
  }

  async hasAthlete(athleteId: string): Promise<boolean> {
    return (await readOptional(this.#tokensPath(athleteId))) !== undefined;
  }

  async storedAthletes(): Promise<StoredAthlete[]> {
    const names = await readdir(this.#directory.file("athletes")).catch(() => [] as string[]);
    const athletes: StoredAthlete[] = [];
    for (const name of names) {
      const id = /^(\d{1,20})\.json$/.exec(name)?.[1];
      if (id === undefined) continue;
      const since = Number((await readOptional(this.#markPath(id, "unadmitted")))?.trim());
      const ended = Number((await readOptional(this.#markPath(id, "grants-ended")))?.trim());
      athletes.push({
        athleteId: id,
        unadmittedSinceMs: Number.isFinite(since) && since > 0 ? since : undefined,
        grantsEndedAtMs: Number.isFinite(ended) && ended > 0 ? ended : undefined,
      });
    }
    return athletes;
  }

  async claimOwner(athleteId: string): Promise<string> {
    await this.#directory.ready();
    await this.#directory.linkOnce(this.#directory.file("owner"), athleteId);
    return (await this.owner()) ?? athleteId;
  }

  async owner(): Promise<string | undefined> {
    await this.#directory.ready();
    return (await readOptional(this.#directory.file("owner")))?.trim() || undefined;
  }

  async resetOwner(): Promise<void> {
    await this.#directory.ready();
    await rm(this.#directory.file("owner"), { force: true });
  }

  async markUnadmitted(athleteId: string, sinceMs: number): Promise<number> {
    await this.#directory.linkOnce(this.#markPath(athleteId, "unadmitted"), String(sinceMs));
    return Number((await readOptional(this.#markPath(athleteId, "unadmitted")))?.trim()) || sinceMs;
  }

  async clearUnadmitted(athleteId: string): Promise<void> {
    await rm(this.#markPath(athleteId, "unadmitted"), { force: true });
  }

  async markGrantsEnded(athleteId: string, atMs: number): Promise<void> {
    await this.#directory.write(this.#markPath(athleteId, "grants-ended"), String(atMs), { durable: true });
  }

  async clearGrantsEnded(athleteId: string): Promise<void> {
    await rm(this.#markPath(athleteId, "grants-ended"), { force: true });
  }

  async forgetAthlete(athleteId: string): Promise<void> {
    await this.#directory.ready();
    await rm(this.#tokensPath(athleteId), { force: true });
    await rm(this.#markPath(athleteId, "unadmitted"), { force: true });
    await rm(this.#markPath(athleteId, "grants-ended"), { force: true });
  }

  #tokensPath(athleteId: string): string {
    return athleteTokenFilePath(this.#directory.path, athleteId);
  }

  #markPath(athleteId: string, mark: "unadmitted" | "grants-ended"): string {
    if (!athleteIdPattern.test(athleteId)) throw new TypeError(`not a Strava athlete id: ${athleteId}`);
    return this.#directory.file("athletes", `${athleteId}.${mark}`);
  }
}
