/**
 * The OAuth store's contract, checked the same way on both implementations (local files, and DynamoDB
 * with the signing key in Secrets Manager on moto_server): records round-trip and expire; unused
 * registrations take places shared out by network (no IPv6 /64 or /48 and no IPv4 /24 holds more than 5%,
 * no IPv6 /32 more than 10%; a newcomer from a full network evicts that network's own oldest), a full set
 * evicts the oldest registration of the network holding the most places, one whose sign-in is in progress
 * is not evicted until that sign-in expires (a second start does not extend it), when nothing can go the
 * newcomer is refused with when to retry, and a kept one leaves the places; registrations are counted per
 * source and hour in a fixed number of counts, however many sources; a Strava sign-in state is spent by exactly
 * one caller; a code is redeemed by exactly one of several concurrent callers and the
 * others learn the grant it bought; a grant is replaced only from the revision it was read at (one of two
 * concurrent rotations wins); the owner is claimed once and can be reset; athletes no longer admitted are
 * recorded once, and when an athlete's grants ended as a precaution; the fair-share count stops at the share and says which window is full; deauthorization
 * checks take one place per athlete and quarter hour; deleting an athlete removes their tokens, grants
 * and counts; the signing key is the same for every instance.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileOAuthStore } from "../../../authorization/stores/file-oauth-store.ts";
import { DynamoDbOAuthStore } from "../../../authorization/stores/dynamodb-oauth-store.ts";
import { DynamoDBClient, ScanCommand } from "@aws-sdk/client-dynamodb";
import {
  registrationCountSlot,
  type FairShare,
  type GrantRecord,
  type OAuthStore,
  type RegisteredClient,
} from "../../../authorization/stores/oauth-store.ts";
import { sha256Hex } from "../../../common/digests.ts";
import { startMotoServer, type MotoServer } from "../../support/moto-server.ts";
import { createOAuthResources } from "../../support/oauth-aws.ts";
import { testDayAt } from "../../support/test-clock.ts";

const application = { client_id: "73519", client_secret: "s".repeat(40) };
const signal = (): AbortSignal => AbortSignal.timeout(5_000);
const now = (): number => Math.floor(Date.now() / 1000);
let moto: MotoServer;
let directory: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  moto = await startMotoServer();
  Object.assign(process.env, moto.env);
  await createOAuthResources({ table: "oauth-contract", secret: "oauth-contract-key" });
  directory = mkdtempSync(join(tmpdir(), "oauth-contract-"));
}, 60_000);

afterAll(async () => {
  process.env = savedEnv;
  await moto?.stop();
  rmSync(directory, { recursive: true, force: true });
});

interface Implementation {
  /** A store on the state every test of this implementation shares. */
  make: (now?: () => number) => OAuthStore;
  /** A store on state of its own (new directory, or new table and key), for tests that count what is stored. */
  fresh: () => Promise<OAuthStore>;
  /** How many registration counts that fresh store keeps (9 bytes each in files, an item each in DynamoDB). */
  countsKept: (store: OAuthStore) => Promise<number>;
}

let freshStores = 0;
const dynamoDb = (table: string, secret: string, now?: () => number): DynamoDbOAuthStore =>
  new DynamoDbOAuthStore({ tableName: table, signingKeySecret: secret, region: "us-west-2", application, ...(now ? { now } : {}) });
const freshPlaces = new Map<OAuthStore, string>();

