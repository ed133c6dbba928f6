/**
 * Credentials held in memory only: for the embedded sandbox, whose tokens die with the process
 * anyway, so nothing is written to the user's real token file.
 */
import type { CredentialStore, StoredCredentials } from "../tools/credentials.ts";

export class MemoryCredentialStore implements CredentialStore {
  readonly description: string;
  #credentials: StoredCredentials;

  constructor(initial: StoredCredentials, description = "in-memory credentials") {
    this.#credentials = { ...initial };
    this.description = description;
  }

  async load(): Promise<StoredCredentials> {
    return { ...this.#credentials };
  }

  async save(update: Partial<StoredCredentials>): Promise<void> {
    this.#credentials = { ...this.#credentials, ...update };
  }
}
