/**
 * Credentials in one AWS Secrets Manager secret holding the credentials JSON object
 * (`client_id`, `client_secret`, `refresh_token`, `access_token`, `expires_at`), shared by the plugin and
 * any number of MCP servers.
 *
 * Reads ask for the version staged `AWSCURRENT` by name (moto, the local stand-in, answers an old version
 * when no stage is given). A save is a compare-and-swap in two calls, the way Secrets Manager's own
 * rotation works: `PutSecretValue` stores the new record as a version staged `AWSPENDING` (the tokens are
 * durable from here: it is the first call after they arrive, with no read before it), then
 * `UpdateSecretVersionStage` moves `AWSCURRENT` to it from the version this process read, which Secrets
 * Manager refuses when that version is no longer current: someone else saved first, and nothing stale
 * is ever made current. A pending version left by a process killed between the two calls is finished by
 * the next read when it descends from the current one (credentials/token-lineage.ts).
 *
 * Fields this code does not know (and `client_id`/`client_secret`) are carried over from the version
 * read. Every call takes the caller's abort signal (the token manager's deadline) and the client has a
 * request timeout of its own, so a Secrets Manager that stops answering fails calls instead of hanging
 * them. The endpoint comes from the SDK's own configuration (`AWS_ENDPOINT_URL_SECRETS_MANAGER` in tests).
 */
import {
  CreateSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
  UpdateSecretVersionStageCommand,
  type GetSecretValueCommandOutput,
} from "@aws-sdk/client-secrets-manager";
import { randomUUID } from "node:crypto";
import {
  credentialFieldsOf,
  CredentialsMissingError,
  CredentialStoreError,
  keyFieldOf,
  parseStoredCredentials,
  revokedAtField,
  tokenFields,
  type AuthorizationStore,
  type CredentialSnapshot,
  type KeyFieldStore,
  type SaveOutcome,
  type StoredCredentials,
  type TokenSet,
} from "../credential-store.ts";
import { descendsFrom, lineageField, lineageOf } from "../token-lineage.ts";
import { defaultStoreTimeoutMs } from "../store-deadline.ts";
import { shellQuote } from "../../common/shell-quote.ts";
import { awsStoreError } from "./aws-errors.ts";

export interface SecretsManagerStoreOptions {
  secretName: string;
  region: string;
  /** Create the secret on the first write when it does not exist (the authorize command does). */
  createIfMissing?: boolean;
  /** The store deadline (FITNESS_STORE_TIMEOUT_MS); each HTTP request to Secrets Manager is cut a second after it. Default 5 s. */
  requestTimeoutMs?: number;
  client?: SecretsManagerClient;
}

type SecretRecord = Record<string, unknown>;

class SecretVersion {
  readonly versionId: string;
  readonly record: SecretRecord;
  constructor(versionId: string, record: SecretRecord) {
    this.versionId = versionId;
    this.record = record;
  }
}

/** The region of a secret's ARN (arn:aws:secretsmanager:REGION:ACCOUNT:secret:NAME), or undefined for a name. */
export function regionOfArn(secretName: string): string | undefined {
  return /^arn:[\w-]+:secretsmanager:([a-z0-9-]+):\d{12}:secret:/.exec(secretName)?.[1];
}

type Call = "GetSecretValue" | "PutSecretValue" | "UpdateSecretVersionStage" | "CreateSecret";

/** The secret holds something other than a JSON object: the operator's authorization may replace it. */
class MalformedSecretError extends CredentialStoreError {}

const current = "AWSCURRENT";
const pending = "AWSPENDING";

export class SecretsManagerStore implements AuthorizationStore, KeyFieldStore {
  readonly description: string;
  readonly authorizeCommand: string;
  readonly #secretName: string;
  readonly #createIfMissing: boolean;
  readonly #client: SecretsManagerClient;

  constructor(options: SecretsManagerStoreOptions) {
    this.#secretName = options.secretName;
    // An ARN names its region; asking any other region would answer that the secret does not exist.
    const region = regionOfArn(options.secretName) ?? options.region;
    this.#createIfMissing = options.createIfMissing ?? false;
    // A second beyond the store deadline: the deadline (the caller's signal) speaks first, with its clearer
    // message; this only backs up callers without one.
    const timeout = (options.requestTimeoutMs ?? defaultStoreTimeoutMs) + 1_000;
    this.#client =
      options.client ??
      new SecretsManagerClient({
        region,
        requestHandler: { connectionTimeout: timeout, requestTimeout: timeout },
      });
    this.description = `Secrets Manager secret "${options.secretName}" in ${region}`;
    this.authorizeCommand = `npm run authorize -- --store secrets-manager --secret-name ${shellQuote(options.secretName)} --region ${region}`;
  }