const implementations: [string, Implementation][] = [
  [
    "local files",
    {
      make: (now) => new FileOAuthStore({ directory: join(directory, "state"), application, ...(now ? { now } : {}) }),
      fresh: () => {
        const path = join(directory, `fresh-${++freshStores}`);
        const store = new FileOAuthStore({ directory: path, application });
        freshPlaces.set(store, path);
        return Promise.resolve(store);
      },
      countsKept: (store) => {
        const counts = join(freshPlaces.get(store) as string, "registrations");
        const sizes = readdirSync(counts)
          .filter((name) => name.endsWith(".counts"))
          .map((name) => statSync(join(counts, name)).size);
        // A count is 9 bytes: the source's tag and its count.
        return Promise.resolve(sizes.reduce((a, b) => a + b, 0) / 9);
      },
    },
  ],
  [
    "DynamoDB + Secrets Manager",
    {
      make: (now) => dynamoDb("oauth-contract", "oauth-contract-key", now),
      fresh: async () => {
        const n = ++freshStores;
        await createOAuthResources({ table: `oauth-contract-${n}`, secret: `oauth-contract-key-${n}` });
        const store = dynamoDb(`oauth-contract-${n}`, `oauth-contract-key-${n}`);
        freshPlaces.set(store, `oauth-contract-${n}`);
        return store;
      },
      countsKept: async (store) => {
        const client = new DynamoDBClient({ region: "us-west-2" });
        try {
          const page = await client.send(
            new ScanCommand({
              TableName: freshPlaces.get(store),
              FilterExpression: "begins_with(pk, :counts)",
              ExpressionAttributeValues: { ":counts": { S: "registrations#" } },
            }),
          );
          return page.Count ?? 0;
        } finally {
          client.destroy();
        }
      },
    },
  ],
];

const grant = (id: string, athlete: string, revision = 1): GrantRecord => ({
  grant_id: id,
  athlete_id: athlete,
  client_id: "fc_test",
  client_name: "Test",
  scope: "fitness:read",
  resource: "http://127.0.0.1:3000/mcp",
  refresh_sha256: `r${revision}`,
  spent_sha256: [],
  created_at: now(),
  expires_at: now() + 3600,
  revision,
});

const unusedClient = (id: string, expiresAt = now() + 3600): RegisteredClient => ({
  client_id: id,
  client_id_issued_at: now(),
  redirect_uris: ["https://a.example/cb"],
  token_endpoint_auth_method: "none",
  grant_types: ["authorization_code"],
  response_types: ["code"],
  expires_at: expiresAt,
});

