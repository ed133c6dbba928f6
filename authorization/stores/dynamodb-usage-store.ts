/**
 * The athletes' request counts and deauthorization checks in the DynamoDB table (state-table.ts says which
 * items): counting is one UpdateItem that adds 1 to each window of the request on condition that none is full;
 * a deauthorization check is one UpdateItem on condition that the quarter hour is free and the day's budget left.
 */
import { UpdateItemCommand } from "@aws-sdk/client-dynamodb";
import type { Item, StateTable } from "./state-table.ts";
import { fairShareWindows, type FairShare, type FairShareVerdict, type FairShareWindow, type UsageStore } from "./usage-store.ts";

export class DynamoDbUsageStore implements UsageStore {
  readonly description: string;
  readonly #table: StateTable;

  constructor(table: StateTable) {
    this.#table = table;
    this.description = table.description;
  }

  async countUpstreamRequest(
    athleteId: string,
    read: boolean,
    share: FairShare,
    nowMs: number,
    signal: AbortSignal,
  ): Promise<FairShareVerdict> {
    const table = this.#table;
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
    const counted = await table.writeIf("UpdateItem", signal, () =>
      table.client.send(
        new UpdateItemCommand({
          TableName: table.name,
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
    const item = (await table.getItem(key.pk.S, signal)) ?? {};
    const full = windows.find((entry) => Number(item[entry.attribute]?.N ?? 0) >= entry.share) ?? windows[0]!;
    return { admitted: false, window: full.window, used: Number(item[full.attribute]?.N ?? full.share), share: full.share };
  }

  async claimDeauthorizationCheck(athleteId: string, dailyLimit: number, nowMs: number, signal: AbortSignal): Promise<boolean> {
    const table = this.#table;
    const { day, quarter, dayEndsMs } = fairShareWindows(nowMs);
    return table.writeIf("UpdateItem", signal, () =>
      table.client.send(
        new UpdateItemCommand({
          TableName: table.name,
          Key: { pk: { S: `deauth#${athleteId}#${day}` } },
          UpdateExpression: "ADD checks :one SET #quarter = :one, #ttl = :ttl",
          ConditionExpression: "attribute_not_exists(#quarter) AND (attribute_not_exists(checks) OR checks < :limit)",
          ExpressionAttributeNames: { "#quarter": `q${quarter}`, "#ttl": "ttl" },
          ExpressionAttributeValues: {
            ":one": { N: "1" },
            ":limit": { N: String(dailyLimit) },
            ":ttl": { N: String(Math.floor(dayEndsMs / 1000) + 86_400) },
          },
        }),
        { abortSignal: signal },
      ),
    );
  }

  async forgetAthlete(athleteId: string, signal: AbortSignal): Promise<void> {
    for (const pk of await this.#table.keysOf(athleteId, signal)) if (pk.startsWith("usage#")) await this.#table.deleteItem(pk, signal);
  }
}
