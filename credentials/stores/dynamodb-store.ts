/**
 * One athlete's Strava tokens as one item of a DynamoDB table keyed by athlete (`athlete_id`, a string
 * partition key): the store a hosted deployment serving several athletes keeps them in. The OAuth
 * application's client_id/client_secret belong to the deployment, not to an athlete, so they come from
 * the options (an item may carry them too, for a single-athlete table).
 *
 * Compare-and-swap is DynamoDB's own: every item carries a `revision` number, and a save is one PutItem
 * conditioned on the revision it read (`attribute_not_exists` for an item written before revisions).
 * One call, atomic, so there is no half-done save to finish later; DynamoDB refuses a stale one with
 * ConditionalCheckFailedException, and the store answers with what the item holds. Reads are strongly
 * consistent. The token manager drives it exactly as it drives the token file and Secrets Manager.
 *
 * The endpoint comes from the SDK's own configuration (`AWS_ENDPOINT_URL_DYNAMODB` in tests, moto_server).
 */
import { DynamoDBClient, GetItemCommand, PutItemCommand, type AttributeValue } from "@aws-sdk/client-dynamodb";
import {
  CredentialsMissingError,
  parseStoredCredentials,
  type CredentialSnapshot,
  type CredentialStore,
  type SaveOutcome,
  type StoredCredentials,
  type TokenSet,
} from "../credential-store.ts";
import { lineageField, lineageOf } from "../token-lineage.ts";
import { awsStoreError } from "./aws-errors.ts";
import { defaultStoreTimeoutMs } from "../store-deadline.ts";

export interface DynamoDbCredentialStoreOptions {
  tableName: string;
  /** The athlete whose item this store reads and writes. */
  athleteId: string;
  /**
   * The item's key, when the table is keyed otherwise (OAuth mode's one table: `pk` = `athlete#<id>`);
   * default `athlete_id` = the athlete id. The item always carries `athlete_id`.
   */
  key?: { name: string; value: string };
  region: string;
  /** The deployment's OAuth application (used over whatever an item holds). */
  application?: { client_id: string; client_secret: string };
  /** The store deadline; each HTTP request to DynamoDB is cut a second after it. Default 5 s. */
  requestTimeoutMs?: number;
  client?: DynamoDBClient;
}

type Item = Record<string, AttributeValue>;

/** The key of an athlete's item in OAuth mode's one table, whose partition key `pk` holds every kind of record. */
export function oauthAthleteKey(athleteId: string): { name: string; value: string } {
  if (!/^\d{1,20}$/.test(athleteId)) throw new TypeError(`not a Strava athlete id: ${athleteId}`);
  return { name: "pk", value: `athlete#${athleteId}` };
}

class ItemVersion {
  /** undefined: the item was written without a revision (or by hand). */
  readonly revision: number | undefined;
  readonly item: Item;
  constructor(revision: number | undefined, item: Item) {
    this.revision = revision;
    this.item = item;
  }
}

type Call = "GetItem" | "PutItem";

export class DynamoDbCredentialStore implements CredentialStore {
  readonly description: string;
  readonly #tableName: string;
  readonly #athleteId: string;
  readonly #key: { name: string; value: string };
  readonly #application: { client_id: string; client_secret: string } | undefined;
  readonly #client: DynamoDBClient;

  constructor(options: DynamoDbCredentialStoreOptions) {
    this.#tableName = options.tableName;
    this.#athleteId = options.athleteId;
    this.#key = options.key ?? { name: "athlete_id", value: options.athleteId };
    this.#application = options.application;
    // A second beyond the store deadline: the deadline (the caller's signal) speaks first, with its clearer
    // message; this only backs up callers without one.
    const timeout = (options.requestTimeoutMs ?? defaultStoreTimeoutMs) + 1_000;
    this.#client =
      options.client ??
      new DynamoDBClient({ region: options.region, requestHandler: { connectionTimeout: timeout, requestTimeout: timeout } });
    this.description = `DynamoDB item of athlete ${options.athleteId} in table "${options.tableName}" (${options.region})`;
  }

  async load(signal: AbortSignal): Promise<CredentialSnapshot> {
    const item = await this.#read(signal);
    if (item === undefined) {
      throw new CredentialsMissingError(`The ${this.description} does not exist: the athlete must sign in (authorize) first.`);
    }
    return this.#snapshot(item);
  }

