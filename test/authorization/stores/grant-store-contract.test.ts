/**
 * The grant store's contract, checked the same way on both backends (local files, and DynamoDB on moto_server):
 * a Strava sign-in state is spent by exactly one caller, on any instance; codes round-trip and expire, and a
 * code is redeemed by exactly one of several concurrent callers while the others learn the grant it bought; a
 * grant is replaced only from the revision it was read at (one of two concurrent rotations wins); forgetting an
 * athlete removes their grants and codes and nobody else's.
 */
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../../common/digests.ts";
import type { AuthorizationCodeRecord, GrantRecord, GrantStore } from "../../../authorization/stores/grant-store.ts";
import { signal, storeBackends } from "./store-backends.ts";

const now = (): number => Math.floor(Date.now() / 1000);

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

const code = (athlete: string, expiresAt = now() + 60): AuthorizationCodeRecord => ({
  code_sha256: sha256Hex(`c-${Math.random()}`),
  client_id: "fc_1",
  redirect_uri: "https://a.example/cb",
  code_challenge: "x",
  scope: "fitness:read",
  resource: "r",
  athlete_id: athlete,
  client_name: "A",
  expires_at: expiresAt,
});

describe.each(storeBackends("grant-store"))("the grant store on %s", (_name, { open }) => {
  const grants = async (): Promise<GrantStore> => (await open()).grants;

  it("a Strava sign-in state is spent by exactly one of several concurrent callers, on any instance", async () => {
    const stateId = crypto.randomUUID().replace(/-/g, "").slice(0, 22);
    const expiresAt = now() + 900;
    const instances = await Promise.all([grants(), grants(), grants(), grants()]);
    const spent = await Promise.all(instances.map((store) => store.spendSignInState(stateId, expiresAt, signal())));
    expect(spent.filter(Boolean)).toHaveLength(1);
    expect(await (await grants()).spendSignInState(stateId, expiresAt, signal())).toBe(false);
    expect(await (await grants()).spendSignInState(`${stateId.slice(0, 21)}x`, expiresAt, signal())).toBe(true);
  });

  it("codes round-trip; expired ones are absent; a code is redeemed once among concurrent callers, who learn its grant", async () => {
    const store = await grants();
    const issued = code("1");
    await store.putCode(issued, signal());
    expect(await store.getCode(issued.code_sha256, signal())).toEqual(issued);
    const expired = code("1", now() - 1);
    await store.putCode(expired, signal());
    expect(await store.getCode(expired.code_sha256, signal())).toBeUndefined();
    const grantIds = Array.from({ length: 5 }, () => crypto.randomUUID());
    const instances = await Promise.all(grantIds.map(() => grants()));
    const redeemed = await Promise.all(grantIds.map((grantId, n) => instances[n]!.redeemCode(issued.code_sha256, grantId, signal())));
    const winner = grantIds[redeemed.findIndex((outcome) => outcome.redeemed)];
    expect(redeemed.filter((outcome) => outcome.redeemed)).toHaveLength(1);
    for (const outcome of redeemed) if (!outcome.redeemed) expect(outcome.grantId).toBe(winner);
    expect((await store.getCode(issued.code_sha256, signal()))?.redeemed_grant).toBe(winner);
    expect(await store.redeemCode(sha256Hex("never issued"), crypto.randomUUID(), signal())).toEqual({
      redeemed: false,
      grantId: undefined,
    });
  });

  it("a grant is replaced only from the revision it was read at; one of two concurrent rotations wins", async () => {
    const store = await grants();
    const id = crypto.randomUUID();
    await store.createGrant(grant(id, "100"), signal());
    const [first, second] = await Promise.all([grants(), grants()]);
    const results = await Promise.all([
      first.replaceGrant(grant(id, "100", 2), signal()),
      second.replaceGrant({ ...grant(id, "100", 2), refresh_sha256: "other" }, signal()),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await store.getGrant(id, signal()))?.revision).toBe(2);
    expect(await store.replaceGrant(grant(id, "100", 2), signal())).toBe(false);
    expect((await store.grantsOf("100", signal())).map((g) => g.grant_id)).toContain(id);
    expect((await store.deleteGrant(id, signal()))?.grant_id).toBe(id);
    expect(await store.getGrant(id, signal())).toBeUndefined();
    expect(await store.deleteGrant(id, signal())).toBeUndefined();
  });

  it("forgetting an athlete removes their grants and codes, and nobody else's", async () => {
    const store = await grants();
    const theirs = { grant: crypto.randomUUID(), code: code("700") };
    const others = { grant: crypto.randomUUID(), code: code("701") };
    await store.createGrant(grant(theirs.grant, "700"), signal());
    await store.createGrant(grant(others.grant, "701"), signal());
    await store.putCode(theirs.code, signal());
    await store.putCode(others.code, signal());
    await store.forgetAthlete("700", signal());
    expect(await store.grantsOf("700", signal())).toEqual([]);
    expect(await store.getCode(theirs.code.code_sha256, signal())).toBeUndefined();
    expect((await store.grantsOf("701", signal())).map((g) => g.grant_id)).toEqual([others.grant]);
    expect(await store.getCode(others.code.code_sha256, signal())).toEqual(others.code);
  });
});
