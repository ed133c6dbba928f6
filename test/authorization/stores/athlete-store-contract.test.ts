/**
 * The athlete store's contract, checked the same way on both backends (local files, and DynamoDB on moto_server):
 * the owner is claimed once, until the operator resets it; an athlete whose Strava tokens a sign-in stored is
 * listed, their tokens read back through the credential store credentials/store-choice.ts makes from the
 * store's description; athletes no longer admitted are recorded once, and when an athlete's grants ended as a
 * precaution (the latest time kept); forgetting an athlete removes their tokens and marks and nobody else's.
 */
import { describe, expect, it } from "vitest";
import type { AuthorizationStores } from "../../../authorization/stores/authorization-stores.ts";
import { testDayAt } from "../../support/test-clock.ts";
import { application, signal, storeBackends } from "./store-backends.ts";

const now = (): number => Math.floor(Date.now() / 1000);

/** What the Strava callback does with a new sign-in's tokens. */
async function signedIn(stores: AuthorizationStores, athlete: string, refreshToken = `rt-${athlete}`): Promise<void> {
  await stores
    .athleteCredentials(athlete)
    .writeAuthorization({ ...application, refresh_token: refreshToken, access_token: `at-${athlete}`, expires_at: now() + 3600 }, signal());
  await stores.athletes.recordStored(athlete, signal());
}

describe.each(storeBackends("athlete-store"))("the athlete store on %s", (_name, { open }) => {
  it("the owner is claimed once, until the operator resets it", async () => {
    const athletes = async () => (await open()).athletes;
    expect(await (await athletes()).owner(signal())).toBeUndefined();
    const instances = await Promise.all(["7", "8", "9"].map(() => athletes()));
    const claims = await Promise.all(["7", "8", "9"].map((athlete, n) => instances[n]!.claimOwner(athlete, signal())));
    expect(new Set(claims).size).toBe(1);
    expect(await (await athletes()).claimOwner("10", signal())).toBe(claims[0]);
    expect(await (await athletes()).owner(signal())).toBe(claims[0]);
    await (await athletes()).resetOwner(signal());
    expect(await (await athletes()).owner(signal())).toBeUndefined();
    expect(await (await athletes()).claimOwner("10", signal())).toBe("10");
  });

  it("an athlete a sign-in stored is listed, and their tokens read back with the deployment's application", async () => {
    const stores = await open();
    expect(await stores.athletes.hasAthlete("350", signal())).toBe(false);
    await signedIn(stores, "350");
    const again = await open();
    expect(await again.athletes.hasAthlete("350", signal())).toBe(true);
    expect((await again.athletes.storedAthletes(signal())).map((athlete) => athlete.athleteId)).toContain("350");
    const { credentials } = await again.athleteCredentials("350").load(signal());
    expect(credentials).toMatchObject({ ...application, refresh_token: "rt-350", access_token: "at-350" });
    expect(again.athletes.credentialsOf("350").kind).toMatch(/^athlete-/);
  });

  it("records once since when an athlete is no longer admitted, and when one's grants ended as a precaution", async () => {
    const stores = await open();
    for (const athlete of ["400", "401"]) await signedIn(stores, athlete);
    const athletes = stores.athletes;
    const t = testDayAt("09:00:00");
    expect(await athletes.markUnadmitted("400", t, signal())).toBe(t);
    expect(await (await open()).athletes.markUnadmitted("400", t + 60_000, signal())).toBe(t);
    // When an athlete's last grant ended as a precaution: the latest time is kept.
    await athletes.markGrantsEnded("401", t, signal());
    await (await open()).athletes.markGrantsEnded("401", t + 120_000, signal());
    const listed = (await (await open()).athletes.storedAthletes(signal())).filter((athlete) => ["400", "401"].includes(athlete.athleteId));
    expect(listed.sort((a, b) => a.athleteId.localeCompare(b.athleteId))).toEqual([
      { athleteId: "400", unadmittedSinceMs: t, grantsEndedAtMs: undefined },
      { athleteId: "401", unadmittedSinceMs: undefined, grantsEndedAtMs: t + 120_000 },
    ]);
    await athletes.clearUnadmitted("400", signal());
    expect((await athletes.storedAthletes(signal())).find((athlete) => athlete.athleteId === "400")?.unadmittedSinceMs).toBeUndefined();
    await athletes.clearGrantsEnded("401", signal());
    expect((await athletes.storedAthletes(signal())).find((athlete) => athlete.athleteId === "401")?.grantsEndedAtMs).toBeUndefined();
  });

  it("forgetting an athlete removes their tokens and marks, and nobody else's; a new sign-in starts them afresh", async () => {
    const stores = await open();
    for (const athlete of ["450", "451"]) await signedIn(stores, athlete);
    const t = testDayAt("09:30:00");
    await stores.athletes.markGrantsEnded("450", t, signal());
    await stores.athletes.markUnadmitted("450", t, signal());
    await stores.athletes.forgetAthlete("450", signal());
    expect(await stores.athletes.hasAthlete("450", signal())).toBe(false);
    expect((await stores.athletes.storedAthletes(signal())).map((athlete) => athlete.athleteId)).not.toContain("450");
    await expect(stores.athleteCredentials("450").load(signal())).rejects.toThrow();
    expect(await stores.athletes.hasAthlete("451", signal())).toBe(true);
    await signedIn(stores, "450", "rt-450b");
    expect((await stores.athletes.storedAthletes(signal())).find((athlete) => athlete.athleteId === "450")).toEqual({
      athleteId: "450",
      unadmittedSinceMs: undefined,
      grantsEndedAtMs: undefined,
    });
  });
});
