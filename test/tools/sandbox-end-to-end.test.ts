/**
 * The whole core against the sandbox, a real Strava-shaped server on loopback: every tool, a token
 * expiring mid-run, refresh-token rotation, the rate limit's 429 and a 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileBackedCore, textOf, type FileBackedCore } from "../support/core-harness.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { manualClock } from "../support/test-clock.ts";

let sandbox: RunningSandbox;
let core: FileBackedCore;
let clock = Date.now();

beforeAll(async () => {
  sandbox = await startSandbox({
    uploadProcessingMs: 50,
    clock: () => clock,
    rateLimits: { overall: [10_000, 100_000], read: [10_000, 100_000] },
  });
  core = await fileBackedCore({
    credentials: { client_id: sandbox.clientId, client_secret: sandbox.clientSecret, refresh_token: sandbox.refreshToken() },
    settings: { apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl },
    now: () => clock,
  });
});
afterAll(async () => {
  await core?.cleanup();
  await sandbox?.close();
});

const json = (text: string): unknown => JSON.parse(text);

describe("every tool against the sandbox", () => {
  let activityId: number;

  it("get_athlete returns the seeded athlete", async () => {
    const athlete = json(textOf(await core.call("get_athlete"))) as { id: number; firstname: string };
    expect(athlete.id).toBe(sandbox.athleteId);
    expect(athlete.firstname).toBeTruthy();
  });

  it("get_activities returns the newest first, with a recent activity", async () => {
    const activities = json(textOf(await core.call("get_activities", { per_page: 10 }))) as Array<{ id: number; start_date: string }>;
    expect(activities).toHaveLength(10);
    const starts = activities.map((activity) => Date.parse(activity.start_date));
    expect([...starts].sort((a, b) => b - a)).toEqual(starts);
    expect(clock - starts[0]!).toBeLessThan(18 * 3600 * 1000);
    activityId = activities[0]!.id;
  });

  it("get_activity_by_id returns the upstream bytes, segment-effort ids above 2^53 intact", async () => {
    // Find an activity with segment efforts and compare our text with the upstream's own body.
    const activities = json(textOf(await core.call("get_activities", { per_page: 60 }))) as Array<{ id: number }>;
    let found = false;
    for (const { id } of activities) {
      const text = textOf(await core.call("get_activity_by_id", { id }));
      const bigIds = [...text.matchAll(/"id":(\d{16,})/g)].map((match) => BigInt(match[1]!));
      if (bigIds.some((value) => value > 2n ** 53n)) {
        const token = (await core.stored())["access_token"] as string;
        const direct = await fetch(`${sandbox.apiBase}/activities/${id}`, { headers: { authorization: `Bearer ${token}` } });
        expect(text).toBe(await direct.text());
        found = true;
        break;
      }
    }
    expect(found, "the seed must hold an activity whose segment efforts have ids above 2^53").toBe(true);
  });

  it("get_activity_zones, get_athlete_stats and get_activity_streams answer for a real activity", async () => {
    expect(Array.isArray(json(textOf(await core.call("get_activity_zones", { id: activityId }))))).toBe(true);
    const stats = json(textOf(await core.call("get_athlete_stats"))) as Record<string, { count: number }>;
    expect(stats["all_run_totals"]?.count).toBeGreaterThan(0);
    const streams = json(textOf(await core.call("get_activity_streams", { id: activityId, keys: ["time", "heartrate"] }))) as Array<{
      type: string;
      data: unknown[];
    }>;
    expect(streams.map((stream) => stream.type).sort()).toEqual(expect.arrayContaining(["time"]));
    expect(streams[0]!.data.length).toBeGreaterThan(0);
  });

  it("get_club_activities reads the athlete's club", async () => {
    const athlete = json(textOf(await core.call("get_athlete"))) as { clubs?: Array<{ id: number }> };
    const clubId = athlete.clubs?.[0]?.id;
    expect(clubId, "the seeded athlete belongs to a club").toBeDefined();
    const feed = json(textOf(await core.call("get_club_activities", { id: clubId, per_page: 5 }))) as unknown[];
    expect(feed.length).toBeGreaterThan(0);
  });

  it("create_activity then update_activity are visible to later reads", async () => {
    const created = json(
      textOf(
        await core.call("create_activity", {
          name: "Iron Temple | Squat + Metcon",
          sport_type: "WeightTraining",
          start_date_local: new Date(clock - 3600_000).toISOString().slice(0, 19),
          elapsed_time: 3600,
          description: "Strength\n- Back squat 5x5 @ 100 kg",
          trainer: true,
        }),
      ),
    ) as { id: number; name: string };
    expect(created.name).toBe("Iron Temple | Squat + Metcon");
    const updated = json(
      textOf(await core.call("update_activity", { id: created.id, name: "Iron Temple | Heavy Squat", sport_type: "Workout" })),
    ) as { name: string; sport_type: string; description: string };
    expect(updated).toMatchObject({
      name: "Iron Temple | Heavy Squat",
      sport_type: "Workout",
      description: "Strength\n- Back squat 5x5 @ 100 kg",
    });
    const read = json(textOf(await core.call("get_activity_by_id", { id: created.id }))) as { name: string };
    expect(read.name).toBe("Iron Temple | Heavy Squat");
  });

  it("create_upload then get_upload reaches ready with an activity", async () => {
    const gpx = `<?xml version="1.0"?><gpx version="1.1" creator="test"><trk><name>Loop</name><trkseg>${Array.from(
      { length: 30 },
      (_, index) =>
        `<trkpt lat="${37.77 + index * 0.0005}" lon="-122.42"><ele>10</ele><time>${new Date(clock - 7200_000 + index * 10_000).toISOString()}</time></trkpt>`,
    ).join("")}</trkseg></trk></gpx>`;
    const uploadResult = await core.call("create_upload", {
      file: Buffer.from(gpx).toString("base64"),
      data_type: "gpx",
      name: "Loop",
      external_id: `e2e-${clock}`,
    });
    expect(uploadResult.isError, textOf(uploadResult)).toBeUndefined();
    const upload = json(textOf(uploadResult)) as { id: number; status: string };
    expect(upload.status).toBe("Your activity is still being processed.");
    let status = upload.status;
    let activity: number | null = null;
    for (let attempt = 0; attempt < 50 && status !== "Your activity is ready."; attempt++) {
      // The sandbox finishes processing by its clock, which this test drives.
      clock += 1000;
      await new Promise((resolve) => setTimeout(resolve, 20));
      const polled = json(textOf(await core.call("get_upload", { id: upload.id }))) as { status: string; activity_id: number | null };
      status = polled.status;
      activity = polled.activity_id;
    }
    expect(status).toBe("Your activity is ready.");
    expect(activity).toBeGreaterThan(0);
    expect((json(textOf(await core.call("get_activity_by_id", { id: activity }))) as { name: string }).name).toBe("Loop");
  });

  it("an unknown activity is a 404 error result with the Fault", async () => {
    const result = await core.call("get_activity_by_id", { id: 1 });
    expect(result).toMatchObject({ isError: true, upstreamStatus: 404 });
    expect(textOf(result)).toMatch(
      /^Error: Strava answered 404 Not Found to GET \/activities\/1: .+\(Activity\.id invalid\)\. No activity .+ from get_activities/,
    );
  });
});

describe("token lifecycle against the sandbox", () => {
  it("a token revoked mid-run is refreshed once, the call succeeds, and the rotated refresh token is saved", async () => {
    const before = sandbox.counters().tokenRequests;
    const oldRefresh = (await core.stored())["refresh_token"] as string;
    sandbox.expireAccessTokens();
    const results = await Promise.all(Array.from({ length: 20 }, () => core.call("get_athlete")));
    expect(results.every((result) => result.isError === undefined)).toBe(true);
    expect(sandbox.counters().tokenRequests - before).toBe(1);
    const stored = await core.stored();
    expect(stored["refresh_token"]).toBe(sandbox.refreshToken());
    expect(stored["refresh_token"]).not.toBe(oldRefresh);
    // The old refresh token stopped working: rotation is real.
    const stale = await fetch(sandbox.tokenUrl, {
      method: "POST",
      body: new URLSearchParams({
        client_id: sandbox.clientId,
        client_secret: sandbox.clientSecret,
        grant_type: "refresh_token",
        refresh_token: oldRefresh,
      }),
    });
    expect(stale.status).toBe(400);
  });

  it("a token reaching its expiry is refreshed before the request (no 401), exactly once", async () => {
    const before = sandbox.counters().tokenRequests;
    clock += 6 * 3600 * 1000 - 4 * 60 * 1000; // 4 minutes before the 6-hour token expires
    expect((await core.call("get_athlete")).isError).toBeUndefined();
    expect((await core.call("get_athlete")).isError).toBeUndefined();
    expect(sandbox.counters().tokenRequests - before).toBe(1);
  });
});

describe("rate limit", () => {
  it("past the read limit the answer is a 429 error with usage and reset time", async () => {
    // A clock that stands still, for the sandbox and the core alike: on the real one, a quarter hour between the
    // third read and the fourth would empty the window, and the fourth would be answered.
    const clock = manualClock();
    const limited = await startSandbox({ clock: clock.now, rateLimits: { read: [3, 1000] } });
    const local = await fileBackedCore({
      credentials: { client_id: limited.clientId, client_secret: limited.clientSecret, refresh_token: limited.refreshToken() },
      settings: { apiBase: limited.apiBase, tokenUrl: limited.tokenUrl },
      now: clock.now,
    });
    try {
      for (let index = 0; index < 3; index++) expect((await local.call("get_athlete")).isError).toBeUndefined();
      const result = await local.call("get_athlete");
      expect(result).toMatchObject({ isError: true, upstreamStatus: 429 });
      expect(textOf(result)).toContain("Rate Limit Exceeded");
      expect(textOf(result)).toMatch(/read 15-min \d+\/3/);
      expect(textOf(result)).toMatch(/The 15-minute window resets at \d\d:\d\d:00 UTC/);
    } finally {
      await local.cleanup();
      await limited.close();
    }
  });
});