  async load(signal: AbortSignal): Promise<CredentialSnapshot> {
    const [now, waiting] = await Promise.all([this.#readStage(current, signal), this.#readStage(pending, signal)]);
    if (now === undefined) {
      throw new CredentialsMissingError(
        `The ${this.description} does not exist. Create it holding {"client_id", "client_secret", "refresh_token"} ` +
          "(npm run authorize -- --store secrets-manager does this), or point the plugin's secretName/cloudRegion at the right secret.",
      );
    }
    const snapshot = this.#snapshot(now);
    if (waiting === undefined || waiting.versionId === now.versionId || !descendsFrom(waiting.record, snapshot.credentials.refresh_token)) {
      return snapshot;
    }
    // A save killed between its two calls: its tokens replaced the current refresh token at Strava.
    if (await this.#makeCurrent(waiting.versionId, now.versionId, signal)) return this.#snapshot(waiting);
    const after = await this.#readStage(current, signal);
    if (after === undefined) throw new CredentialStoreError(`The ${this.description} was deleted while it was being read.`);
    return this.#snapshot(after);
  }

  async saveTokens(expected: CredentialSnapshot, tokens: TokenSet, signal: AbortSignal): Promise<SaveOutcome> {
    const version = expected.version;
    if (!(version instanceof SecretVersion)) throw new TypeError("saveTokens was given a snapshot of another store");
    const record: SecretRecord = { ...version.record, ...tokens, ...lineageOf(expected.credentials.refresh_token) };
    const versionId = randomUUID();
    const command = new PutSecretValueCommand({
      SecretId: this.#secretName,
      SecretString: JSON.stringify(record),
      VersionStages: [pending],
      ClientRequestToken: versionId,
    });
    await this.#call("PutSecretValue", signal, () => this.#client.send(command, { abortSignal: signal }));
    if (await this.#makeCurrent(versionId, version.versionId, signal)) {
      return { saved: true, snapshot: this.#snapshot(new SecretVersion(versionId, record)) };
    }
    const now = await this.#readStage(current, signal);
    if (now === undefined) throw new CredentialStoreError(`The ${this.description} was deleted; the new tokens could not be written back.`);
    return { saved: false, current: this.#snapshot(now) };
  }

  async writeAuthorization(credentials: Required<StoredCredentials>, signal: AbortSignal): Promise<void> {
    await this.#writeOver(signal, (record) => {
      const { [lineageField]: _lineage, [revokedAtField]: _revoked, ...kept } = record ?? {};
      return { ...kept, ...credentials };
    });
  }

  async clearTokens(signal: AbortSignal): Promise<void> {
    await this.#writeOver(signal, (record) => {
      if (record === undefined) return undefined;
      const kept: SecretRecord = { ...record, [revokedAtField]: new Date().toISOString() };
      for (const field of [...tokenFields, lineageField]) delete kept[field];
      return kept;
    });
  }

  async readFields(signal: AbortSignal): Promise<Partial<StoredCredentials> | undefined> {
    const version = await this.#readStage(current, signal);
    return version === undefined ? undefined : credentialFieldsOf(version.record);
  }

  async readKey(field: string, signal: AbortSignal): Promise<string | undefined> {
    const version = await this.#readStage(current, signal);
    if (version === undefined) throw new CredentialsMissingError(`The ${this.description} does not exist.`);
    return keyFieldOf(version.record, field);
  }

  async writeKey(field: string, key: string | undefined, signal: AbortSignal): Promise<void> {
    await this.#writeOver(signal, (record) => {
      if (record === undefined && key === undefined) return undefined;
      const kept: SecretRecord = { ...record };
      if (key === undefined) delete kept[field];
      else kept[field] = key;
      return kept;
    });
  }

  /**
   * The operator's write: whatever is current is replaced by `change(current record)` (undefined: leave
   * it). Made current the same way a refresh does (a pending version, then the stage moved from the
   * version read), retried if a process saved in between, rather than with a plain PutSecretValue: the
   * two kinds of write mixed would leave moto, the local stand-in, with two versions labelled AWSCURRENT.
   */
  async #writeOver(signal: AbortSignal, change: (record: SecretRecord | undefined) => SecretRecord | undefined): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      let now: SecretVersion | undefined;
      try {
        now = await this.#readStage(current, signal);
      } catch (error) {
        // A secret holding something else is replaced by a new authorization, not a reason to refuse it.
        if (!(error instanceof MalformedSecretError)) throw error;
        const id = await this.#currentVersionId(signal);
        now = id === undefined ? undefined : new SecretVersion(id, {});
      }
      const record = change(now?.record);
      if (record === undefined) return;
      const secretString = JSON.stringify(record);
      if (now === undefined) {
        if (!this.#createIfMissing) {
          throw new CredentialStoreError(`The ${this.description} does not exist, so new tokens cannot be written back to it.`);
        }
        const command = new CreateSecretCommand({ Name: this.#secretName, SecretString: secretString });
        await this.#call("CreateSecret", signal, () => this.#client.send(command, { abortSignal: signal }));
        return;
      }
      const versionId = randomUUID();
      const command = new PutSecretValueCommand({
        SecretId: this.#secretName,
        SecretString: secretString,
        VersionStages: [pending],
        ClientRequestToken: versionId,
      });
      await this.#call("PutSecretValue", signal, () => this.#client.send(command, { abortSignal: signal }));
      if (await this.#makeCurrent(versionId, now.versionId, signal)) return;
      if (attempt >= 3)
        throw new CredentialStoreError(`The ${this.description} kept changing while it was being written; run the command again.`);
    }
  }

  /** The id of the version staged AWSCURRENT, whatever it holds. */
  async #currentVersionId(signal: AbortSignal): Promise<string | undefined> {
    const command = new GetSecretValueCommand({ SecretId: this.#secretName, VersionStage: current });
    try {
      return (
        await this.#call("GetSecretValue", signal, () => this.#client.send(command, { abortSignal: signal }), ["ResourceNotFoundException"])
      ).VersionId;
    } catch (error) {
      if ((error as { name?: string }).name === "ResourceNotFoundException") return undefined;
      throw error;
    }
  }

  /**
   * Moves AWSCURRENT to `versionId` if `from` still holds it. False when it does not: another writer made
   * another version current first (Secrets Manager answers InvalidParameterException).
   */
  async #makeCurrent(versionId: string, from: string, signal: AbortSignal): Promise<boolean> {
    const command = new UpdateSecretVersionStageCommand({
      SecretId: this.#secretName,
      VersionStage: current,
      MoveToVersionId: versionId,
      RemoveFromVersionId: from,
    });
    try {
      await this.#call("UpdateSecretVersionStage", signal, () => this.#client.send(command, { abortSignal: signal }), [
        "InvalidParameterException",
      ]);
      return true;
    } catch (error) {
      if ((error as { name?: string }).name !== "InvalidParameterException") throw error;
      const now = await this.#readStage(current, signal);
      if (now !== undefined && now.versionId !== from) return false;
      throw this.#awsError("UpdateSecretVersionStage", error);
    }
  }

  /** The version holding `stage`, or undefined when there is none (or no secret at all). */
  async #readStage(stage: string, signal: AbortSignal): Promise<SecretVersion | undefined> {
    let answer: GetSecretValueCommandOutput;
    const command = new GetSecretValueCommand({ SecretId: this.#secretName, VersionStage: stage });
    try {
      answer = await this.#call("GetSecretValue", signal, () => this.#client.send(command, { abortSignal: signal }), [
        "ResourceNotFoundException",
      ]);
    } catch (error) {
      if ((error as { name?: string }).name === "ResourceNotFoundException") return undefined;
      throw error;
    }
    if (answer.SecretString === undefined) {
      if (stage !== current) return undefined;
      throw new MalformedSecretError(`The ${this.description} holds binary data; it must hold a JSON text object (SecretString).`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.SecretString);
    } catch {
      if (stage !== current) return undefined;
      throw new MalformedSecretError(
        `The ${this.description} is not valid JSON. It must hold {"client_id", "client_secret", "refresh_token", "access_token", "expires_at"}.`,
      );
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      if (stage !== current) return undefined;
      throw new MalformedSecretError(
        `The ${this.description} must hold a JSON object, not ${Array.isArray(parsed) ? "a list" : typeof parsed}.`,
      );
    }
    return new SecretVersion(answer.VersionId ?? "", parsed as SecretRecord);
  }

  #snapshot(version: SecretVersion): CredentialSnapshot {
    return { credentials: parseStoredCredentials(version.record, `The ${this.description}`), version };
  }

  /** Runs one SDK call; its failures become store errors that name the call (and the permission), except `passThrough`. */
  async #call<T>(call: Call, signal: AbortSignal, run: () => Promise<T>, passThrough: string[] = []): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (passThrough.includes((error as { name?: string }).name ?? "")) throw error;
      throw this.#awsError(call, error, signal);
    }
  }

  #awsError(call: Call, error: unknown, signal?: AbortSignal): CredentialStoreError {
    return awsStoreError(error, {
      call,
      action: call === "GetSecretValue" ? "read" : "write",
      description: this.description,
      permission: `the host's role secretsmanager:${call} on it (see the IAM policy in docs/operators/plugin.md)`,
      signal,
    });
  }
}
