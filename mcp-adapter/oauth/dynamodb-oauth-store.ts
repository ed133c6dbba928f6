/**
 * OAuth mode's state in one DynamoDB table (the hosted deployment; any number of Lambda instances share
 * it), with the signing key in Secrets Manager. The table: partition key `pk` (string), a global
 * secondary index `athlete_id` (partition key `athlete_id`, keys only) listing what belongs to an
 * athlete, and TTL on the `ttl` attribute (epoch seconds). Items:
 *
 * - `client#<client_id>`, `code#<sha256>`, `grant#<grant_id>`: the record as JSON in `record`; codes and
 *   grants carry `athlete_id`. Redeeming a code is one DeleteItem returning the old item (only one caller
 *   gets it); replacing a grant is one PutItem conditioned on its `revision`; both are atomic.
 * - `athlete#<id>`: the athlete's Strava tokens, tools/dynamodb-credential-store.ts (compare-and-swap on
 *   its revision, as for one athlete).
 * - `usage#<athlete>#<day>`: the day's request counts, one attribute per window; counting is one
 *   UpdateItem that adds 1 to each window of the request on condition that none is full.
 * - `owner`: the owner's athlete id (`owner_athlete`), written once with attribute_not_exists.
 *
 * The endpoint comes from the SDK's configuration (`AWS_ENDPOINT_URL_DYNAMODB` and
 * `AWS_ENDPOINT_URL_SECRETS_MANAGER` in tests: moto_server). Reads are strongly consistent.
 */
import {
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
  type AttributeValue,
} from "@aws-sdk/client-dynamodb";
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { CredentialStoreError } from "../../tools/credentials.ts";
import { DynamoDbCredentialStore } from "../../tools/dynamodb-credential-store.ts";
import {
  fairShareWindows,
  type AthleteCredentialStore,
  type AuthorizationCodeRecord,
  type FairShare,
  type FairShareVerdict,
  type FairShareWindow,
  type GrantRecord,
  type OAuthStore,
  type RegisteredClient,
} from "./oauth-store.ts";
import { messageOf } from "../../common/named-error.ts";
import { defaultStoreTimeoutMs } from "../../tools/store-deadline.ts";

export interface DynamoDbOAuthStoreOptions {
  tableName: string;
  /** Name or ARN of the Secrets Manager secret holding the signing key (a string of 32 characters or more). */
  signingKeySecret: string;
  region: string;
  application: { client_id: string; client_secret: string };
  requestTimeoutMs?: number;
  /** Clock in epoch milliseconds (expiry of records, the owner's claim time). */
  now?: () => number;
}

type Item = Record<string, AttributeValue>;

export const athleteIndexName = "athlete_id";

export class DynamoDbOAuthStore implements OAuthStore {
  readonly description: string;
  readonly #table: string;
  readonly #client: DynamoDBClient;
  readonly #secrets: SecretsManagerClient;
  readonly #options: DynamoDbOAuthStoreOptions;
  readonly #now: () => number;
  #key: Uint8Array | undefined;

  constructor(options: DynamoDbOAuthStoreOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#table = options.tableName;
    const timeout = (options.requestTimeoutMs ?? defaultStoreTimeoutMs) + 1_000;
    const requestHandler = { connectionTimeout: timeout, requestTimeout: timeout };
    this.#client = new DynamoDBClient({ region: options.region, requestHandler });
    this.#secrets = new SecretsManagerClient({ region: options.region, requestHandler });
    this.description = `DynamoDB table "${options.tableName}" (${options.region})`;
  }

  async putClient(client: RegisteredClient, signal: AbortSignal): Promise<void> {
    await this.#put(`client#${client.client_id}`, client, client.expires_at, undefined, signal);
  }

  async getClient(clientId: string, signal: AbortSignal): Promise<RegisteredClient | undefined> {
    return this.#get<RegisteredClient>(`client#${clientId}`, signal);
  }