  async saveTokens(expected: CredentialSnapshot, tokens: TokenSet, signal: AbortSignal): Promise<SaveOutcome> {
    const version = expected.version;
    if (!(version instanceof ItemVersion)) throw new TypeError("saveTokens was given a snapshot of another store");
    const revision = (version.revision ?? 0) + 1;
    const item: Item = {
      ...version.item,
      refresh_token: { S: tokens.refresh_token },
      access_token: { S: tokens.access_token },
      expires_at: { N: String(tokens.expires_at) },
      [lineageField]: { S: lineageOf(expected.credentials.refresh_token)[lineageField] },
      revision: { N: String(revision) },
      updated_at: { S: new Date().toISOString() },
    };
    const condition =
      version.revision === undefined
        ? {
            ConditionExpression: "attribute_not_exists(revision) AND refresh_token = :read",
            ExpressionAttributeValues: { ":read": { S: expected.credentials.refresh_token } },
          }
        : { ConditionExpression: "revision = :read", ExpressionAttributeValues: { ":read": { N: String(version.revision) } } };
    try {
      await this.#call(
        "PutItem",
        signal,
        () => this.#client.send(new PutItemCommand({ TableName: this.#tableName, Item: item, ...condition }), { abortSignal: signal }),
        ["ConditionalCheckFailedException"],
      );
    } catch (error) {
      if ((error as { name?: string }).name !== "ConditionalCheckFailedException") throw error;
      const now = await this.#read(signal);
      if (now === undefined) throw new CredentialsMissingError(`The ${this.description} was deleted while new tokens were being saved.`);
      return { saved: false, current: this.#snapshot(now) };
    }
    return { saved: true, snapshot: this.#snapshot(item) };
  }

  /** A new grant for the athlete (their sign-in), whatever the item held. */
  async writeAuthorization(credentials: Required<StoredCredentials>, signal: AbortSignal): Promise<void> {
    const now = await this.#read(signal);
    const revision = Number(now?.["revision"]?.N ?? 0) + 1;
    const item: Item = {
      [this.#key.name]: { S: this.#key.value },
      athlete_id: { S: this.#athleteId },
      refresh_token: { S: credentials.refresh_token },
      access_token: { S: credentials.access_token },
      expires_at: { N: String(credentials.expires_at) },
      revision: { N: String(revision) },
      updated_at: { S: new Date().toISOString() },
      ...(this.#application ? {} : { client_id: { S: credentials.client_id }, client_secret: { S: credentials.client_secret } }),
    };
    await this.#call("PutItem", signal, () =>
      this.#client.send(new PutItemCommand({ TableName: this.#tableName, Item: item }), { abortSignal: signal }),
    );
  }

  async #read(signal: AbortSignal): Promise<Item | undefined> {
    const command = new GetItemCommand({
      TableName: this.#tableName,
      Key: { [this.#key.name]: { S: this.#key.value } },
      ConsistentRead: true,
    });
    return (await this.#call("GetItem", signal, () => this.#client.send(command, { abortSignal: signal }))).Item;
  }

  #snapshot(item: Item): CredentialSnapshot {
    const record: Record<string, unknown> = {
      client_id: this.#application?.client_id ?? item["client_id"]?.S,
      client_secret: this.#application?.client_secret ?? item["client_secret"]?.S,
      refresh_token: item["refresh_token"]?.S,
      access_token: item["access_token"]?.S,
      expires_at: item["expires_at"]?.N === undefined ? undefined : Number(item["expires_at"].N),
    };
    const revision = item["revision"]?.N === undefined ? undefined : Number(item["revision"].N);
    return { credentials: parseStoredCredentials(record, `The ${this.description}`), version: new ItemVersion(revision, item) };
  }

  async #call<T>(call: Call, signal: AbortSignal, run: () => Promise<T>, passThrough: string[] = []): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const name = (error as { name?: string }).name ?? "Error";
      if (passThrough.includes(name)) throw error;
      throw awsStoreError(error, {
        call,
        action: call === "GetItem" ? "read" : "write",
        description: this.description,
        permission: `the role dynamodb:${call} on the table`,
        notFound: `The DynamoDB table "${this.#tableName}" does not exist (${this.description}).`,
        signal,
      });
    }
  }
}
