/**
 * Athletes and admission in the DynamoDB table (state-table.ts says which items): the stored athletes are one
 * item's set, kept with each sign-in and deletion (a table written before it existed is scanned once to make
 * it); the owner is an item written once; each mark is an item of its own.
 */
import { PutItemCommand, ScanCommand, UpdateItemCommand } from "@aws-sdk/client-dynamodb";
import type { AthleteCredentialsDescription } from "../../credentials/store-choice.ts";
import type { ApplicationCredentials } from "../../credentials/stores/athlete-token-file.ts";
import type { Item, StateTable } from "./state-table.ts";
import type { AthleteStore, StoredAthlete } from "./athlete-store.ts";

export class DynamoDbAthleteStore implements AthleteStore {
  readonly description: string;
  readonly #table: StateTable;
  readonly #application: ApplicationCredentials;

  constructor(table: StateTable, application: ApplicationCredentials) {
    this.#table = table;
    this.#application = application;
    this.description = table.description;
  }

  credentialsOf(athleteId: string): AthleteCredentialsDescription {
    return { kind: "athlete-dynamodb", table: this.#table.name, region: this.#table.region, athleteId, application: this.#application };
  }

  async recordStored(athleteId: string, signal: AbortSignal): Promise<void> {
    await this.#updateAthleteSet("ADD", athleteId, signal);
  }

  async hasAthlete(athleteId: string, signal: AbortSignal): Promise<boolean> {
    return (await this.#table.getItem(`athlete#${athleteId}`, signal)) !== undefined;
  }

  async storedAthletes(signal: AbortSignal): Promise<StoredAthlete[]> {
    let ids = (await this.#table.getItem("athletes", signal))?.["ids"]?.SS;
    if (ids === undefined) ids = await this.#scanStoredAthletes(signal);
    const athletes: StoredAthlete[] = [];
    for (const athleteId of ids) {
      const since = Number((await this.#table.getItem(`unadmitted#${athleteId}`, signal))?.["since_ms"]?.N);
      const ended = Number((await this.#table.getItem(`grants-ended#${athleteId}`, signal))?.["at_ms"]?.N);
      athletes.push({
        athleteId,
        unadmittedSinceMs: Number.isFinite(since) && since > 0 ? since : undefined,
        grantsEndedAtMs: Number.isFinite(ended) && ended > 0 ? ended : undefined,
      });
    }
    return athletes;
  }

  async claimOwner(athleteId: string, signal: AbortSignal): Promise<string> {
    const table = this.#table;
    const claimed = await table.writeIf("PutItem", signal, () =>
      table.client.send(
        new PutItemCommand({
          TableName: table.name,
          Item: { pk: { S: "owner" }, owner_athlete: { S: athleteId }, claimed_at: { S: new Date(table.now()).toISOString() } },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
        { abortSignal: signal },
      ),
    );
    if (claimed) return athleteId;
    return (await this.owner(signal)) ?? athleteId;
  }

  async owner(signal: AbortSignal): Promise<string | undefined> {
    return (await this.#table.getItem("owner", signal))?.["owner_athlete"]?.S;
  }

  async resetOwner(signal: AbortSignal): Promise<void> {
    await this.#table.deleteItem("owner", signal);
  }

  async markUnadmitted(athleteId: string, sinceMs: number, signal: AbortSignal): Promise<number> {
    const table = this.#table;
    const written = await table.writeIf("PutItem", signal, () =>
      table.client.send(
        new PutItemCommand({
          TableName: table.name,
          Item: { pk: { S: `unadmitted#${athleteId}` }, athlete_id: { S: athleteId }, since_ms: { N: String(sinceMs) } },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
        { abortSignal: signal },
      ),
    );
    if (written) return sinceMs;
    return Number((await table.getItem(`unadmitted#${athleteId}`, signal))?.["since_ms"]?.N) || sinceMs;
  }

  async clearUnadmitted(athleteId: string, signal: AbortSignal): Promise<void> {
    await this.#table.deleteItem(`unadmitted#${athleteId}`, signal);
  }

  async markGrantsEnded(athleteId: string, atMs: number, signal: AbortSignal): Promise<void> {
    const table = this.#table;
    await table.call("PutItem", signal, () =>
      table.client.send(
        new PutItemCommand({
          TableName: table.name,
          Item: { pk: { S: `grants-ended#${athleteId}` }, athlete_id: { S: athleteId }, at_ms: { N: String(atMs) } },
        }),
        { abortSignal: signal },
      ),
    );
  }

  async clearGrantsEnded(athleteId: string, signal: AbortSignal): Promise<void> {
    await this.#table.deleteItem(`grants-ended#${athleteId}`, signal);
  }

  async forgetAthlete(athleteId: string, signal: AbortSignal): Promise<void> {
    for (const pk of [`athlete#${athleteId}`, `unadmitted#${athleteId}`, `grants-ended#${athleteId}`])
      await this.#table.deleteItem(pk, signal);
    await this.#updateAthleteSet("DELETE", athleteId, signal);
  }

  async #updateAthleteSet(action: "ADD" | "DELETE", athleteId: string, signal: AbortSignal): Promise<void> {
    const table = this.#table;
    await table.call("UpdateItem", signal, () =>
      table.client.send(
        new UpdateItemCommand({
          TableName: table.name,
          Key: { pk: { S: "athletes" } },
          UpdateExpression: `${action} ids :id`,
          ExpressionAttributeValues: { ":id": { SS: [athleteId] } },
        }),
        { abortSignal: signal },
      ),
    );
  }

  /** The stored athletes of a table written before the set existed: found by one scan, then kept in the set. */
  async #scanStoredAthletes(signal: AbortSignal): Promise<string[]> {
    const table = this.#table;
    const ids: string[] = [];
    let start: Item | undefined;
    do {
      const page = await table.call("Scan", signal, () =>
        table.client.send(
          new ScanCommand({
            TableName: table.name,
            FilterExpression: "begins_with(pk, :prefix)",
            ExpressionAttributeValues: { ":prefix": { S: "athlete#" } },
            ProjectionExpression: "pk",
            ConsistentRead: true,
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
          { abortSignal: signal },
        ),
      );
      for (const item of page.Items ?? []) {
        const id = /^athlete#(\d{1,20})$/.exec(item["pk"]?.S ?? "")?.[1];
        if (id !== undefined) ids.push(id);
      }
      start = page.LastEvaluatedKey;
    } while (start !== undefined);
    // An empty set cannot be stored in DynamoDB: a table with no athlete keeps being scanned (it holds little).
    for (const id of ids) await this.#updateAthleteSet("ADD", id, signal);
    return ids;
  }
}
