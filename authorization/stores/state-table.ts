/**
 * OAuth mode's state in one DynamoDB table (the hosted deployment; any number of Lambda instances share it). The
 * table: partition key `pk` (string), a global secondary index `athlete_id` (partition key `athlete_id`, keys
 * only) listing what belongs to an athlete, and TTL on the `ttl` attribute (epoch seconds). Its items, and which
 * store keeps what:
 *
 * - `client#<client_id>`: a registration, the record as JSON in `record`; unused registrations carry
 *   `unused_seq` and take a place in `registration#places` (registration-ring.ts: the places as one attribute,
 *   about 70 bytes each, and a `revision`); `registrations#<hour>#<slot>`: the hour's registration counts
 *   (`registrationCountSlot`: the source's tag and its count), at most that many items an hour, however many
 *   sources register (dynamodb-registration-store.ts);
 * - `signin-state#<state id>`: a Strava sign-in state already used, written once with attribute_not_exists
 *   (exactly one caller succeeds), gone by TTL once the state has expired; `code#<sha256>`, `grant#<grant_id>`:
 *   the record as JSON in `record`, with `athlete_id` (dynamodb-grant-store.ts);
 * - `athletes`: the set of athletes whose tokens are stored (`ids`), kept with each sign-in and deletion (made
 *   by one scan on a table written before it existed); `unadmitted#<id>`: since when an athlete is no longer
 *   admitted; `grants-ended#<id>`: when their last grant was ended as a precaution; `owner`: the owner's athlete
 *   id (`owner_athlete`), written once with attribute_not_exists (dynamodb-athlete-store.ts);
 * - `athlete#<id>`: the athlete's Strava tokens, credentials/stores/dynamodb-store.ts (compare-and-swap on its
 *   revision, as for one athlete), made by credentials/store-choice.ts;
 * - `usage#<athlete>#<day>`: the day's request counts, one attribute per window; `deauth#<athlete>#<day>`: the
 *   deauthorization checks of the athlete that day (dynamodb-usage-store.ts).
 *
 * The signing key is in Secrets Manager (secrets-manager-signing-key.ts). The endpoint comes from the SDK's
 * configuration (`AWS_ENDPOINT_URL_DYNAMODB` in tests: moto_server). Reads are strongly consistent. This file
 * holds what the table's stores share: the client, the reads, the conditional writes, and the error mapping.
 */
import {
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  type AttributeValue,
} from "@aws-sdk/client-dynamodb";
import { awsStoreError } from "../../credentials/stores/aws-errors.ts";
import { defaultStoreTimeoutMs } from "../../credentials/store-deadline.ts";

export type Item = Record<string, AttributeValue>;

export const athleteIndexName = "athlete_id";

export type WriteCall = "PutItem" | "UpdateItem" | "DeleteItem";

/** The table the DynamoDB stores share, and the calls every one of them makes. */
export class StateTable {
  readonly name: string;
  readonly region: string;
  readonly description: string;
  readonly client: DynamoDBClient;
  /** Clock in epoch milliseconds (records' expiry, the owner's claim time). */
  readonly now: () => number;

  constructor(options: { tableName: string; region: string; requestTimeoutMs?: number | undefined; now?: (() => number) | undefined }) {
    this.name = options.tableName;
    this.region = options.region;
    this.now = options.now ?? Date.now;
    const timeout = (options.requestTimeoutMs ?? defaultStoreTimeoutMs) + 1_000;
    this.client = new DynamoDBClient({ region: options.region, requestHandler: { connectionTimeout: timeout, requestTimeout: timeout } });
    this.description = `DynamoDB table "${options.tableName}" (${options.region})`;
  }

  /** An item holding `record` as JSON, its expiry as TTL, and the athlete it belongs to (for the index). */
  item(pk: string, record: object, expiresAt: number, athleteId: string | undefined): Item {
    const item: Item = { pk: { S: pk }, record: { S: JSON.stringify(record) }, ttl: { N: String(expiresAt) } };
    if (athleteId !== undefined) item["athlete_id"] = { S: athleteId };
    if ("revision" in record) item["revision"] = { N: String((record as { revision: number }).revision) };
    return item;
  }

  async put(pk: string, record: object, expiresAt: number, athleteId: string | undefined, signal: AbortSignal): Promise<void> {
    await this.call("PutItem", signal, () =>
      this.client.send(new PutItemCommand({ TableName: this.name, Item: this.item(pk, record, expiresAt, athleteId) }), {
        abortSignal: signal,
      }),
    );
  }

  /** The record of an item, unless it is absent or has expired. */
  async get<T extends { expires_at: number }>(pk: string, signal: AbortSignal): Promise<T | undefined> {
    const item = await this.getItem(pk, signal);
    return item ? this.live<T>(item) : undefined;
  }

  async getItem(pk: string, signal: AbortSignal): Promise<Item | undefined> {
    const answer = await this.call("GetItem", signal, () =>
      this.client.send(new GetItemCommand({ TableName: this.name, Key: { pk: { S: pk } }, ConsistentRead: true }), {
        abortSignal: signal,
      }),
    );
    return answer.Item;
  }

  async deleteItem(pk: string, signal: AbortSignal): Promise<void> {
    await this.call("DeleteItem", signal, () =>
      this.client.send(new DeleteItemCommand({ TableName: this.name, Key: { pk: { S: pk } } }), { abortSignal: signal }),
    );
  }

  /** The record of an item, unless it has expired (DynamoDB's TTL deletes lazily, within days). */
  live<T extends { expires_at: number }>(item: Item): T | undefined {
    const text = item["record"]?.S;
    if (text === undefined) return undefined;
    const record = JSON.parse(text) as T;
    return record.expires_at * 1000 > this.now() ? record : undefined;
  }

  /** The keys of the items that belong to the athlete (the `athlete_id` index). */
  async keysOf(athleteId: string, signal: AbortSignal): Promise<string[]> {
    const keys: string[] = [];
    let start: Item | undefined;
    do {
      const page = await this.call("Query", signal, () =>
        this.client.send(
          new QueryCommand({
            TableName: this.name,
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
  async writeIf(call: WriteCall, signal: AbortSignal, write: () => Promise<unknown>): Promise<boolean> {
    try {
      await this.call(call, signal, write, ["ConditionalCheckFailedException"]);
      return true;
    } catch (error) {
      if ((error as { name?: string }).name === "ConditionalCheckFailedException") return false;
      throw error;
    }
  }

  async call<T>(call: string, signal: AbortSignal, run: () => Promise<T>, passThrough: string[] = []): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const name = (error as { name?: string }).name ?? "Error";
      if (passThrough.includes(name)) throw error;
      throw awsStoreError(error, {
        call,
        action: "use",
        description: this.description,
        permission: `the role dynamodb:${call} on it`,
        notFound: `The ${this.description} (or its ${athleteIndexName} index) does not exist.`,
        signal,
      });
    }
  }
}
