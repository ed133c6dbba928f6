/**
 * The list a background watcher reads (tools/recent-activities.ts) against the sandbox: one request through
 * the table's get_activities, only the fields it needs, ids as strings, newest first, the athlete's zone from
 * the newest activity's label, the upload an activity came from; a failure is the tool's error result.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { createToolDeps, type ToolDeps } from "../../tools/runner/create-tool-deps.ts";
import { MemoryCredentialStore } from "../../credentials/stores/memory-store.ts";
import { listRecentActivities } from "../../tools/recent-activities.ts";
import { manualClock } from "../support/test-clock.ts";

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
