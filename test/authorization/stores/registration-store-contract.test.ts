/**
 * The registration store's contract, checked the same way on both backends (local files, and DynamoDB on
 * moto_server): registrations round-trip and expire; unused registrations take places shared out by network (no
 * IPv6 /64 or /48 and no IPv4 /24 holds more than 5%, no IPv6 /32 more than 10%; a newcomer from a full network
 * evicts that network's own oldest), a full set evicts the oldest registration of the network holding the most
 * places, one whose sign-in is in progress is not evicted until that sign-in expires (a second start does not
 * extend it), when nothing can go the newcomer is refused with when to retry, and a kept one leaves the places;
 * registrations are counted per source and hour in a fixed number of counts, however many sources.
 */
import { describe, expect, it } from "vitest";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { DynamoDBClient, ScanCommand } from "@aws-sdk/client-dynamodb";
import { registrationCountSlot, type RegisteredClient, type RegistrationStore } from "../../../authorization/stores/registration-store.ts";
import { testDayAt } from "../../support/test-clock.ts";
import { signal, storeBackends } from "./store-backends.ts";

const now = (): number => Math.floor(Date.now() / 1000);
const countKey = Buffer.alloc(32, 7);

const unusedClient = (id: string, expiresAt = now() + 3600): RegisteredClient => ({
  client_id: id,
  client_id_issued_at: now(),
  redirect_uris: ["https://a.example/cb"],
  token_endpoint_auth_method: "none",
  grant_types: ["authorization_code"],
  response_types: ["code"],
  expires_at: expiresAt,
});

/** How many registration counts a fresh backend keeps (9 bytes each in files, an item each in DynamoDB). */
async function countsKept(backend: string, place: string): Promise<number> {
  if (backend === "local files") {
    const counts = join(place, "registrations");
    const sizes = readdirSync(counts)
      .filter((name) => name.endsWith(".counts"))
      .map((name) => statSync(join(counts, name)).size);
    return sizes.reduce((a, b) => a + b, 0) / 9;
  }
  const client = new DynamoDBClient({ region: "us-west-2" });
  try {
    const page = await client.send(
      new ScanCommand({
        TableName: place,
        FilterExpression: "begins_with(pk, :counts)",
        ExpressionAttributeValues: { ":counts": { S: "registrations#" } },
      }),
    );
    return page.Count ?? 0;
  } finally {
    client.destroy();
  }
}

describe.each(storeBackends("registration-store"))("the registration store on %s", (name, { open, fresh }) => {
  const registrations = async (): Promise<RegistrationStore> => (await open()).registrations;
  const freshRegistrations = async (): Promise<RegistrationStore> => (await fresh()).stores.registrations;

  it("registrations round-trip; expired ones and ids of another shape are absent", async () => {
    const store = await registrations();
    const placement = { source: "203.0.113.1", capacity: 100, nowMs: Date.now() };
    expect(await store.registerClient(unusedClient("fc_1", now() + 60), placement, signal())).toEqual({ placed: true });
    expect((await (await registrations()).getClient("fc_1", signal()))?.redirect_uris).toEqual(["https://a.example/cb"]);
    await store.registerClient(unusedClient("fc_old", now() - 1), { ...placement, source: "203.0.114.1" }, signal());
    expect(await store.getClient("fc_old", signal())).toBeUndefined();
    expect(await store.getClient("../../etc/passwd", signal())).toBeUndefined();
  });

  // Places for 40 unused registrations: an IPv6 /64 or /48 or an IPv4 /24 may hold 2 (5%), an IPv6 /32 4 (10%).
  const capacity = 40;
  const place = (store: RegistrationStore, id: string, source: string, nowMs = Date.now()) =>
    store.registerClient(unusedClient(id), { source, capacity, nowMs }, signal());
  const present = (store: RegistrationStore, ids: string[]): Promise<boolean[]> =>
    Promise.all(ids.map(async (id) => (await store.getClient(id, signal())) !== undefined));

  it("no network holds more than its share of the places: a newcomer from a full network evicts that network's own oldest", async () => {
    const store = await freshRegistrations();
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
    const store = await freshRegistrations();
    const older = Array.from({ length: 36 }, (_, n) => `fc_v4_${n}`);
    for (const [n, id] of older.entries()) await place(store, id, `203.0.${n}.1`);
    const heavy = [1, 2, 3, 4].map((n) => `fc_v6_${n}`);
    for (const [n, id] of heavy.entries()) await place(store, id, `2001:dba:${n}:1::/64`);
    expect(await place(store, "fc_newcomer", "192.0.2.1")).toEqual({ placed: true });
    expect(await present(store, heavy)).toEqual([false, true, true, true]);
    expect((await present(store, [...older, "fc_newcomer"])).every(Boolean)).toBe(true);
  });

  it("a registration signing in is not evicted until its sign-in expires (a second start does not extend it), and counts toward its network's share", async () => {
    const store = await freshRegistrations();
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
    const store = await freshRegistrations();
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
    const store = await freshRegistrations();
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
    const store = await registrations();
    const t = testDayAt("10:20:00");
    const slotOf = (source: string) => registrationCountSlot(countKey, source, 4_096);
    const source = `203.0.113.${Math.floor(Math.random() * 200)}`;
    expect(await store.countRegistration(slotOf(source), 2, t, signal())).toEqual({ admitted: true });
    expect(await (await registrations()).countRegistration(slotOf(source), 2, t, signal())).toEqual({ admitted: true });
    expect(await store.countRegistration(slotOf(source), 2, t, signal())).toEqual({ admitted: false, retryAfterSeconds: 40 * 60 });
    expect(await store.countRegistration(slotOf(source), 2, t, signal())).toEqual({ admitted: false, retryAfterSeconds: 40 * 60 });
    expect(await store.countRegistration(slotOf(`${source}1`), 2, t, signal())).toEqual({ admitted: true });
    expect(await store.countRegistration(slotOf(source), 2, t + 40 * 60_000, signal())).toEqual({ admitted: true });
  });

  it("the counts take a fixed number of places an hour, however many sources register, and never refuse a source for another's", async () => {
    const { stores, place: where } = await fresh();
    const store = stores.registrations;
    const t = testDayAt("11:05:00");
    const slotOf = (source: string) => registrationCountSlot(countKey, source, 8);
    for (let n = 0; n < 100; n++)
      expect(await store.countRegistration(slotOf(`198.18.0.${n}`), 2, t, signal())).toEqual({ admitted: true });
    expect(await countsKept(name, where)).toBeLessThanOrEqual(8);
    // Two sources whose counts share a place: each is refused only for its own registrations.
    const first = "192.0.2.1";
    const second = Array.from({ length: 200 }, (_, n) => `192.0.2.${n + 2}`).find(
      (source) => slotOf(source).slot === slotOf(first).slot,
    ) as string;
    const later = t + 60 * 60_000;
    expect(await store.countRegistration(slotOf(first), 2, later, signal())).toEqual({ admitted: true });
    expect(await store.countRegistration(slotOf(first), 2, later, signal())).toEqual({ admitted: true });
    expect((await store.countRegistration(slotOf(first), 2, later, signal())).admitted).toBe(false);
    expect(await store.countRegistration(slotOf(second), 2, later, signal())).toEqual({ admitted: true });
  });
});
