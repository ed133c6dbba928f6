/**
 * Form A's credentials: the three STRAVA_* environment variables are the source, and every token
 * refresh is persisted to a token file (Strava rotates refresh tokens: the one in the environment
 * stops working after the first rotation, so the rotated one must survive a restart).
 *
 * The file remembers a hash of the environment's refresh token it descends from. When the operator
 * puts a new refresh token in the environment (after authorizing again), the hashes differ and the
 * environment wins over the older stored tokens.
 */
import { createHash } from "node:crypto";
import { CredentialStoreError, type CredentialStore, type StoredCredentials } from "./credentials.ts";
import type { TokenFileStore } from "./token-file-store.ts";

export const stravaEnvNames = ["STRAVA_CLIENT_ID", "STRAVA_CLIENT_SECRET", "STRAVA_REFRESH_TOKEN"] as const;

/** Which of the three variables are unset or empty. */
export function missingStravaEnv(env: NodeJS.ProcessEnv): string[] {
  return stravaEnvNames.filter((name) => !env[name]?.trim());
}

export class EnvCredentialStore implements CredentialStore {
  readonly description: string;
  readonly #clientId: string;
  readonly #clientSecret: string;
  readonly #refreshToken: string;
  readonly #refreshTokenHash: string;
  readonly #file: TokenFileStore;

  constructor(options: { env: NodeJS.ProcessEnv; file: TokenFileStore }) {
    const missing = missingStravaEnv(options.env);
    if (missing.length > 0) {
      throw new CredentialStoreError(`Set ${missing.join(", ")} (all three of ${stravaEnvNames.join(", ")} are needed for Strava).`);
    }
    this.#clientId = options.env["STRAVA_CLIENT_ID"]!.trim();
    this.#clientSecret = options.env["STRAVA_CLIENT_SECRET"]!.trim();
    this.#refreshToken = options.env["STRAVA_REFRESH_TOKEN"]!.trim();
    this.#refreshTokenHash = sha256(this.#refreshToken);
    this.#file = options.file;
    this.description = `STRAVA_* environment variables (rotated tokens kept in ${options.file.path})`;
  }

  async load(): Promise<StoredCredentials> {
    const base: StoredCredentials = {
      client_id: this.#clientId,
      client_secret: this.#clientSecret,
      refresh_token: this.#refreshToken,
    };
    const stored = await this.#file.read();
    if (!stored || stored["env_refresh_token_sha256"] !== this.#refreshTokenHash) return base;
    const refreshToken = stored["refresh_token"];
    const accessToken = stored["access_token"];
    const expiresAt = stored["expires_at"];
    if (typeof refreshToken === "string" && refreshToken !== "") base.refresh_token = refreshToken;
    if (typeof accessToken === "string" && typeof expiresAt === "number") {
      base.access_token = accessToken;
      base.expires_at = expiresAt;
    }
    return base;
  }

  async save(update: Partial<StoredCredentials>): Promise<void> {
    const { client_id: _clientId, client_secret: _clientSecret, ...tokens } = update;
    await this.#file.save({ ...tokens, env_refresh_token_sha256: this.#refreshTokenHash });
  }
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
