/**
 * The signing key in the state directory's `signing-key` (base64url, 32 random bytes), made by the first process
 * that needs it: of several processes making one at once, the first to link its file into place wins, and every
 * process reads that one.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { CredentialStoreError } from "../../credentials/credential-store.ts";
import { createFileDurablySync } from "../../common/durable-file.ts";
import type { StateDirectory } from "./state-directory.ts";
import type { SigningKeyStore } from "./signing-key-store.ts";

export class FileSigningKey implements SigningKeyStore {
  readonly description: string;
  readonly #directory: StateDirectory;
  #key: Uint8Array | undefined;

  constructor(directory: StateDirectory) {
    this.#directory = directory;
    this.description = `signing key in the ${directory.description}`;
  }

  async signingKey(): Promise<Uint8Array> {
    if (this.#key) return this.#key;
    const path = this.#directory.file("signing-key");
    try {
      this.#key = Buffer.from(readFileSync(path, "utf8").trim(), "base64url");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw this.#directory.error("read the signing key", error);
      try {
        // False when another process made one first: then theirs is the key.
        createFileDurablySync(path, randomBytes(32).toString("base64url"));
      } catch (createError) {
        throw this.#directory.error("create the signing key", createError);
      }
      this.#key = Buffer.from(readFileSync(path, "utf8").trim(), "base64url");
    }
    if (this.#key.length < 32)
      throw new CredentialStoreError(`The signing key in ${path} is shorter than 32 bytes; delete the file to have a new one made.`);
    return this.#key;
  }
}
