/**
 * Registrations in the DynamoDB table (state-table.ts says which items): a registration is an item; the unused
 * ones' places are one item, read, changed and written back by a PutItem conditioned on the revision read, again
 * when another instance wrote first; a registration it evicts is deleted on condition that it is still unused
 * with that sequence number. An hour's registration counts are an item per slot.
 */
import { DeleteItemCommand, PutItemCommand, UpdateItemCommand } from "@aws-sdk/client-dynamodb";
import { CredentialStoreError } from "../../credentials/credential-store.ts";
import type { StateTable } from "./state-table.ts";
import {
  refusedUntilHourEnds,
  registrationWindow,
  type CountSlot,
  type RateVerdict,
  type RegisteredClient,
  type RegistrationPlacement,
  type RegistrationStore,
} from "./registration-store.ts";
import {
  leaveRing,
  parseRing,
  placeInRing,
  serializeRing,
  startSignInInRing,
  type RegistrationRing,
  type RingPlacement,
} from "./registration-ring.ts";

/** The item of the unused registrations' places, and how often a write of it may lose to another instance's in a row. */
const ringKey = "registration#places";
const ringAttempts = 8;

export class DynamoDbRegistrationStore implements RegistrationStore {
  readonly description: string;
  readonly #table: StateTable;

  constructor(table: StateTable) {
    this.#table = table;
    this.description = table.description;
  }

  async countRegistration(place: CountSlot, perSourcePerHour: number, nowMs: number, signal: AbortSignal): Promise<RateVerdict> {
    const table = this.#table;
    const { hour, endsMs } = registrationWindow(nowMs);
    const { slot, tag } = place;
    const key = { pk: { S: `registrations#${hour}#${slot}` } };
    const values = { ":tag": { B: tag }, ":one": { N: "1" }, ":ttl": { N: String(Math.floor(endsMs / 1000) + 3600) } };
    const refused = refusedUntilHourEnds(nowMs);
    for (let attempt = 0; attempt < 3; attempt++) {
      // The source's own count, below the limit: one more.
      const counted = await table.writeIf("UpdateItem", signal, () =>
        table.client.send(
          new UpdateItemCommand({
            TableName: table.name,
            Key: key,
            UpdateExpression: "ADD #count :one SET #ttl = :ttl",
            ConditionExpression: "tag = :tag AND #count < :limit",
            ExpressionAttributeNames: { "#count": "count", "#ttl": "ttl" },
            ExpressionAttributeValues: { ...values, ":limit": { N: String(perSourcePerHour) } },
          }),
          { abortSignal: signal },
        ),
      );
      if (counted) return { admitted: true };
      // The slot is empty or another source's: this source takes it over, starting at one.
      const taken = await table.writeIf("PutItem", signal, () =>
        table.client.send(
          new PutItemCommand({
            TableName: table.name,
            Item: { ...key, tag: { B: tag }, count: { N: "1" }, ttl: values[":ttl"] },
            ConditionExpression: "attribute_not_exists(tag) OR tag <> :tag",
            ExpressionAttributeValues: { ":tag": values[":tag"] },
          }),
          { abortSignal: signal },
        ),
      );
      if (taken) return { admitted: true };
      // The slot is this source's: at its limit, unless it was taken over between the two writes.
      const current = await table.getItem(key.pk.S, signal);
      const own = current?.["tag"]?.B !== undefined && Buffer.from(current["tag"].B).equals(tag);
      if (own && Number(current?.["count"]?.N ?? 0) >= perSourcePerHour) return refused;
    }
    return refused;
  }

