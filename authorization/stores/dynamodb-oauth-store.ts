/**
 * OAuth mode's state in one DynamoDB table (the hosted deployment; any number of Lambda instances share
 * it), with the signing key in Secrets Manager. The table: partition key `pk` (string), a global
 * secondary index `athlete_id` (partition key `athlete_id`, keys only) listing what belongs to an
 * athlete, and TTL on the `ttl` attribute (epoch seconds). Items:
 *
 * - `signin-state#<state id>`: a Strava sign-in state already used, written once with attribute_not_exists
 *   (exactly one caller succeeds), gone by TTL once the state has expired.
 * - `client#<client_id>`, `code#<sha256>`, `grant#<grant_id>`: the record as JSON in `record`; codes and
 *   grants carry `athlete_id`. Redeeming a code is one UpdateItem conditioned on `redeemed_grant` being
 *   absent (only one caller sets it; the others read which grant it names); replacing a grant is one
 *   PutItem conditioned on its `revision`; both are atomic.
 * - unused registrations carry `unused_seq` and take a place in `registration#places` (registration-ring.ts:
 *   the places as one attribute, about 70 bytes each, and a `revision`): read, changed and written back
 *   by a PutItem conditioned on the revision read, again when another instance wrote first. A registration
 *   it evicts is deleted on condition that it is still unused with that sequence number.
 *   `registrations#<hour>#<slot>` are the hour's registration counts (`registrationCountSlot`: the
 *   source's tag and its count): at most that many items an hour, however many sources register.
 * - `athletes`: the set of athletes whose tokens are stored (`ids`), kept with each sign-in and deletion
 *   (made by one scan on a table written before it existed); `unadmitted#<id>`: since when an athlete is
 *   no longer admitted; `grants-ended#<id>`: when their last grant was ended as a precaution; `deauth#<athlete>#<day>`: the deauthorization checks of the athlete that day.
 * - `athlete#<id>`: the athlete's Strava tokens, credentials/stores/dynamodb-store.ts (compare-and-swap on
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
  ScanCommand,
  UpdateItemCommand,
  type AttributeValue,
} from "@aws-sdk/client-dynamodb";
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import {
  CredentialStoreError,
  type CredentialSnapshot,
  type SaveOutcome,
  type StoredCredentials,
  type TokenSet,
} from "../../credentials/credential-store.ts";
import { awsStoreError } from "../../credentials/stores/aws-errors.ts";
import { DynamoDbCredentialStore } from "../../credentials/stores/dynamodb-store.ts";
import {
  fairShareWindows,
  registrationCountSlot,
  registrationWindow,
  type AthleteCredentialStore,
  type AuthorizationCodeRecord,
  type CodeRedemption,
  type FairShare,
  type FairShareVerdict,
  type FairShareWindow,
  type GrantRecord,
  type OAuthStore,
  type RateVerdict,
  type RegisteredClient,
  type RegistrationLimits,
  type RegistrationPlacement,
  type StoredAthlete,
} from "./oauth-store.ts";
import {
  leaveRing,
  parseRing,
  placeInRing,
  serializeRing,
  startSignInInRing,
  type RegistrationRing,
  type RingPlacement,
} from "./registration-ring.ts";
import { defaultStoreTimeoutMs } from "../../credentials/store-deadline.ts";

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

/** The item of the unused registrations' places, and how often a write of it may lose to another instance's in a row. */
const ringKey = "registration#places";
const ringAttempts = 8;

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

  async countRegistration(
    source: string,
    limits: Pick<RegistrationLimits, "perSourcePerHour" | "countSlots">,
    nowMs: number,
    signal: AbortSignal,
  ): Promise<RateVerdict> {
    const { hour, endsMs } = registrationWindow(nowMs);
    const { slot, tag } = registrationCountSlot(await this.signingKey(signal), source, limits.countSlots);
    const key = { pk: { S: `registrations#${hour}#${slot}` } };
    const values = { ":tag": { B: tag }, ":one": { N: "1" }, ":ttl": { N: String(Math.floor(endsMs / 1000) + 3600) } };
    const refused: RateVerdict = { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((endsMs - nowMs) / 1000)) };
    for (let attempt = 0; attempt < 3; attempt++) {
      // The source's own count, below the limit: one more.
      const counted = await this.#writeIf("UpdateItem", signal, () =>
        this.#client.send(
          new UpdateItemCommand({
            TableName: this.#table,
            Key: key,
            UpdateExpression: "ADD #count :one SET #ttl = :ttl",
            ConditionExpression: "tag = :tag AND #count < :limit",
            ExpressionAttributeNames: { "#count": "count", "#ttl": "ttl" },
            ExpressionAttributeValues: { ...values, ":limit": { N: String(limits.perSourcePerHour) } },
          }),
          { abortSignal: signal },
        ),
      );
      if (counted) return { admitted: true };
      // The slot is empty or another source's: this source takes it over, starting at one.
      const taken = await this.#writeIf("PutItem", signal, () =>
        this.#client.send(
          new PutItemCommand({
            TableName: this.#table,
            Item: { ...key, tag: { B: tag }, count: { N: "1" }, ttl: values[":ttl"] },
            ConditionExpression: "attribute_not_exists(tag) OR tag <> :tag",
            ExpressionAttributeValues: { ":tag": values[":tag"] },
          }),
          { abortSignal: signal },
        ),
      );
      if (taken) return { admitted: true };
      // The slot is this source's: at its limit, unless it was taken over between the two writes.
      const current = await this.#getItem(key.pk.S, signal);
      const own = current?.["tag"]?.B !== undefined && Buffer.from(current["tag"].B).equals(tag);
      if (own && Number(current?.["count"]?.N ?? 0) >= limits.perSourcePerHour) return refused;
    }
    return refused;
  }

  async registerClient(
    client: RegisteredClient,
    placement: { source: string; capacity: number; nowMs: number },
    signal: AbortSignal,
  ): Promise<RegistrationPlacement> {
    let recordWritten = false;
    const decision = await this.#changeRing<RingPlacement>(signal, async (ring) => {
      const newcomer = { clientId: client.client_id, source: placement.source, expiresAt: client.expires_at };
      const outcome = placeInRing(ring, newcomer, placement.capacity, Math.floor(placement.nowMs / 1000));
      if (!outcome.placed) return { result: outcome };
      // The record before its place: a place never names a registration that is not there.
      const item = this.#item(`client#${client.client_id}`, { ...client, unused_seq: outcome.seq }, client.expires_at, undefined);
      item["unused_seq"] = { N: String(outcome.seq) };
      await this.#call("PutItem", signal, () =>
        this.#client.send(new PutItemCommand({ TableName: this.#table, Item: item }), { abortSignal: signal }),
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
    const stored = await this.#get<RegisteredClient>(`client#${clientId}`, signal);
    if (stored?.unused_seq === undefined || stored.sign_in_until !== undefined) return;
    const until = Math.floor(untilMs / 1000);
    // The places first: marked there, it is not evicted; the record's mark only spares later requests this work.
    await this.#changeRing(signal, (ring) => Promise.resolve({ next: startSignInInRing(ring, clientId, until), result: undefined }));
    await this.#writeIf("UpdateItem", signal, () =>
      this.#client.send(
        new UpdateItemCommand({
          TableName: this.#table,
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
    const stored = await this.#get<RegisteredClient>(`client#${clientId}`, signal);
    if (stored === undefined) return;
    const { unused_seq: place, sign_in_until: _signIn, ...kept } = stored;
    // On condition that it is still there: an eviction in between removed it for good.
    await this.#writeIf("UpdateItem", signal, () =>
      this.#client.send(
        new UpdateItemCommand({
          TableName: this.#table,
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
    return this.#get<RegisteredClient>(`client#${clientId}`, signal);
  }

  async spendSignInState(stateId: string, expiresAt: number, signal: AbortSignal): Promise<boolean> {
    return this.#writeIf("PutItem", signal, () =>
      this.#client.send(
        new PutItemCommand({
          TableName: this.#table,
          Item: { pk: { S: `signin-state#${stateId}` }, ttl: { N: String(expiresAt) } },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
        { abortSignal: signal },
      ),
    );
  }

  async putCode(record: AuthorizationCodeRecord, signal: AbortSignal): Promise<void> {
    await this.#put(`code#${record.code_sha256}`, record, record.expires_at, record.athlete_id, signal);
  }

  async getCode(codeSha256: string, signal: AbortSignal): Promise<AuthorizationCodeRecord | undefined> {
    return this.#get<AuthorizationCodeRecord>(`code#${codeSha256}`, signal);
  }

  async redeemCode(codeSha256: string, grantId: string, signal: AbortSignal): Promise<CodeRedemption> {
    const record = await this.getCode(codeSha256, signal);
    if (record === undefined) return { redeemed: false, grantId: undefined };
    if (record.redeemed_grant !== undefined) return { redeemed: false, grantId: record.redeemed_grant };
    const redeemed = await this.#writeIf("UpdateItem", signal, () =>
      this.#client.send(
        new UpdateItemCommand({
          TableName: this.#table,
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
    await this.#put(`grant#${grant.grant_id}`, grant, grant.expires_at, grant.athlete_id, signal);
  }

  async getGrant(grantId: string, signal: AbortSignal): Promise<GrantRecord | undefined> {
    return this.#get<GrantRecord>(`grant#${grantId}`, signal);
  }

  async replaceGrant(next: GrantRecord, signal: AbortSignal): Promise<boolean> {
    return this.#writeIf("PutItem", signal, () =>
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
      this.#client.send(
        new DeleteItemCommand({ TableName: this.#table, Key: { pk: { S: `grant#${grantId}` } }, ReturnValues: "ALL_OLD" }),
        { abortSignal: signal },
      ),
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
    const claimed = await this.#writeIf("PutItem", signal, () =>
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

  async resetOwner(signal: AbortSignal): Promise<void> {
    await this.#call("DeleteItem", signal, () =>
      this.#client.send(new DeleteItemCommand({ TableName: this.#table, Key: { pk: { S: "owner" } } }), { abortSignal: signal }),
    );
  }

  credentialStoreFor(athleteId: string): AthleteCredentialStore {
    if (!/^\d{1,20}$/.test(athleteId)) throw new TypeError(`not a Strava athlete id: ${athleteId}`);
    const tokens = new DynamoDbCredentialStore({
      tableName: this.#table,
      athleteId,
      key: { name: "pk", value: `athlete#${athleteId}` },
      region: this.#options.region,
      application: this.#options.application,
      requestTimeoutMs: this.#options.requestTimeoutMs ?? defaultStoreTimeoutMs,
      client: this.#client,
    });
    return new ListedAthleteCredentials(tokens, (signal) => this.#updateAthleteSet("ADD", athleteId, signal));
  }

  async hasAthlete(athleteId: string, signal: AbortSignal): Promise<boolean> {
    return (await this.#getItem(`athlete#${athleteId}`, signal)) !== undefined;
  }

  async deleteAthlete(athleteId: string, signal: AbortSignal): Promise<void> {
    const keys = new Set([
      ...(await this.#keysOf(athleteId, signal)),
      `athlete#${athleteId}`,
      `unadmitted#${athleteId}`,
      `grants-ended#${athleteId}`,
    ]);
    for (const pk of keys) {
      await this.#call("DeleteItem", signal, () =>
        this.#client.send(new DeleteItemCommand({ TableName: this.#table, Key: { pk: { S: pk } } }), { abortSignal: signal }),
      );
    }
    await this.#updateAthleteSet("DELETE", athleteId, signal);
  }

  async storedAthletes(signal: AbortSignal): Promise<StoredAthlete[]> {
    let ids = (await this.#getItem("athletes", signal))?.["ids"]?.SS;
    if (ids === undefined) ids = await this.#scanStoredAthletes(signal);
    const athletes: StoredAthlete[] = [];
    for (const athleteId of ids) {
      const since = Number((await this.#getItem(`unadmitted#${athleteId}`, signal))?.["since_ms"]?.N);
      const ended = Number((await this.#getItem(`grants-ended#${athleteId}`, signal))?.["at_ms"]?.N);
      athletes.push({
        athleteId,
        unadmittedSinceMs: Number.isFinite(since) && since > 0 ? since : undefined,
        grantsEndedAtMs: Number.isFinite(ended) && ended > 0 ? ended : undefined,
      });
    }
    return athletes;
  }

  async markUnadmitted(athleteId: string, sinceMs: number, signal: AbortSignal): Promise<number> {
    const written = await this.#writeIf("PutItem", signal, () =>
      this.#client.send(
        new PutItemCommand({
          TableName: this.#table,
          Item: { pk: { S: `unadmitted#${athleteId}` }, athlete_id: { S: athleteId }, since_ms: { N: String(sinceMs) } },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
        { abortSignal: signal },
      ),
    );
    if (written) return sinceMs;
    return Number((await this.#getItem(`unadmitted#${athleteId}`, signal))?.["since_ms"]?.N) || sinceMs;
  }

  async clearUnadmitted(athleteId: string, signal: AbortSignal): Promise<void> {
    await this.#call("DeleteItem", signal, () =>
      this.#client.send(new DeleteItemCommand({ TableName: this.#table, Key: { pk: { S: `unadmitted#${athleteId}` } } }), {
        abortSignal: signal,
      }),
    );
  }

  async markGrantsEnded(athleteId: string, atMs: number, signal: AbortSignal): Promise<void> {
    await this.#call("PutItem", signal, () =>
      this.#client.send(
        new PutItemCommand({
          TableName: this.#table,
          Item: { pk: { S: `grants-ended#${athleteId}` }, athlete_id: { S: athleteId }, at_ms: { N: String(atMs) } },
        }),
        { abortSignal: signal },
      ),
    );
  }

  async clearGrantsEnded(athleteId: string, signal: AbortSignal): Promise<void> {
    await this.#call("DeleteItem", signal, () =>
      this.#client.send(new DeleteItemCommand({ TableName: this.#table, Key: { pk: { S: `grants-ended#${athleteId}` } } }), {
        abortSignal: signal,
      }),
    );
  }

  async countUpstreamRequest(
    athleteId: string,
    read: boolean,
    share: FairShare,
    nowMs: number,
    signal: AbortSignal,
  ): Promise<FairShareVerdict> {
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
    const counted = await this.#writeIf("UpdateItem", signal, () =>
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

  async claimDeauthorizationCheck(athleteId: string, dailyLimit: number, nowMs: number, signal: AbortSignal): Promise<boolean> {
    const { day, quarter, dayEndsMs } = fairShareWindows(nowMs);
    return this.#writeIf("UpdateItem", signal, () =>
      this.#client.send(
        new UpdateItemCommand({
          TableName: this.#table,
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

  async sweepExpired(): Promise<void> {
    // DynamoDB's TTL removes expired items; reads already treat them as absent.
  }

  async signingKey(signal: AbortSignal): Promise<Uint8Array> {
    if (this.#key) return this.#key;
    let text: string | undefined;
    try {
      text = (
        await this.#secrets.send(new GetSecretValueCommand({ SecretId: this.#options.signingKeySecret, VersionStage: "AWSCURRENT" }), {
          abortSignal: signal,
        })
      ).SecretString;
    } catch (error) {
      throw awsStoreError(error, {
        call: "GetSecretValue",
        action: "read",
        description: `signing key secret "${this.#options.signingKeySecret}"`,
        permission: "the role secretsmanager:GetSecretValue on it",
        signal,
      });
    }
    if (text === undefined || text.length < 32) {
      throw new CredentialStoreError(
        `The signing key secret "${this.#options.signingKeySecret}" must hold a string of at least 32 characters (the template generates 64).`,
      );
    }
    this.#key = new TextEncoder().encode(text);
    return this.#key;
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
    for (let attempt = 1; ; attempt++) {
      const item = await this.#getItem(ringKey, signal);
      const revision = item === undefined ? undefined : Number(item["revision"]?.N ?? "0");
      const { next, result } = await change(parseRing(item?.["places"]?.S));
      if (next === undefined) return result;
      const written = await this.#writeIf("PutItem", signal, () =>
        this.#client.send(
          new PutItemCommand({
            TableName: this.#table,
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
    await this.#writeIf("DeleteItem", signal, () =>
      this.#client.send(
        new DeleteItemCommand({
          TableName: this.#table,
          Key: { pk: { S: `client#${clientId}` } },
          ...(seq === undefined
            ? { ConditionExpression: "attribute_exists(unused_seq)" }
            : { ConditionExpression: "unused_seq = :seq", ExpressionAttributeValues: { ":seq": { N: String(seq) } } }),
        }),
        { abortSignal: signal },
      ),
    );
  }

  #item(pk: string, record: object, expiresAt: number, athleteId: string | undefined): Item {
    const item: Item = { pk: { S: pk }, record: { S: JSON.stringify(record) }, ttl: { N: String(expiresAt) } };
    if (athleteId !== undefined) item["athlete_id"] = { S: athleteId };
    if ("revision" in record) item["revision"] = { N: String((record as { revision: number }).revision) };
    return item;
  }

  async #put(pk: string, record: object, expiresAt: number, athleteId: string | undefined, signal: AbortSignal): Promise<void> {
    await this.#call("PutItem", signal, () =>
      this.#client.send(new PutItemCommand({ TableName: this.#table, Item: this.#item(pk, record, expiresAt, athleteId) }), {
        abortSignal: signal,
      }),
    );
  }

  async #get<T extends { expires_at: number }>(pk: string, signal: AbortSignal): Promise<T | undefined> {
    const item = await this.#getItem(pk, signal);
    return item ? this.#live<T>(item) : undefined;
  }

  async #getItem(pk: string, signal: AbortSignal): Promise<Item | undefined> {
    const answer = await this.#call("GetItem", signal, () =>
      this.#client.send(new GetItemCommand({ TableName: this.#table, Key: { pk: { S: pk } }, ConsistentRead: true }), {
        abortSignal: signal,
      }),
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

  async #updateAthleteSet(action: "ADD" | "DELETE", athleteId: string, signal: AbortSignal): Promise<void> {
    await this.#call("UpdateItem", signal, () =>
      this.#client.send(
        new UpdateItemCommand({
          TableName: this.#table,
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
    const ids: string[] = [];
    let start: Item | undefined;
    do {
      const page = await this.#call("Scan", signal, () =>
        this.#client.send(
          new ScanCommand({
            TableName: this.#table,
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

  /** A conditional write: true when it was made, false when its condition did not hold. */
  async #writeIf(call: "PutItem" | "UpdateItem" | "DeleteItem", signal: AbortSignal, write: () => Promise<unknown>): Promise<boolean> {
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

/** An athlete's tokens whose sign-in also enters the athlete in the set of stored athletes (read at start to check admission). */
class ListedAthleteCredentials implements AthleteCredentialStore {
  readonly description: string;
  readonly #tokens: DynamoDbCredentialStore;
  readonly #list: (signal: AbortSignal) => Promise<void>;

  constructor(tokens: DynamoDbCredentialStore, list: (signal: AbortSignal) => Promise<void>) {
    this.#tokens = tokens;
    this.#list = list;
    this.description = tokens.description;
  }

  load(signal: AbortSignal): Promise<CredentialSnapshot> {
    return this.#tokens.load(signal);
  }

  saveTokens(expected: CredentialSnapshot, tokens: TokenSet, signal: AbortSignal): Promise<SaveOutcome> {
    return this.#tokens.saveTokens(expected, tokens, signal);
  }

  async writeAuthorization(credentials: Required<StoredCredentials>, signal: AbortSignal): Promise<void> {
    await this.#tokens.writeAuthorization(credentials, signal);
    await this.#list(signal);
  }
}
