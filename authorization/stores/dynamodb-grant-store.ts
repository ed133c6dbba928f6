/**
 * Sign-in states, codes and grants in the DynamoDB table (state-table.ts says which items). Redeeming a code is
 * one UpdateItem conditioned on `redeemed_grant` being absent (only one caller sets it; the others read which
 * grant it names); replacing a grant is one PutItem conditioned on its `revision`; both are atomic.
 */
import { DeleteItemCommand, PutItemCommand, UpdateItemCommand } from "@aws-sdk/client-dynamodb";
import type { StateTable } from "./state-table.ts";
import type { AuthorizationCodeRecord, CodeRedemption, GrantRecord, GrantStore } from "./grant-store.ts";

export class DynamoDbGrantStore implements GrantStore {
  readonly description: string;
  readonly #table: StateTable;

  constructor(table: StateTable) {
    this.#table = table;
    this.description = table.description;
  }

  async spendSignInState(stateId: string, expiresAt: number, signal: AbortSignal): Promise<boolean> {
    const table = this.#table;
    return table.writeIf("PutItem", signal, () =>
      table.client.send(
        new PutItemCommand({
          TableName: table.name,
          Item: { pk: { S: `signin-state#${stateId}` }, ttl: { N: String(expiresAt) } },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
        { abortSignal: signal },
      ),
    );
  }

  async putCode(record: AuthorizationCodeRecord, signal: AbortSignal): Promise<void> {
    await this.#table.put(`code#${record.code_sha256}`, record, record.expires_at, record.athlete_id, signal);
  }

  async getCode(codeSha256: string, signal: AbortSignal): Promise<AuthorizationCodeRecord | undefined> {
    return this.#table.get<AuthorizationCodeRecord>(`code#${codeSha256}`, signal);
  }

  async redeemCode(codeSha256: string, grantId: string, signal: AbortSignal): Promise<CodeRedemption> {
    const table = this.#table;
    const record = await this.getCode(codeSha256, signal);
    if (record === undefined) return { redeemed: false, grantId: undefined };
    if (record.redeemed_grant !== undefined) return { redeemed: false, grantId: record.redeemed_grant };
    const redeemed = await table.writeIf("UpdateItem", signal, () =>
      table.client.send(
        new UpdateItemCommand({
          TableName: table.name,
          Key: { pk: { S: `code#${codeSha256}` } },
          UpdateExpression: "SET #record = :record, redeemed_grant = :grant",
          ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(redeemed_grant)",
          ExpressionAttributeNames: { "#record": "record" },
          ExpressionAttributeValues: { ":record": { S: JSON.stringify({ ...record, redeemed_grant: grantId }) }, ":grant": { S: grantId } },
        }),
        { abortSignal: signal },
      ),
    );
    if (redeemed) return { redeemed: true };
    return { redeemed: false, grantId: (await this.getCode(codeSha256, signal))?.redeemed_grant };
  }

  async createGrant(grant: GrantRecord, signal: AbortSignal): Promise<void> {
    await this.#table.put(`grant#${grant.grant_id}`, grant, grant.expires_at, grant.athlete_id, signal);
  }

  async getGrant(grantId: string, signal: AbortSignal): Promise<GrantRecord | undefined> {
    return this.#table.get<GrantRecord>(`grant#${grantId}`, signal);
  }

  async replaceGrant(next: GrantRecord, signal: AbortSignal): Promise<boolean> {
    const table = this.#table;
    return table.writeIf("PutItem", signal, () =>
      table.client.send(
        new PutItemCommand({
          TableName: table.name,
          Item: table.item(`grant#${next.grant_id}`, next, next.expires_at, next.athlete_id),
          ConditionExpression: "#revision = :expected",
          ExpressionAttributeNames: { "#revision": "revision" },
          ExpressionAttributeValues: { ":expected": { N: String(next.revision - 1) } },
        }),
        { abortSignal: signal },
      ),
    );
  }

  async deleteGrant(grantId: string, signal: AbortSignal): Promise<GrantRecord | undefined> {
    const table = this.#table;
    const old = await table.call("DeleteItem", signal, () =>
      table.client.send(new DeleteItemCommand({ TableName: table.name, Key: { pk: { S: `grant#${grantId}` } }, ReturnValues: "ALL_OLD" }), {
        abortSignal: signal,
      }),
    );
    return old.Attributes ? table.live<GrantRecord>(old.Attributes) : undefined;
  }

  async grantsOf(athleteId: string, signal: AbortSignal): Promise<GrantRecord[]> {
    const keys = await this.#table.keysOf(athleteId, signal);
    const grants: GrantRecord[] = [];
    for (const pk of keys.filter((key) => key.startsWith("grant#"))) {
      const grant = await this.#table.get<GrantRecord>(pk, signal);
      if (grant) grants.push(grant);
    }
    return grants;
  }

  async forgetAthlete(athleteId: string, signal: AbortSignal): Promise<void> {
    for (const pk of await this.#table.keysOf(athleteId, signal)) {
      if (pk.startsWith("grant#") || pk.startsWith("code#")) await this.#table.deleteItem(pk, signal);
    }
  }
}