  async registerClient(
    client: RegisteredClient,
    placement: { source: string; capacity: number; nowMs: number },
    signal: AbortSignal,
  ): Promise<RegistrationPlacement> {
    const table = this.#table;
    let recordWritten = false;
    const decision = await this.#changeRing<RingPlacement>(signal, async (ring) => {
      const newcomer = { clientId: client.client_id, source: placement.source, expiresAt: client.expires_at };
      const outcome = placeInRing(ring, newcomer, placement.capacity, Math.floor(placement.nowMs / 1000));
      if (!outcome.placed) return { result: outcome };
      // The record before its place: a place never names a registration that is not there.
      const item = table.item(`client#${client.client_id}`, { ...client, unused_seq: outcome.seq }, client.expires_at, undefined);
      item["unused_seq"] = { N: String(outcome.seq) };
      await table.call("PutItem", signal, () =>
        table.client.send(new PutItemCommand({ TableName: table.name, Item: item }), { abortSignal: signal }),
      );
      recordWritten = true;
      return { next: outcome.ring, result: outcome };
    });
    if (!decision.placed) {
      // Written on an earlier turn whose write of the places lost to another instance's.
      if (recordWritten) await this.#deleteUnused(client.client_id, undefined, signal);
      return decision;
    }
    for (const evicted of decision.evicted) await this.#deleteUnused(evicted.clientId, evicted.seq, signal);
    return { placed: true };
  }

  async startSignIn(clientId: string, untilMs: number, signal: AbortSignal): Promise<void> {
    const table = this.#table;
    const stored = await table.get<RegisteredClient>(`client#${clientId}`, signal);
    if (stored?.unused_seq === undefined || stored.sign_in_until !== undefined) return;
    const until = Math.floor(untilMs / 1000);
    // The places first: marked there, it is not evicted; the record's mark only spares later requests this work.
    await this.#changeRing(signal, (ring) => Promise.resolve({ next: startSignInInRing(ring, clientId, until), result: undefined }));
    await table.writeIf("UpdateItem", signal, () =>
      table.client.send(
        new UpdateItemCommand({
          TableName: table.name,
          Key: { pk: { S: `client#${clientId}` } },
          UpdateExpression: "SET #record = :record",
          ConditionExpression: "unused_seq = :seq",
          ExpressionAttributeNames: { "#record": "record" },
          ExpressionAttributeValues: {
            ":record": { S: JSON.stringify({ ...stored, sign_in_until: until }) },
            ":seq": { N: String(stored.unused_seq) },
          },
        }),
        { abortSignal: signal },
      ),
    );
  }

  async keepClient(clientId: string, expiresAt: number, signal: AbortSignal): Promise<void> {
    const table = this.#table;
    const stored = await table.get<RegisteredClient>(`client#${clientId}`, signal);
    if (stored === undefined) return;
    const { unused_seq: place, sign_in_until: _signIn, ...kept } = stored;
    // On condition that it is still there: an eviction in between removed it for good.
    await table.writeIf("UpdateItem", signal, () =>
      table.client.send(
        new UpdateItemCommand({
          TableName: table.name,
          Key: { pk: { S: `client#${clientId}` } },
          UpdateExpression: "SET #record = :record, #ttl = :ttl REMOVE unused_seq",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeNames: { "#record": "record", "#ttl": "ttl" },
          ExpressionAttributeValues: {
            ":record": { S: JSON.stringify({ ...kept, expires_at: expiresAt }) },
            ":ttl": { N: String(expiresAt) },
          },
        }),
        { abortSignal: signal },
      ),
    );
    if (place !== undefined)
      await this.#changeRing(signal, (ring) => Promise.resolve({ next: leaveRing(ring, clientId), result: undefined }));
  }

  async getClient(clientId: string, signal: AbortSignal): Promise<RegisteredClient | undefined> {
    return this.#table.get<RegisteredClient>(`client#${clientId}`, signal);
  }

  /**
   * Changes the unused registrations' places: reads them, lets `change` decide (it may write what the new
   * places will name first), and writes them back on condition that nobody wrote since; when somebody did,
   * reads and decides again. `next` undefined: nothing to write.
   */
  async #changeRing<T>(
    signal: AbortSignal,
    change: (ring: RegistrationRing) => Promise<{ next?: RegistrationRing | undefined; result: T }>,
  ): Promise<T> {
    const table = this.#table;
    for (let attempt = 1; ; attempt++) {
      const item = await table.getItem(ringKey, signal);
      const revision = item === undefined ? undefined : Number(item["revision"]?.N ?? "0");
      const { next, result } = await change(parseRing(item?.["places"]?.S));
      if (next === undefined) return result;
      const written = await table.writeIf("PutItem", signal, () =>
        table.client.send(
          new PutItemCommand({
            TableName: table.name,
            Item: { pk: { S: ringKey }, places: { S: serializeRing(next) }, revision: { N: String((revision ?? 0) + 1) } },
            ...(revision === undefined
              ? { ConditionExpression: "attribute_not_exists(pk)" }
              : { ConditionExpression: "revision = :revision", ExpressionAttributeValues: { ":revision": { N: String(revision) } } }),
          }),
          { abortSignal: signal },
        ),
      );
      if (written) return result;
      if (attempt >= ringAttempts)
        throw new CredentialStoreError(
          `The unused registrations' places in the ${this.description} changed under ${ringAttempts} attempts in a row (many registrations at once); try again in a moment.`,
        );
      // Another instance wrote first: try again after a short, spread-out wait so the writers fall apart.
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }

  /** Deletes a registration that is still unused (with that sequence number, when given). */
  async #deleteUnused(clientId: string, seq: number | undefined, signal: AbortSignal): Promise<void> {
    const table = this.#table;
    await table.writeIf("DeleteItem", signal, () =>
      table.client.send(
        new DeleteItemCommand({
          TableName: table.name,
          Key: { pk: { S: `client#${clientId}` } },
          ...(seq === undefined
            ? { ConditionExpression: "attribute_exists(unused_seq)" }
            : { ConditionExpression: "unused_seq = :seq", ExpressionAttributeValues: { ":seq": { N: String(seq) } } }),
        }),
        { abortSignal: signal },
      ),
    );
  }
}