describe.each(implementations)("the OAuth store on %s", (_name, { make, fresh, countsKept }) => {
  it("clients and codes round-trip; expired ones are absent; a code is redeemed once among concurrent callers, who learn its grant", async () => {
    const store = make();
    const client = (id: string, expiresAt = now() + 60): RegisteredClient => ({
      client_id: id,
      client_id_issued_at: now(),
      redirect_uris: ["https://a.example/cb"],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code"],
      response_types: ["code"],
      expires_at: expiresAt,
    });
    const placement = { source: "203.0.113.1", capacity: 100, nowMs: Date.now() };
    expect(await store.registerClient(client("fc_1"), placement, signal())).toEqual({ placed: true });
    expect((await store.getClient("fc_1", signal()))?.redirect_uris).toEqual(["https://a.example/cb"]);
    await store.registerClient(client("fc_old", now() - 1), { ...placement, source: "203.0.114.1" }, signal());
    expect(await store.getClient("fc_old", signal())).toBeUndefined();
    expect(await store.getClient("../../etc/passwd", signal())).toBeUndefined();
    const code = {
      code_sha256: sha256Hex(`c-${Math.random()}`),
      client_id: "fc_1",
      redirect_uri: "https://a.example/cb",
      code_challenge: "x",
      scope: "fitness:read",
      resource: "r",
      athlete_id: "1",
      client_name: "A",
      expires_at: now() + 60,
    };
    await store.putCode(code, signal());
    expect(await store.getCode(code.code_sha256, signal())).toEqual(code);
    const grants = Array.from({ length: 5 }, () => crypto.randomUUID());
    const redeemed = await Promise.all(grants.map((grantId) => make().redeemCode(code.code_sha256, grantId, signal())));
    const winner = grants[redeemed.findIndex((outcome) => outcome.redeemed)];
    expect(redeemed.filter((outcome) => outcome.redeemed)).toHaveLength(1);
    for (const outcome of redeemed) if (!outcome.redeemed) expect(outcome.grantId).toBe(winner);
    expect((await store.getCode(code.code_sha256, signal()))?.redeemed_grant).toBe(winner);
    expect(await store.redeemCode(sha256Hex("never issued"), crypto.randomUUID(), signal())).toEqual({
      redeemed: false,
      grantId: undefined,
    });
  });

  // Places for 40 unused registrations: an IPv6 /64 or /48 or an IPv4 /24 may hold 2 (5%), an IPv6 /32 4 (10%).
  const capacity = 40;
  const place = (store: OAuthStore, id: string, source: string, nowMs = Date.now()) =>
    store.registerClient(unusedClient(id), { source, capacity, nowMs }, signal());
  const present = (store: OAuthStore, ids: string[]): Promise<boolean[]> =>
    Promise.all(ids.map(async (id) => (await store.getClient(id, signal())) !== undefined));

  it("no network holds more than its share of the places: a newcomer from a full network evicts that network's own oldest", async () => {
    const store = await fresh();
    for (const n of [1, 2, 3]) expect(await place(store, `fc_x${n}`, "2001:db8:1:1::/64")).toEqual({ placed: true });
    expect(await present(store, ["fc_x1", "fc_x2", "fc_x3"])).toEqual([false, true, true]);
    // Rotating /64s inside one /48.
    for (const n of [1, 2, 3]) await place(store, `fc_y${n}`, `2001:db8:2:${n}::/64`);
    expect(await present(store, ["fc_y1", "fc_y2", "fc_y3"])).toEqual([false, true, true]);
    // Rotating /48s inside one /32.
    for (const n of [1, 2, 3, 4, 5, 6]) await place(store, `fc_z${n}`, `2001:db9:${n}:1::/64`);
    expect(await present(store, ["fc_z1", "fc_z2", "fc_z3", "fc_z4", "fc_z5", "fc_z6"])).toEqual([false, false, true, true, true, true]);
    // Rotating IPv4 addresses inside one /24.
    for (const n of [1, 2, 3]) await place(store, `fc_w${n}`, `198.51.100.${n}`);
    expect(await present(store, ["fc_w1", "fc_w2", "fc_w3"])).toEqual([false, true, true]);
    // Nobody else paid for it.
    expect(await present(store, ["fc_x2", "fc_x3", "fc_y2", "fc_y3"])).toEqual([true, true, true, true]);
  });

  it("when every place is taken, the oldest registration of the network holding the most places goes", async () => {
    const store = await fresh();
    const older = Array.from({ length: 36 }, (_, n) => `fc_v4_${n}`);
    for (const [n, id] of older.entries()) await place(store, id, `203.0.${n}.1`);
    const heavy = [1, 2, 3, 4].map((n) => `fc_v6_${n}`);
    for (const [n, id] of heavy.entries()) await place(store, id, `2001:dba:${n}:1::/64`);
    expect(await place(store, "fc_newcomer", "192.0.2.1")).toEqual({ placed: true });
    expect(await present(store, heavy)).toEqual([false, true, true, true]);
    expect((await present(store, [...older, "fc_newcomer"])).every(Boolean)).toBe(true);
  });

  it("a registration signing in is not evicted until its sign-in expires (a second start does not extend it), and counts toward its network's share", async () => {
    const store = await fresh();
    const t = Date.now();
    const seconds = (ms: number): number => Math.floor(ms / 1000);
    await place(store, "fc_p1", "2001:db8:5:1::/64", t);
    await place(store, "fc_p2", "2001:db8:5:1::/64", t);
    await store.startSignIn("fc_p1", t + 15 * 60_000, signal());
    await store.startSignIn("fc_p2", t + 10 * 60_000, signal());
    expect((await store.getClient("fc_p1", signal()))?.sign_in_until).toBe(seconds(t + 15 * 60_000));
    // Its network's share is held by sign-ins in progress: refused until the first of them ends.
    expect(await place(store, "fc_p3", "2001:db8:5:1::/64", t + 1_000)).toEqual({
      placed: false,
      retryAfterSeconds: seconds(t + 10 * 60_000) - seconds(t + 1_000),
      heldBy: { width: "IPv6 /64" },
    });
    expect(await present(store, ["fc_p1", "fc_p2", "fc_p3"])).toEqual([true, true, false]);
    // Another network is not held up.
    expect(await place(store, "fc_q1", "2001:db8:6:1::/64", t + 1_000)).toEqual({ placed: true });
    // p2's sign-in expired: it goes, p1's did not.
    expect(await place(store, "fc_p3", "2001:db8:5:1::/64", t + 11 * 60_000)).toEqual({ placed: true });
    expect(await present(store, ["fc_p1", "fc_p2", "fc_p3"])).toEqual([true, false, true]);
    // Starting again does not extend p1's: after its 15 minutes it is the network's oldest and goes.
    await store.startSignIn("fc_p1", t + 60 * 60_000, signal());
    expect(await place(store, "fc_p4", "2001:db8:5:1::/64", t + 16 * 60_000)).toEqual({ placed: true });
    expect(await present(store, ["fc_p1", "fc_p3", "fc_p4"])).toEqual([false, true, true]);
  });

  it("when every place is held by a sign-in in progress, a newcomer is refused with when to retry", async () => {
    const store = await fresh();
    const t = Date.now();
    const seconds = (ms: number): number => Math.floor(ms / 1000);
    for (let n = 0; n < capacity; n++) {
      await place(store, `fc_held${n}`, `203.1.${n}.1`, t);
      await store.startSignIn(`fc_held${n}`, t + 15 * 60_000, signal());
    }
    expect(await place(store, "fc_late", "192.0.2.9", t + 5 * 60_000)).toEqual({
      placed: false,
      retryAfterSeconds: seconds(t + 15 * 60_000) - seconds(t + 5 * 60_000),
      heldBy: "every place",
    });
    expect(await place(store, "fc_late", "192.0.2.9", t + 15 * 60_000 + 1_000)).toEqual({ placed: true });
    expect(await present(store, ["fc_held0", "fc_held1", "fc_late"])).toEqual([false, true, true]);
  });

  it("a kept registration leaves the places: its network's share is free again, and it is never evicted", async () => {
    const store = await fresh();
    await place(store, "fc_k1", "2001:db8:7:1::/64");
    await place(store, "fc_k2", "2001:db8:7:1::/64");
    const keptUntil = now() + 7200;
    await store.keepClient("fc_k1", keptUntil, signal());
    await place(store, "fc_k3", "2001:db8:7:1::/64");
    expect(await present(store, ["fc_k1", "fc_k2", "fc_k3"])).toEqual([true, true, true]);
    for (const n of [4, 5, 6]) await place(store, `fc_k${n}`, "2001:db8:7:1::/64");
    expect(await present(store, ["fc_k1", "fc_k2", "fc_k3", "fc_k4", "fc_k5", "fc_k6"])).toEqual([true, false, false, false, true, true]);
    const kept = await store.getClient("fc_k1", signal());
    expect(kept?.unused_seq).toBeUndefined();
    expect(kept?.expires_at).toBe(keptUntil);
    expect((await store.getClient("fc_k6", signal()))?.unused_seq).toBeTypeOf("number");
  });

  it("registrations are counted per source and hour: past the limit, refused (and not counted) until the hour ends", async () => {
    const store = make();
    const limits = { perSourcePerHour: 2, countSlots: 4_096 };
    const t = testDayAt("10:20:00");
    const source = `203.0.113.${Math.floor(Math.random() * 200)}`;
    expect(await store.countRegistration(source, limits, t, signal())).toEqual({ admitted: true });
    expect(await store.countRegistration(source, limits, t, signal())).toEqual({ admitted: true });
    expect(await store.countRegistration(source, limits, t, signal())).toEqual({ admitted: false, retryAfterSeconds: 40 * 60 });
    expect(await store.countRegistration(source, limits, t, signal())).toEqual({ admitted: false, retryAfterSeconds: 40 * 60 });
    expect(await store.countRegistration(`${source}1`, limits, t, signal())).toEqual({ admitted: true });
    expect(await store.countRegistration(source, limits, t + 40 * 60_000, signal())).toEqual({ admitted: true });
  });

  it("the counts take a fixed number of places an hour, however many sources register, and never refuse a source for another's", async () => {
    const store = await fresh();
    const t = testDayAt("11:05:00");
    const limits = { perSourcePerHour: 2, countSlots: 8 };
    for (let n = 0; n < 100; n++) expect(await store.countRegistration(`198.18.0.${n}`, limits, t, signal())).toEqual({ admitted: true });
    expect(await countsKept(store)).toBeLessThanOrEqual(8);
    // Two sources whose counts share a place: each is refused only for its own registrations.
    const key = await store.signingKey(signal());
    const slotOf = (source: string): number => registrationCountSlot(key, source, limits.countSlots).slot;
    const first = "192.0.2.1";
    const second = Array.from({ length: 200 }, (_, n) => `192.0.2.${n + 2}`).find((source) => slotOf(source) === slotOf(first)) as string;
    const later = t + 60 * 60_000;
    expect(await store.countRegistration(first, limits, later, signal())).toEqual({ admitted: true });
    expect(await store.countRegistration(first, limits, later, signal())).toEqual({ admitted: true });
    expect((await store.countRegistration(first, limits, later, signal())).admitted).toBe(false);
    expect(await store.countRegistration(second, limits, later, signal())).toEqual({ admitted: true });
  });

  it("a grant is replaced only from the revision it was read at; one of two concurrent rotations wins", async () => {
    const store = make();
    const id = crypto.randomUUID();
    await store.createGrant(grant(id, "100"), signal());
    const results = await Promise.all([
      make().replaceGrant(grant(id, "100", 2), signal()),
      make().replaceGrant({ ...grant(id, "100", 2), refresh_sha256: "other" }, signal()),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await store.getGrant(id, signal()))?.revision).toBe(2);
    expect(await store.replaceGrant(grant(id, "100", 2), signal())).toBe(false);
    expect((await store.grantsOf("100", signal())).map((g) => g.grant_id)).toContain(id);
    expect((await store.deleteGrant(id, signal()))?.grant_id).toBe(id);
    expect(await store.getGrant(id, signal())).toBeUndefined();
    expect(await store.deleteGrant(id, signal())).toBeUndefined();
  });

  it("a Strava sign-in state is spent by exactly one of several concurrent callers, on any instance", async () => {
    const stateId = crypto.randomUUID().replace(/-/g, "").slice(0, 22);
    const expiresAt = now() + 900;
    const spent = await Promise.all([make(), make(), make(), make()].map((store) => store.spendSignInState(stateId, expiresAt, signal())));
    expect(spent.filter(Boolean)).toHaveLength(1);
    expect(await make().spendSignInState(stateId, expiresAt, signal())).toBe(false);
    expect(await make().spendSignInState(`${stateId.slice(0, 21)}x`, expiresAt, signal())).toBe(true);
  });

  it("the owner is claimed once, until the operator resets it", async () => {
    expect(await make().owner(signal())).toBeUndefined();
    const claims = await Promise.all(["7", "8", "9"].map((athlete) => make().claimOwner(athlete, signal())));
    expect(new Set(claims).size).toBe(1);
    expect(await make().claimOwner("10", signal())).toBe(claims[0]);
    expect(await make().owner(signal())).toBe(claims[0]);
    await make().resetOwner(signal());
    expect(await make().owner(signal())).toBeUndefined();
    expect(await make().claimOwner("10", signal())).toBe("10");
  });

  it("lists the stored athletes, records once since when one is no longer admitted, and when one's grants ended as a precaution", async () => {
    const store = make();
    for (const athlete of ["400", "401"]) {
      await store
        .credentialStoreFor(athlete)
        .writeAuthorization(
          { ...application, refresh_token: `rt-${athlete}`, access_token: `at-${athlete}`, expires_at: now() + 3600 },
          signal(),
        );
    }
    const t = testDayAt("09:00:00");
    expect(await store.markUnadmitted("400", t, signal())).toBe(t);
    expect(await make().markUnadmitted("400", t + 60_000, signal())).toBe(t);
    // When an athlete's last grant ended as a precaution: the latest time is kept.
    await store.markGrantsEnded("401", t, signal());
    await make().markGrantsEnded("401", t + 120_000, signal());
    const listed = (await make().storedAthletes(signal())).filter((athlete) => ["400", "401"].includes(athlete.athleteId));
    expect(listed.sort((a, b) => a.athleteId.localeCompare(b.athleteId))).toEqual([
      { athleteId: "400", unadmittedSinceMs: t, grantsEndedAtMs: undefined },
      { athleteId: "401", unadmittedSinceMs: undefined, grantsEndedAtMs: t + 120_000 },
    ]);
    await store.clearUnadmitted("400", signal());
    expect((await store.storedAthletes(signal())).find((athlete) => athlete.athleteId === "400")?.unadmittedSinceMs).toBeUndefined();
    await store.clearGrantsEnded("401", signal());
    expect((await store.storedAthletes(signal())).find((athlete) => athlete.athleteId === "401")?.grantsEndedAtMs).toBeUndefined();
    await store.markGrantsEnded("400", t, signal());
    await store.deleteAthlete("400", signal());
    expect((await store.storedAthletes(signal())).map((athlete) => athlete.athleteId)).not.toContain("400");
    await store
      .credentialStoreFor("400")
      .writeAuthorization({ ...application, refresh_token: "rt-400b", access_token: "at", expires_at: now() + 60 }, signal());
    expect((await store.storedAthletes(signal())).find((athlete) => athlete.athleteId === "400")).toEqual({
      athleteId: "400",
      unadmittedSinceMs: undefined,
      grantsEndedAtMs: undefined,
    });
  });

  it("a deauthorization check takes the athlete's place in the quarter hour, up to the day's limit", async () => {
    const store = make();
    const t = testDayAt("08:00:00");
    const athlete = String(500 + Math.floor(Math.random() * 1000));
    expect(await store.claimDeauthorizationCheck(athlete, 2, t, signal())).toBe(true);
    expect(await make().claimDeauthorizationCheck(athlete, 2, t + 60_000, signal())).toBe(false);
    expect(await store.claimDeauthorizationCheck(`${athlete}9`, 2, t, signal())).toBe(true);
    expect(await store.claimDeauthorizationCheck(athlete, 2, t + 15 * 60_000, signal())).toBe(true);
    expect(await store.claimDeauthorizationCheck(athlete, 2, t + 30 * 60_000, signal())).toBe(false);
    expect(await store.claimDeauthorizationCheck(athlete, 2, t + 86_400_000, signal())).toBe(true);
  });

  it("counts requests up to the athlete's share and names the full window", async () => {
    // The store's clock and the counted requests' times are one clock, pinned to the suite's day.
    const t = testDayAt("10:01:00");
    const store = make(() => t);
    const share: FairShare = { overall: { fifteenMinute: 3, daily: 100 }, read: { fifteenMinute: 2, daily: 100 } };
    expect((await store.countUpstreamRequest("200", true, share, t, signal())).admitted).toBe(true);
    expect((await store.countUpstreamRequest("200", true, share, t, signal())).admitted).toBe(true);
    expect(await store.countUpstreamRequest("200", true, share, t, signal())).toEqual({
      admitted: false,
      window: "read 15-minute",
      used: 2,
      share: 2,
    });
    expect((await store.countUpstreamRequest("200", false, share, t, signal())).admitted).toBe(true);
    expect(await store.countUpstreamRequest("200", false, share, t, signal())).toEqual({
      admitted: false,
      window: "overall 15-minute",
      used: 3,
      share: 3,
    });
    // Another athlete's share is their own; the next quarter hour starts afresh.
    expect((await store.countUpstreamRequest("201", true, share, t, signal())).admitted).toBe(true);
    expect((await store.countUpstreamRequest("200", true, share, t + 15 * 60_000, signal())).admitted).toBe(true);
  });

  it("deleting an athlete removes their Strava tokens, grants and counts, and nobody else's", async () => {
    const store = make();
    for (const athlete of ["300", "301"]) {
      await store
        .credentialStoreFor(athlete)
        .writeAuthorization(
          { ...application, refresh_token: `rt-${athlete}`, access_token: `at-${athlete}`, expires_at: now() + 3600 },
          signal(),
        );
      await store.createGrant(grant(crypto.randomUUID(), athlete), signal());
    }
    expect(await store.hasAthlete("300", signal())).toBe(true);
    expect((await store.credentialStoreFor("300").load(signal())).credentials.refresh_token).toBe("rt-300");
    await store.deleteAthlete("300", signal());
    expect(await store.hasAthlete("300", signal())).toBe(false);
    expect(await store.grantsOf("300", signal())).toEqual([]);
    await expect(store.credentialStoreFor("300").load(signal())).rejects.toThrow();
    expect(await store.hasAthlete("301", signal())).toBe(true);
    expect(await store.grantsOf("301", signal())).toHaveLength(1);
  });

  it("every instance signs with the same key of at least 32 bytes", async () => {
    const keys = await Promise.all([make().signingKey(signal()), make().signingKey(signal())]);
    expect(keys[0]?.length).toBeGreaterThanOrEqual(32);
    expect(Buffer.from(keys[0] as Uint8Array).equals(Buffer.from(keys[1] as Uint8Array))).toBe(true);
  });
});

