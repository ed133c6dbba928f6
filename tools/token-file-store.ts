/**
 * Credentials in a local JSON file: readable and writable by the owner only (mode 0600), replaced
 * atomically (write a temporary file beside it, flush, rename) so a crash mid-write never leaves a
 * half-written file and loses the only working refresh token.
 */
import { chmod, mkdir, open, readFile, rename, unlink } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { CredentialStoreError, parseStoredCredentials, type CredentialStore, type StoredCredentials } from "./credentials.ts";

/** `FITNESS_TOKEN_FILE`, else `$XDG_CONFIG_HOME/openclaw-fitness/strava-tokens.json` (~/.config by default). */
export function defaultTokenFilePath(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env["FITNESS_TOKEN_FILE"]?.trim();
  if (explicit) return explicit;
  const configHome = env["XDG_CONFIG_HOME"]?.trim() || join(homedir(), ".config");
  return join(configHome, "openclaw-fitness", "strava-tokens.json");
}

export class TokenFileStore implements CredentialStore {
  readonly path: string;
  readonly description: string;
  /** Saves run one after another so two refreshes never interleave their read-merge-write. */
  #writes: Promise<void> = Promise.resolve();

  constructor(options: { path: string }) {
    this.path = options.path;
    this.description = `token file ${options.path}`;
  }

  async load(): Promise<StoredCredentials> {
    const contents = await this.read();
    if (contents === undefined) {
      throw new CredentialStoreError(
        `The ${this.description} does not exist. Run npm run authorize -- --store file to create it, or set STRAVA_CLIENT_ID, STRAVA_CLIENT_SECRET and STRAVA_REFRESH_TOKEN.`,
      );
    }
    return parseStoredCredentials(contents, `The ${this.description}`);
  }

  /** The file's JSON object as stored (any fields), or undefined when there is no file. */
  async read(): Promise<Record<string, unknown> | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new CredentialStoreError(`Could not read the ${this.description}: ${(error as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new CredentialStoreError(`The ${this.description} is not valid JSON. Fix or delete it, then authorize again (npm run authorize -- --store file).`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new CredentialStoreError(`The ${this.description} must hold a JSON object.`);
    }
    return parsed as Record<string, unknown>;
  }

  save(update: Record<string, unknown>): Promise<void> {
    const write = this.#writes.then(() => this.#merge(update));
    this.#writes = write.catch(() => {});
    return write;
  }

  async #merge(update: Record<string, unknown>): Promise<void> {
    let current: Record<string, unknown> = {};
    try {
      current = (await this.read()) ?? {};
    } catch {
      // An unreadable old file must not block saving new tokens: they replace it.
    }
    const next = { ...current, ...update, updated_at: new Date().toISOString() };
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      const handle = await open(temporary, "wx", 0o600);
      try {
        await handle.writeFile(`${JSON.stringify(next, null, 2)}\n`, "utf8");
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, this.path);
      // rename keeps the temporary file's 0600; chmod covers a umask that stripped nothing but a
      // pre-existing file created by hand with wider permissions is replaced, not reused.
      await chmod(this.path, 0o600);
    } catch (error) {
      await unlink(temporary).catch(() => {});
      throw new CredentialStoreError(`Could not write the ${this.description}: ${(error as Error).message}`);
    }
  }
}
