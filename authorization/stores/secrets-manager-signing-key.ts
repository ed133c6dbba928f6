/**
 * The signing key in a Secrets Manager secret (a string of at least 32 characters; the hosted template generates
 * 64), read once per process: every instance reads the same secret, so every instance signs alike.
 */
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { CredentialStoreError } from "../../credentials/credential-store.ts";
import { awsStoreError } from "../../credentials/stores/aws-errors.ts";
import { defaultStoreTimeoutMs } from "../../credentials/store-deadline.ts";
import type { SigningKeyStore } from "./signing-key-store.ts";

export class SecretsManagerSigningKey implements SigningKeyStore {
  readonly description: string;
  readonly #secret: string;
  readonly #client: SecretsManagerClient;
  #key: Uint8Array | undefined;

  /** `secret`: the name or ARN of the secret. */
  constructor(options: { secret: string; region: string; requestTimeoutMs?: number | undefined }) {
    this.#secret = options.secret;
    const timeout = (options.requestTimeoutMs ?? defaultStoreTimeoutMs) + 1_000;
    this.#client = new SecretsManagerClient({
      region: options.region,
      requestHandler: { connectionTimeout: timeout, requestTimeout: timeout },
    });
    this.description = `signing key secret "${options.secret}"`;
  }

  async signingKey(signal: AbortSignal): Promise<Uint8Array> {
    if (this.#key) return this.#key;
    let text: string | undefined;
    try {
      text = (
        await this.#client.send(new GetSecretValueCommand({ SecretId: this.#secret, VersionStage: "AWSCURRENT" }), { abortSignal: signal })
      ).SecretString;
    } catch (error) {
      throw awsStoreError(error, {
        call: "GetSecretValue",
        action: "read",
        description: this.description,
        permission: "the role secretsmanager:GetSecretValue on it",
        signal,
      });
    }
    if (text === undefined || text.length < 32) {
      throw new CredentialStoreError(
        `The signing key secret "${this.#secret}" must hold a string of at least 32 characters (the template generates 64).`,
      );
    }
    this.#key = new TextEncoder().encode(text);
    return this.#key;
  }
}