describe("the local files", () => {
  it("are readable by their owner only", async () => {
    const store: OAuthStore = new FileOAuthStore({ directory: join(directory, "modes"), application });
    await store.signingKey(signal());
    await store.claimOwner("1", signal());
    await store
      .credentialStoreFor("1")
      .writeAuthorization({ ...application, refresh_token: "rt", access_token: "at", expires_at: now() + 60 }, signal());
    expect(statSync(join(directory, "modes")).mode & 0o777).toBe(0o700);
    for (const file of ["owner", "signing-key", "athletes/1.json"])
      expect(statSync(join(directory, "modes", file)).mode & 0o777, file).toBe(0o600);
  });

  it("a directory others may enter, or inside one others may write, is refused with the chmod that fixes it", () => {
    const loose = join(directory, "loose");
    mkdirSync(loose, { mode: 0o700 });
    chmodSync(loose, 0o777);
    expect(() => new FileOAuthStore({ directory: loose, application })).toThrow(
      `permissions 777). It holds the key that signs every access token: make it this user's alone (chmod 700 ${loose})`,
    );
    const open = join(directory, "open-parent");
    mkdirSync(open, { mode: 0o700 });
    chmodSync(open, 0o777);
    expect(() => new FileOAuthStore({ directory: join(open, "oauth"), application })).toThrow(
      `inside ${open}, which others may write to (permissions 777): they could swap it for theirs. Remove that write permission (chmod go-w ${open})`,
    );
  });

  it("a state.json of the earlier version is split into record files once: clients, codes, grants and the owner keep working", async () => {
    const legacyDirectory = join(directory, "legacy");
    mkdirSync(legacyDirectory, { mode: 0o700 });
    const grantId = crypto.randomUUID();
    const codeHash = sha256Hex("legacy code");
    const legacyClient = {
      client_id: "fc_legacyClient0000000000",
      client_id_issued_at: now(),
      redirect_uris: ["https://a.example/cb"],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code"],
      response_types: ["code"],
      expires_at: now() + 86_400,
    };
    const legacyCode = {
      code_sha256: codeHash,
      client_id: legacyClient.client_id,
      redirect_uri: "https://a.example/cb",
      code_challenge: "x",
      scope: "fitness:read",
      resource: "r",
      athlete_id: "42",
      client_name: "A",
      expires_at: now() + 60,
    };
    writeFileSync(
      join(legacyDirectory, "state.json"),
      JSON.stringify({
        owner: "42",
        clients: { [legacyClient.client_id]: legacyClient },
        codes: { [codeHash]: legacyCode },
        grants: { [grantId]: grant(grantId, "42") },
      }),
      { mode: 0o600 },
    );
    const stores: OAuthStore[] = [
      new FileOAuthStore({ directory: legacyDirectory, application }),
      new FileOAuthStore({ directory: legacyDirectory, application }),
    ];
    const [first, second] = await Promise.all(stores.map((store) => store.getGrant(grantId, signal())));
    expect(first?.athlete_id).toBe("42");
    expect(second?.athlete_id).toBe("42");
    expect(await stores[0]!.getClient(legacyClient.client_id, signal())).toEqual(legacyClient);
    expect(await stores[1]!.getCode(codeHash, signal())).toEqual(legacyCode);
    expect(await stores[0]!.owner(signal())).toBe("42");
    expect(existsSync(join(legacyDirectory, "state.json"))).toBe(false);
    expect(existsSync(join(legacyDirectory, "state.json.migrated"))).toBe(true);
  });
});
