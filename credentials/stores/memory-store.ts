/**
 * Credentials held in memory only: for the embedded sandbox, whose tokens die with the process anyway,
 * so nothing is written to the user's real token file. Compare-and-swap on a counter, like the others.
 */
import type { CredentialSnapshot, CredentialStore, SaveOutcome, StoredCredentials, TokenSet } from "../credential-store.ts";

class MemoryVersion {
  readonly generation: number;
  constructor(generation: number) {
    this.generation = generation;
  }
}

export class MemoryCredentialStore implements CredentialStore {
  readonly description: string;
  #credentials: StoredCredentials;
  #generation = 0;

  constructor(initial: StoredCredentials, description = "in-memory credentials") {
    this.#credentials = { ...initial };
    this.description = description;
  }

  async load(): Promise<CredentialSnapshot> {
    return this.#snapshot();
  }

  async saveTokens(expected: CredentialSnapshot, tokens: TokenSet): Promise<SaveOutcome> {
    if (!(expected.version instanceof MemoryVersion)) throw new TypeError("saveTokens was given a snapshot of another store");
    if (expected.version.generation !== this.#generation) return { saved: false, current: this.#snapshot() };
    this.#credentials = { ...this.#credentials, ...tokens };
    this.#generation += 1;
    return { saved: true, snapshot: this.#snapshot() };
  }

  #snapshot(): CredentialSnapshot {
    return { credentials: { ...this.#credentials }, version: new MemoryVersion(this.#generation) };
  }
}
