/**
 * The list a background watcher reads (tools/recent-activities.ts). On Strava, against the sandbox: one request
 * through the table's get_activities, only the fields it needs, ids as strings, newest first, the athlete's zone
 * from the newest activity's label, the upload an activity came from; a failure is the tool's error result. On
 * intervals.icu, at the network edge (undici's MockAgent, for the exact request): the athlete's local dates from
 * the one 48 hours ago to today in their profile's zone, ids such as "i123", what started before the instant and
 * Strava-synced stubs left out, the profile's zone said; a refused key is the tool's error result.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { createToolDeps, type ToolDeps } from "../../tools/runner/create-tool-deps.ts";
import { MemoryCredentialStore } from "../../credentials/stores/memory-store.ts";
import { listRecentActivities } from "../../tools/recent-activities.ts";
import { manualClock, testNow } from "../support/test-clock.ts";
import { createHttpSender } from "../../common/upstream/http-exchange.ts";
import { silentLogger } from "../../common/logger.ts";
import { createIntervalsToolDeps } from "../../tools/runner/intervals-tool-deps.ts";
import { intervalsApiBase, mockIntervals, type IntervalsMock } from "../support/intervals-mock.ts";

let sandbox: RunningSandbox;
let deps: ToolDeps;
const clock = manualClock();
const quietLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

beforeAll(async () => {
  sandbox = await startSandbox({ clock: clock.now, uploadProcessingMs: 10 });
  const store = new MemoryCredentialStore({
    client_id: sandbox.clientId,
    client_secret: sandbox.clientSecret,
    refresh_token: sandbox.refreshToken(),
  });
  // A short store deadline: after the refused refresh token the manager reads the store again for this long.
  deps = createToolDeps({
    store,
    logger: quietLogger,
    settings: { apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl },
    now: clock.now,
    storeTimeoutMs: 200,
  });
});
afterAll(async () => {
  await sandbox?.close();
});

describe("listRecentActivities", () => {
  it("lists the last two days in one request: ids, starts, newest first, the athlete's zone", async () => {
    const before = sandbox.counters().byRoute["GET /athlete/activities"] ?? 0;
    const since = clock.now() - 48 * 3_600_000;
    const listed = await listRecentActivities(deps, since);
    expect(sandbox.counters().byRoute["GET /athlete/activities"]).toBe(before + 1);
    expect(listed.ok).toBe(true);
    if (!listed.ok) return;
    expect(listed.timeZone).toBe("America/Denver");
    expect(listed.activities.length).toBeGreaterThan(0);
    for (const activity of listed.activities) {
      expect(activity.id).toMatch(/^\d+$/);
      expect(activity.startedAtMs).toBeGreaterThanOrEqual(since);
    }
    const starts = listed.activities.map((activity) => activity.startedAtMs);
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
  });

  it("says which upload an activity came from", async () => {
    const upload = (await deps.client.send({
      method: "POST",
      path: "/uploads",
      body: {
        kind: "multipart",
        fields: { data_type: "gpx", name: "Trail run" },
        file: {
          field: "file",
          filename: "run.gpx",
          contentType: "application/octet-stream",
          bytes: new TextEncoder().encode(
            `<?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg><trkpt lat="40.0" lon="-105.2"><time>${new Date(clock.now() - 3_600_000).toISOString()}</time></trkpt><trkpt lat="40.001" lon="-105.2"><time>${new Date(clock.now() - 3_000_000).toISOString()}</time></trkpt></trkseg></trk></gpx>`,
          ),
        },
      },
    })) as { bodyText: string };
    const uploadId = String((JSON.parse(upload.bodyText) as { id: number }).id);
    clock.advance(1_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const listed = await listRecentActivities(deps, clock.now() - 48 * 3_600_000);
    expect(listed.ok && listed.activities.some((activity) => activity.uploadId === uploadId)).toBe(true);
  });

  it("answers the tool's error result when the list fails", async () => {
    await sandbox.deauthorize(sandbox.athleteId);
    clock.advance(7 * 3_600_000);
    const listed = await listRecentActivities(deps, clock.now() - 48 * 3_600_000);
    expect(listed.ok).toBe(false);
    if (listed.ok) return;
    expect(listed.error.isError).toBe(true);
    expect(listed.error.errorKind).toBeDefined();
  });
});

describe("listRecentActivities on intervals.icu", () => {
  let mock: IntervalsMock;
  beforeEach(() => {
    mock = mockIntervals();
  });
  afterEach(async () => {
    await mock.close();
  });

  const intervalsDeps = () =>
    createIntervalsToolDeps({
      settings: { apiKey: "k".repeat(25), athleteId: "0", apiBase: intervalsApiBase },
      keyAdvice: "intervals.icu refused the API key: write a new one with npm run authorize:intervals.",
      logger: silentLogger,
      http: createHttpSender({ dispatcher: mock.agent }),
      now: manualClock(testNow).now,
    });
  const hour = 3_600_000;
  const since = testNow - 48 * hour;

  it("asks for the athlete's local dates from 48 hours ago to today in the profile's zone, and keeps only what started since, stubs left out", async () => {
    // testNow is 22:37 UTC on 21 November: 23:37 in Berlin, and 48 hours before it is 19 November there.
    mock.intervals.intercept({ path: "/api/v1/athlete/0", method: "GET" }).reply(200, { id: "i7", timezone: "Europe/Berlin" });
    mock.intervals
      .intercept({ path: "/api/v1/athlete/0/activities?oldest=2026-11-19&newest=2026-11-21T23:59:59", method: "GET" })
      .reply(200, [
        // An activity carries its own zone; the watcher's is the profile's all the same.
        {
          id: "i103",
          start_date: new Date(testNow - 2 * hour).toISOString(),
          start_date_local: "2026-11-21T21:37:12",
          source: "GARMIN_CONNECT",
          timezone: "America/Denver",
        },
        {
          id: "i102",
          icu_athlete_id: "i7",
          start_date_local: "2026-11-21T08:00:00",
          source: "STRAVA",
          _note: "STRAVA activities are not available via the API",
        },
        { id: "i101", start_date_local: "2026-11-20T07:00:00", source: "MANUAL" },
        { id: "i100", start_date: new Date(since - hour).toISOString(), start_date_local: "2026-11-19T22:37:12", source: "UPLOAD" },
      ]);
    const listed = await listRecentActivities(intervalsDeps(), since);
    expect(listed).toEqual({
      ok: true,
      activities: [
        { id: "i103", startedAtMs: testNow - 2 * hour },
        // No start_date: its local start read in the profile's zone (07:00 in Berlin is 06:00 UTC).
        { id: "i101", startedAtMs: Date.UTC(2026, 10, 20, 6, 0, 0) },
      ],
      timeZone: "Europe/Berlin",
    });
    expect(mock.requests()).toBe(2);
  });

  it("answers the tool's error result when intervals.icu refuses the key on the profile, and lists nothing", async () => {
    mock.intervals.intercept({ path: "/api/v1/athlete/0", method: "GET" }).reply(401, { status: 401, error: "Unauthorized" });
    const listed = await listRecentActivities(intervalsDeps(), since);
    expect(listed.ok).toBe(false);
    if (listed.ok) return;
    expect(listed.error).toMatchObject({ isError: true, upstreamStatus: 401, errorKind: "UpstreamStatusError" });
    expect(listed.error.content[0].text).toMatch(/^Error: intervals\.icu answered 401/);
    expect(mock.requests()).toBe(1);
  });
});
