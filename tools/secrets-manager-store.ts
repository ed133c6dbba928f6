/**
 * Credentials in one AWS Secrets Manager secret holding the spec's JSON object
 * (`client_id`, `client_secret`, `refresh_token`, `access_token`, `expires_at`).
 *
 * Writes re-read the secret and merge, so fields this code does not know (and `client_id`/
 * `client_secret`) survive, and several instances sharing the secret keep each other's rotations.
 * The endpoint comes from the SDK's own configuration (`AWS_ENDPOINT_URL_SECRETS_MANAGER` in tests).
 */
import {
  CreateSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from "@aws-sdk/client-secrets-manager";
import { CredentialStoreError, parseStoredCredentials, type CredentialStore, type StoredCredentials } from "./credentials.ts";

export interface SecretsManagerStoreOptions {
  secretName: string;
  region: string;
  /** Create the secret on the first save when it does not exist (the authorize command does). */
  createIfMissing?: boolean;
  client?: SecretsManagerClient;
}

export class SecretsManagerStore implements CredentialStore {
  readonly description: string;
  readonly #secretName: string;
  readonly #createIfMissing: boolean;
  readonly #client: SecretsManagerClient;
  #writes: Promise<void> = Promise.resolve();

  constructor(options: SecretsManagerStoreOptions) {
    this.#secretName = options.secretName;
    this.#createIfMissing = options.createIfMissing ?? false;
    this.#client = options.client ?? new SecretsManagerClient({ region: options.region });
    this.description = `Secrets Manager secret "${options.secretName}" in ${options.region}`;
  }

  async load(): Promise<StoredCredentials> {
    const contents = await this.#read();
    if (contents === undefined) {
      throw new CredentialStoreError(
        `The ${this.description} does not exist. Create it holding {"client_id", "client_secret", "refresh_token"} ` +
          "(npm run authorize -- --store secrets-manager does this), or point the plugin's secretName/cloudRegion at the right secret.",
      );
    }
    return parseStoredCredentials(contents, `The ${this.description}`);
  }

  save(update: Partial<StoredCredentials>): Promise<void> {
    const write = this.#writes.then(() => this.#merge(update));
    this.#writes = write.catch(() => {});
    return write;
  }

  async #merge(update: Partial<StoredCredentials>): Promise<void> {
    const current = await this.#read();
    const secretString = JSON.stringify({ ...current, ...update });
    try {
      if (current === undefined) {
        if (!this.#createIfMissing) {
          throw new CredentialStoreError(`The ${this.description} does not exist, so new tokens cannot be written back to it.`);
        }
        await this.#client.send(new CreateSecretCommand({ Name: this.#secretName, SecretString: secretString }));
      } else {
        await this.#client.send(new PutSecretValueCommand({ SecretId: this.#secretName, SecretString: secretString }));
      }
    } catch (error) {
      if (error instanceof CredentialStoreError) throw error;
      throw this.#awsError("write", error);
    }
  }

  /** The secret's JSON object, or undefined when the secret does not exist. */
  async #read(): Promise<Record<string, unknown> | undefined> {
    let secretString: string | undefined;
    try {
      const answer = await this.#client.send(new GetSecretValueCommand({ SecretId: this.#secretName }));
      secretString = answer.SecretString;
    } catch (error) {
      if ((error as { name?: string }).name === "ResourceNotFoundException") return undefined;
      throw this.#awsError("read", error);
    }
    if (secretString === undefined) {
      throw new CredentialStoreError(`The ${this.description} holds binary data; it must hold a JSON text object (SecretString).`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(secretString);
    } catch {
      throw new CredentialStoreError(
        `The ${this.description} is not valid JSON. It must hold {"client_id", "client_secret", "refresh_token", "access_token", "expires_at"}.`,
      );
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new CredentialStoreError(`The ${this.description} must hold a JSON object, not ${Array.isArray(parsed) ? "a list" : typeof parsed}.`);
    }
    return parsed as Record<string, unknown>;
  }

  #awsError(action: "read" | "write", error: unknown): CredentialStoreError {
    const name = (error as { name?: string }).name ?? "Error";
    const permission = action === "read" ? "secretsmanager:GetSecretValue" : "secretsmanager:PutSecretValue";
    if (name === "AccessDeniedException") {
      return new CredentialStoreError(`Not allowed to ${action} the ${this.description}: grant the host's role ${permission} on it.`);
    }
    const message = error instanceof Error ? error.message : String(error);
    return new CredentialStoreError(`Could not ${action} the ${this.description} (${name}: ${message}).`);
  }
}
