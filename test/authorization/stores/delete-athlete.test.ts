/**
 * Deleting an athlete spans the stores' concerns (authorization/stores/delete-athlete.ts), on both backends (local
 * files, and DynamoDB on moto_server): their Strava tokens, grants, codes and request counts go, and nobody else's.
 */
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../../common/digests.ts";
import { deleteAthlete } from "../../../authorization/stores/delete-athlete.ts";
import type { FairShare } from "../../../authorization/stores/usage-store.ts";
import { testDayAt } from "../../support/test-clock.ts";
import { application, signal, storeBackends } from "./store-backends.ts";

const now = (): number => Math.floor(Date.now() / 1000);
const share: FairShare = { overall: { fifteenMinute: 1, daily: 100 }, read: { fifteenMinute: 1, daily: 100 } };

describe.each(storeBackends("delete-athlete"))("deleting an athlete on %s", (_name, { open }) => {
  it("removes their Strava tokens, grants, codes and counts, and nobody else's", async () => {
    const t = testDayAt("10:00:00");
    const stores = await open(() => t);
    const codes: Record<string, string> = {};
    for (const athlete of ["300", "301"]) {
      await stores
        .athleteCredentials(athlete)
        .writeAuthorization(
          { ...application, refresh_token: `rt-${athlete}`, access_token: `at-${athlete}`, expires_at: now() + 3600 },
          signal(),
        );
      await stores.athletes.recordStored(athlete, signal());
      await stores.grants.createGrant(
        {
          grant_id: crypto.randomUUID(),
          athlete_id: athlete,
          client_id: "fc_test",
          client_name: "Test",
          scope: "fitness:read",
          resource: "http://127.0.0.1:3000/mcp",
          refresh_sha256: "r1",
          spent_sha256: [],
          created_at: now(),
          expires_at: now() + 3600,
          revision: 1,
        },
        signal(),
      );
      codes[athlete] = sha256Hex(`code of ${athlete} ${Math.random()}`);
      await stores.grants.putCode(
        {
          code_sha256: codes[athlete],
          client_id: "fc_test",
          redirect_uri: "https://a.example/cb",
          code_challenge: "x",
          scope: "fitness:read",
          resource: "r",
          athlete_id: athlete,
          client_name: "Test",
          expires_at: now() + 60,
        },
        signal(),
      );
      expect((await stores.usage.countUpstreamRequest(athlete, true, share, t, signal())).admitted).toBe(true);
    }
    await deleteAthlete(stores, "300", signal());
    expect(await stores.athletes.hasAthlete("300", signal())).toBe(false);
    expect(await stores.grants.grantsOf("300", signal())).toEqual([]);
    expect(await stores.grants.getCode(codes["300"]!, signal())).toBeUndefined();
    await expect(stores.athleteCredentials("300").load(signal())).rejects.toThrow();
    expect((await stores.usage.countUpstreamRequest("300", true, share, t, signal())).admitted).toBe(true);
    expect(await stores.athletes.hasAthlete("301", signal())).toBe(true);
    expect(await stores.grants.grantsOf("301", signal())).toHaveLength(1);
    expect(await stores.grants.getCode(codes["301"]!, signal())).toBeDefined();
    expect((await stores.usage.countUpstreamRequest("301", true, share, t, signal())).admitted).toBe(false);
  });
});