  async putCode(record: AuthorizationCodeRecord, signal: AbortSignal): Promise<void> {
    await this.#put(`code#${record.code_sha256}`, record, record.expires_at, record.athlete_id, signal);
  }

  async getCode(codeSha256: string, signal: AbortSignal): Promise<AuthorizationCodeRecord | undefined> {
    return this.#get<AuthorizationCodeRecord>(`code#${codeSha256}`, signal);
  }

  async redeemCode(codeSha256: string, signal: AbortSignal): Promise<boolean> {
    const old = await this.#call("DeleteItem", signal, () =>
      this.#client.send(new DeleteItemCommand({ TableName: this.#table, Key: { pk: { S: `code#${codeSha256}` } }, ReturnValues: "ALL_OLD" }), { abortSignal: signal }),
    );
    return old.Attributes !== undefined && this.#live(old.Attributes) !== undefined;
  }

  async createGrant(grant: GrantRecord, signal: AbortSignal): Promise<void> {
    await this.#put(`grant#${grant.grant_id}`, grant, grant.expires_at, grant.athlete_id, signal);
  }

  async getGrant(grantId: string, signal: AbortSignal): Promise<GrantRecord | undefined> {
    return this.#get<GrantRecord>(`grant#${grantId}`, signal);
  }

  async replaceGrant(next: GrantRecord, signal: AbortSignal): Promise<boolean> {
    return this.#writeIf(
      "PutItem",
      signal,
      () =>
        this.#client.send(
          new PutItemCommand({
            TableName: this.#table,
            Item: this.#item(`grant#${next.grant_id}`, next, next.expires_at, next.athlete_id),
            ConditionExpression: "#revision = :expected",
            ExpressionAttributeNames: { "#revision": "revision" },
            ExpressionAttributeValues: { ":expected": { N: String(next.revision - 1) } },
          }),
          { abortSignal: signal },
        ),
    );
  }

  async deleteGrant(grantId: string, signal: AbortSignal): Promise<GrantRecord | undefined> {
    const old = await this.#call("DeleteItem", signal, () =>
      this.#client.send(new DeleteItemCommand({ TableName: this.#table, Key: { pk: { S: `grant#${grantId}` } }, ReturnValues: "ALL_OLD" }), { abortSignal: signal }),
    );
    return old.Attributes ? this.#live<GrantRecord>(old.Attributes) : undefined;
  }

  async grantsOf(athleteId: string, signal: AbortSignal): Promise<GrantRecord[]> {
    const keys = await this.#keysOf(athleteId, signal);
    const grants: GrantRecord[] = [];
    for (const pk of keys.filter((key) => key.startsWith("grant#"))) {
      const grant = await this.#get<GrantRecord>(pk, signal);
      if (grant) grants.push(grant);
    }
    return grants;
  }

  async claimOwner(athleteId: string, signal: AbortSignal): Promise<string> {
    const claimed = await this.#writeIf(
      "PutItem",
      signal,
      () =>
        this.#client.send(
          new PutItemCommand({
            TableName: this.#table,
            Item: { pk: { S: "owner" }, owner_athlete: { S: athleteId }, claimed_at: { S: new Date(this.#now()).toISOString() } },
            ConditionExpression: "attribute_not_exists(pk)",
          }),
          { abortSignal: signal },
        ),
    );
    if (claimed) return athleteId;
    return (await this.owner(signal)) ?? athleteId;
  }

  async owner(signal: AbortSignal): Promise<string | undefined> {
    return (await this.#getItem("owner", signal))?.["owner_athlete"]?.S;
  }

  credentialStoreFor(athleteId: string): AthleteCredentialStore {
    if (!/^\d{1,20}$/.test(athleteId)) throw new TypeError(`not a Strava athlete id: ${athleteId}`);
    return new DynamoDbCredentialStore({
      tableName: this.#table,
      athleteId,
      key: { name: "pk", value: `athlete#${athleteId}` },
      region: this.#options.region,
      application: this.#options.application,
      requestTimeoutMs: this.#options.requestTimeoutMs ?? defaultStoreTimeoutMs,
      client: this.#client,
    }) as AthleteCredentialStore;
  }

  async hasAthlete(athleteId: string, signal: AbortSignal): Promise<boolean> {
    return (await this.#getItem(`athlete#${athleteId}`, signal)) !== undefined;
  }

  async deleteAthlete(athleteId: string, signal: AbortSignal): Promise<void> {
    const keys = new Set([...(await this.#keysOf(athleteId, signal)), `athlete#${athleteId}`]);
    for (const pk of keys) {
      await this.#call("DeleteItem", signal, () => this.#client.send(new DeleteItemCommand({ TableName: this.#table, Key: { pk: { S: pk } } }), { abortSignal: signal }));
    }
  }

  async countUpstreamRequest(athleteId: string, read: boolean, share: FairShare, nowMs: number, signal: AbortSignal): Promise<FairShareVerdict> {
    const { day, quarter, dayEndsMs } = fairShareWindows(nowMs);
    const windows: { window: FairShareWindow; attribute: string; share: number }[] = [
      { window: "overall 15-minute", attribute: `o_q${quarter}`, share: share.overall.fifteenMinute },
      { window: "overall daily", attribute: "o_day", share: share.overall.daily },
    ];
    if (read) {
      windows.push({ window: "read 15-minute", attribute: `r_q${quarter}`, share: share.read.fifteenMinute });
      windows.push({ window: "read daily", attribute: "r_day", share: share.read.daily });
    }
    const names: Record<string, string> = {};
    const values: Item = { ":one": { N: "1" }, ":athlete": { S: athleteId }, ":ttl": { N: String(Math.floor(dayEndsMs / 1000) + 86_400) } };
    const conditions: string[] = [];
    windows.forEach((entry, index) => {
      names[`#w${index}`] = entry.attribute;
      values[`:s${index}`] = { N: String(entry.share) };
      conditions.push(`(attribute_not_exists(#w${index}) OR #w${index} < :s${index})`);
    });
    const key = { pk: { S: `usage#${athleteId}#${day}` } };
    const counted = await this.#writeIf(
      "UpdateItem",
      signal,
      () =>
        this.#client.send(
          new UpdateItemCommand({
            TableName: this.#table,
            Key: key,
            UpdateExpression: `ADD ${windows.map((_, index) => `#w${index} :one`).join(", ")} SET athlete_id = :athlete, #ttl = :ttl`,
            ConditionExpression: conditions.join(" AND "),
            ExpressionAttributeNames: { ...names, "#ttl": "ttl" },
            ExpressionAttributeValues: values,
          }),
          { abortSignal: signal },
        ),
    );
    if (counted) return { admitted: true };
    const item = (await this.#getItem(key.pk.S, signal)) ?? {};
    const full = windows.find((entry) => Number(item[entry.attribute]?.N ?? 0) >= entry.share) ?? windows[0]!;
    return { admitted: false, window: full.window, used: Number(item[full.attribute]?.N ?? full.share), share: full.share };
  }

  async signingKey(signal: AbortSignal): Promise<Uint8Array> {
    if (this.#key) return this.#key;
    let text: string | undefined;
    try {
      text = (await this.#secrets.send(new GetSecretValueCommand({ SecretId: this.#options.signingKeySecret, VersionStage: "AWSCURRENT" }), { abortSignal: signal })).SecretString;
    } catch (error) {
      const name = (error as { name?: string }).name ?? "Error";
      if (name === "AccessDeniedException") {
        throw new CredentialStoreError(`Not allowed to read the signing key secret "${this.#options.signingKeySecret}": grant the role secretsmanager:GetSecretValue on it.`);
      }
      throw new CredentialStoreError(`Could not read the signing key secret "${this.#options.signingKeySecret}" (${name}: ${messageOf(error)}).`);
    }
    if (text === undefined || text.length < 32) {
      throw new CredentialStoreError(`The signing key secret "${this.#options.signingKeySecret}" must hold a string of at least 32 characters (the template generates 64).`);
    }
    this.#key = new TextEncoder().encode(text);
    return this.#key;
  }

  #item(pk: string, record: object, expiresAt: number, athleteId: string | undefined): Item {
    const item: Item = { pk: { S: pk }, record: { S: JSON.stringify(record) }, ttl: { N: String(expiresAt) } };
    if (athleteId !== undefined) item["athlete_id"] = { S: athleteId };
    if ("revision" in record) item["revision"] = { N: String((record as { revision: number }).revision) };
    return item;
  }

  async #put(pk: string, record: object, expiresAt: number, athleteId: string | undefined, signal: AbortSignal): Promise<void> {
    await this.#call("PutItem", signal, () =>
      this.#client.send(new PutItemCommand({ TableName: this.#table, Item: this.#item(pk, record, expiresAt, athleteId) }), { abortSignal: signal }),
    );
  }

  async #get<T extends { expires_at: number }>(pk: string, signal: AbortSignal): Promise<T | undefined> {
    const item = await this.#getItem(pk, signal);
    return item ? this.#live<T>(item) : undefined;
  }

  async #getItem(pk: string, signal: AbortSignal): Promise<Item | undefined> {
    const answer = await this.#call("GetItem", signal, () =>
      this.#client.send(new GetItemCommand({ TableName: this.#table, Key: { pk: { S: pk } }, ConsistentRead: true }), { abortSignal: signal }),
    );
    return answer.Item;
  }

  /** The record of an item, unless it has expired (DynamoDB's TTL deletes lazily, within days). */
  #live<T extends { expires_at: number }>(item: Item): T | undefined {
    const text = item["record"]?.S;
    if (text === undefined) return undefined;
    const record = JSON.parse(text) as T;
    return record.expires_at * 1000 > this.#now() ? record : undefined;
  }

  async #keysOf(athleteId: string, signal: AbortSignal): Promise<string[]> {
    const keys: string[] = [];
    let start: Item | undefined;
    do {
      const page = await this.#call("Query", signal, () =>
        this.#client.send(
          new QueryCommand({
            TableName: this.#table,
            IndexName: athleteIndexName,
            KeyConditionExpression: "athlete_id = :athlete",
            ExpressionAttributeValues: { ":athlete": { S: athleteId } },
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
          { abortSignal: signal },
        ),
      );
      for (const item of page.Items ?? []) if (item["pk"]?.S) keys.push(item["pk"].S);
      start = page.LastEvaluatedKey;
    } while (start !== undefined);
    return keys;
  }

  /** A conditional write: true when it was made, false when its condition did not hold. */
  async #writeIf(call: "PutItem" | "UpdateItem", signal: AbortSignal, write: () => Promise<unknown>): Promise<boolean> {
    try {
      await this.#call(call, signal, write, ["ConditionalCheckFailedException"]);
      return true;
    } catch (error) {
      if ((error as { name?: string }).name === "ConditionalCheckFailedException") return false;
      throw error;
    }
  }

  async #call<T>(call: string, signal: AbortSignal, run: () => Promise<T>, passThrough: string[] = []): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const name = (error as { name?: string }).name ?? "Error";
      if (passThrough.includes(name)) throw error;
      if (name === "AccessDeniedException") throw new CredentialStoreError(`Not allowed to use the ${this.description}: grant the role dynamodb:${call} on it.`);
      if (name === "ResourceNotFoundException") throw new CredentialStoreError(`The ${this.description} (or its ${athleteIndexName} index) does not exist.`);
      if (signal.aborted) throw new CredentialStoreError(`Gave up on ${call} to the ${this.description}: its deadline passed.`);
      throw new CredentialStoreError(`Could not use the ${this.description} (${call}: ${name}: ${messageOf(error)}).`);
    }
  }
}
