/**
 * Strava's `include_all_efforts` on GET /activities/{id}: without it (or with false) the detail leaves
 * out the segment efforts Strava hides as unimportant; with true they come too, marked `hidden: true`.
 * The sandbox hides efforts on near-duplicate segments (a twin of a segment on the same road).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openSession, type ActivityLike, type SandboxSession } from "./sandbox-client.ts";
import { manualClock, testNow } from "../support/test-clock.ts";

let session: SandboxSession;
let activities: ActivityLike[];

beforeAll(async () => {
  session = await openSession({ clock: manualClock(testNow).now });
  activities = session.json<ActivityLike[]>(await session.get("/athlete/activities?per_page=200"));
});
afterAll(() => session.sandbox.close());

describe("GET /activities/{id}?include_all_efforts", () => {
  test("detail: include_all_efforts=true adds the hidden efforts on near-duplicate segments; false is the default", async () => {
    const ride = activities.find((a) => a.elapsed_time === 21_600)!;
    const shown = await session.get(`/activities/${ride.id}`);
    expect((await session.get(`/activities/${ride.id}?include_all_efforts=false`)).text).toBe(shown.text);
    type Effort = { id: number; name: string; hidden: boolean; start_index: number; end_index: number; segment: { id: number } };
    const visible = session.json<{ segment_efforts: Effort[] }>(shown).segment_efforts;
    expect(visible.length).toBeGreaterThan(0);
    expect(visible.every((effort) => !effort.hidden)).toBe(true);
    const all = await session.get(`/activities/${ride.id}?include_all_efforts=true`);
    const efforts = session.json<{ segment_efforts: Effort[] }>(all).segment_efforts;
    const hidden = efforts.filter((effort) => effort.hidden);
    // One hidden twin per shown effort, inside its stretch, on another segment, with an exact id above 2^53.
    expect(hidden).toHaveLength(visible.length);
    expect(efforts.filter((effort) => !effort.hidden).map((effort) => effort.name)).toEqual(visible.map((effort) => effort.name));
    hidden.forEach((twin, i) => {
      const parent = visible[i]!;
      expect(twin.segment.id).not.toBe(parent.segment.id);
      expect(twin.start_index).toBeGreaterThanOrEqual(parent.start_index);
      expect(twin.end_index).toBeLessThanOrEqual(parent.end_index);
    });
    const ids = [...all.text.matchAll(/"id":(\d{19})/g)].map((match) => BigInt(match[1]!));
    expect(new Set(ids).size).toBe(efforts.length);
    for (const bad of ["yes", "1", ""]) {
      const answer = await session.get(`/activities/${ride.id}?include_all_efforts=${bad}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.text).toContain('"field":"include_all_efforts"');
    }
  });
});
