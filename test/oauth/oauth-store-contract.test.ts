/**
 * The OAuth store's contract, checked the same way on both implementations (local files, and DynamoDB
 * with the signing key in Secrets Manager on moto_server): records round-trip and expire; a code is
 * redeemed by exactly one of several concurrent callers; a grant is replaced only from the revision it
 * was read at (one of two concurrent rotations wins); the owner is claimed once; the fair-share count
 * stops at the share and says which window is full; deleting an athlete removes their tokens, grants
 * and counts; the signing key is the same for every instance.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileOAuthStore } from "../../mcp-adapter/oauth/file-oauth-store.ts";
import { DynamoDbOAuthStore } from "../../mcp-adapter/oauth/dynamodb-oauth-store.ts";
import type { FairShare, GrantRecord, OAuthStore } from "../../mcp-adapter/oauth/oauth-store.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { createOAuthResources } from "../support/oauth-aws.ts";
import { testDayAt } from "../support/test-clock.ts";

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

const implementations: [string, (now?: () => number) => OAuthStore][] = [
  ["local files", (now) => new FileOAuthStore({ directory: join(directory, "state"), application, ...(now ? { now } : {}) })],
  ["DynamoDB + Secrets Manager", (now) => new DynamoDbOAuthStore({ tableName: "oauth-contract", signingKeySecret: "oauth-contract-key", region: "us-west-2", application, ...(now ? { now } : {}) })],
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

describe.each(implementations)("the OAuth store on %s", (_name, make) => {
  it("clients and codes round-trip; expired ones are absent; a code is redeemed once among concurrent callers", async () => {
    const store = make();
    await store.putClient({ client_id: "fc_1", client_id_issued_at: now(), redirect_uris: ["https://a.example/cb"], token_endpoint_auth_method: "none", grant_types: ["authorization_code"], response_types: ["code"], expires_at: now() + 60 }, signal());
    expect((await store.getClient("fc_1", signal()))?.redirect_uris).toEqual(["https://a.example/cb"]);
    await store.putClient({ client_id: "fc_old", client_id_issued_at: now(), redirect_uris: [], token_endpoint_auth_method: "none", grant_types: [], response_types: [], expires_at: now() - 1 }, signal());
    expect(await store.getClient("fc_old", signal())).toBeUndefined();
    const code = { code_sha256: `c-${Math.random()}`, client_id: "fc_1", redirect_uri: "https://a.example/cb", code_challenge: "x", scope: "fitness:read", resource: "r", athlete_id: "1", client_name: "A", expires_at: now() + 60 };
    await store.putCode(code, signal());
    expect(await store.getCode(code.code_sha256, signal())).toEqual(code);
    const redeemed = await Promise.all(Array.from({ length: 5 }, () => make().redeemCode(code.code_sha256, signal())));
    expect(redeemed.filter(Boolean)).toHaveLength(1);
    expect(await store.getCode(code.code_sha256, signal())).toBeUndefined();
  });

  it("a grant is replaced only from the revision it was read at; one of two concurrent rotations wins", async () => {
    const store = make();
    const id = crypto.randomUUID();
    await store.createGrant(grant(id, "100"), signal());
    const results = await Promise.all([make().replaceGrant(grant(id, "100", 2), signal()), make().replaceGrant({ ...grant(id, "100", 2), refresh_sha256: "other" }, signal())]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await store.getGrant(id, signal()))?.revision).toBe(2);
    expect(await store.replaceGrant(grant(id, "100", 2), signal())).toBe(false);
    expect((await store.grantsOf("100", signal())).map((g) => g.grant_id)).toContain(id);
    expect((await store.deleteGrant(id, signal()))?.grant_id).toBe(id);
    expect(await store.getGrant(id, signal())).toBeUndefined();
    expect(await store.deleteGrant(id, signal())).toBeUndefined();
  });

  it("the owner is claimed once", async () => {
    expect(await make().owner(signal())).toBeUndefined();
    const claims = await Promise.all(["7", "8", "9"].map((athlete) => make().claimOwner(athlete, signal())));
    expect(new Set(claims).size).toBe(1);
    expect(await make().claimOwner("10", signal())).toBe(claims[0]);
    expect(await make().owner(signal())).toBe(claims[0]);
  });

  it("counts requests up to the athlete's share and names the full window", async () => {
    // The store's clock and the counted requests' times are one clock, pinned to the suite's day.
    const t = testDayAt("10:01:00");
    const store = make(() => t);
    const share: FairShare = { overall: { fifteenMinute: 3, daily: 100 }, read: { fifteenMinute: 2, daily: 100 } };
    expect((await store.countUpstreamRequest("200", true, share, t, signal())).admitted).toBe(true);
    expect((await store.countUpstreamRequest("200", true, share, t, signal())).admitted).toBe(true);
    expect(await store.countUpstreamRequest("200", true, share, t, signal())).toEqual({ admitted: false, window: "read 15-minute", used: 2, share: 2 });
    expect((await store.countUpstreamRequest("200", false, share, t, signal())).admitted).toBe(true);
    expect(await store.countUpstreamRequest("200", false, share, t, signal())).toEqual({ admitted: false, window: "overall 15-minute", used: 3, share: 3 });
    // Another athlete's share is their own; the next quarter hour starts afresh.
    expect((await store.countUpstreamRequest("201", true, share, t, signal())).admitted).toBe(true);
    expect((await store.countUpstreamRequest("200", true, share, t + 15 * 60_000, signal())).admitted).toBe(true);
  });

  it("deleting an athlete removes their Strava tokens, grants and counts, and nobody else's", async () => {
    const store = make();
    for (const athlete of ["300", "301"]) {
      await store.credentialStoreFor(athlete).writeAuthorization({ ...application, refresh_token: `rt-${athlete}`, access_token: `at-${athlete}`, expires_at: now() + 3600 }, signal());
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
    const store = new FileOAuthStore({ directory: join(directory, "modes"), application });
    await store.signingKey();
    await store.claimOwner("1", signal());
    await store.credentialStoreFor("1").writeAuthorization({ ...application, refresh_token: "rt", access_token: "at", expires_at: now() + 60 }, signal());
    expect(statSync(join(directory, "modes")).mode & 0o777).toBe(0o700);
    for (const file of ["state.json", "signing-key", "athletes/1.json"]) expect(statSync(join(directory, "modes", file)).mode & 0o777, file).toBe(0o600);
  });
});
