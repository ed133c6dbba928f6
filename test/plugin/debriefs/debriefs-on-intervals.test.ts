/**
 * The debriefs on intervals.icu, as the plugin registers them (its default export on a recording host with a
 * plugin runtime, `"upstream": "intervals.icu"`, the athlete's key in the token file), against the sandbox's
 * intervals.icu face: checks list the athlete's local dates through the log's own list request; nothing new
 * wakes no one; an activity a device put in the log wakes the coach once, naming its id ("i..."); what reached
 * intervals.icu from Strava (a stub there) is never debriefed; the coach's own manual activity and upload are
 * never debriefed; the zone kept for quiet hours is the profile's. This stands in for a host check on
 * intervals.icu, which would add several minutes to CI. The checks run every second here (the test-only setting)
 * on the real clock; nothing here compares a fixed date with it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { startSandbox, type RunningSandbox } from "../../../sandbox/server.ts";
import type { PluginRuntime } from "../../../plugin/host-api.ts";
import { debriefServiceId } from "../../../plugin/debriefs/debriefs.ts";
import { wallClockAt } from "../../../common/time-zone.ts";
import { registerPlugin, textOf, type RecordingHost } from "../recording-host-api.ts";

const savedEnv = { ...process.env };
const listRoute = "intervals.icu GET /athlete/{id}/activities";

interface Running {
  sandbox: RunningSandbox;
  host: RecordingHost;
  directory: string;
  events: Array<{ text: string; options: Record<string, unknown> }>;
  wakes: Array<Record<string, unknown>>;
  lists(): number;
  record(): { baselined?: boolean; timeZone?: string; seen: Record<string, number>; coachMade: { activities: Record<string, number> } };
  stop(): Promise<void>;
}

let running: Running | undefined;

/** `withKey: false`: a token file without the athlete's key (npm run authorize:intervals was never run). */
async function pluginOnIntervals(withKey = true): Promise<Running> {
  for (const name of Object.keys(process.env)) if (name.startsWith("AWS_") || name.startsWith("STRAVA_")) delete process.env[name];
  const sandbox = await startSandbox();
  process.env["INTERVALS_API_BASE"] = sandbox.intervalsApiBase;
  const directory = mkdtempSync(join(tmpdir(), "debriefs-on-intervals-"));
  const tokenFile = join(directory, "tokens.json");
  writeFileSync(tokenFile, JSON.stringify(withKey ? { intervals_api_key: sandbox.intervalsApiKey } : {}), { mode: 0o600 });
  const events: Running["events"] = [];
  const wakes: Running["wakes"] = [];
  const runtime: PluginRuntime = {
    system: {
      enqueueSystemEvent: (text, options) => {
        events.push({ text, options });
        return true;
      },
      requestHeartbeat: (options) => {
        wakes.push(options);
      },
    },
    state: { resolveStateDir: () => join(directory, "state") },
  };
  const host = registerPlugin(
    {
      upstream: "intervals.icu",
      credentialStore: "token-file",
      tokenFile,
      debriefs: "15m",
      debriefQuietHours: "off",
      debriefTestIntervalSeconds: 1,
    },
    runtime,
  );
  const service = host.services.get(debriefServiceId);
  if (!service) throw new Error("no debriefs service registered");
  await service.start();
  return {
    sandbox,
    host,
    directory,
    events,
    wakes,
    lists: () => sandbox.counters().byRoute[listRoute] ?? 0,
    record: () => JSON.parse(readFileSync(join(directory, "state", "fitness", "debriefs.json"), "utf8")) as ReturnType<Running["record"]>,
    stop: async () => {
      await service.stop?.();
      await sandbox.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

afterEach(async () => {
  await running?.stop();
  running = undefined;
});
afterAll(() => {
  process.env = savedEnv;
});

const waitFor = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 30_000, interval: 100 });

/** Waits for two more checks than now, so that one started and ended entirely after this moment. */
async function twoMoreChecks(r: Running): Promise<void> {
  const lists = r.lists();
  await waitFor(() => expect(r.lists()).toBeGreaterThan(lists + 1));
}

/** The athlete's profile zone on the intervals.icu face. */
async function profileZone(sandbox: RunningSandbox): Promise<string> {
  const response = await fetch(`${sandbox.intervalsApiBase}/athlete/0`, { headers: { authorization: basic(sandbox) } });
  return (JSON.parse(await response.text()) as { timezone: string }).timezone;
}

function basic(sandbox: RunningSandbox): string {
  return `Basic ${Buffer.from(`API_KEY:${sandbox.intervalsApiKey}`).toString("base64")}`;
}

/** "YYYY-MM-DDTHH:MM:SS" in `zone`, `minutesAgo` before now. */
function localStart(zone: string, minutesAgo: number): string {
  const wall = wallClockAt(Date.now() - minutesAgo * 60_000, zone);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${wall.year}-${two(wall.month)}-${two(wall.day)}T${two(wall.hour)}:${two(wall.minute)}:${two(wall.second)}`;
}

/** What a device or another app does: an activity straight in the athlete's intervals.icu log. */
async function deviceActivity(sandbox: RunningSandbox, zone: string, name: string): Promise<string> {
  const response = await fetch(`${sandbox.intervalsApiBase}/athlete/0/activities/manual`, {
    method: "POST",
    headers: { authorization: basic(sandbox), "content-type": "application/json" },
    body: JSON.stringify({ name, type: "Ride", start_date_local: localStart(zone, 50), elapsed_time: 3600, distance: 25_000 }),
  });
  expect(response.status).toBe(200);
  return (JSON.parse(await response.text()) as { id: string }).id;
}

/** An activity the athlete's Strava account sent on to intervals.icu: a stub on intervals.icu's API. */
async function stravaSyncedActivity(sandbox: RunningSandbox, zone: string): Promise<string> {
  const token = await fetch(sandbox.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
      grant_type: "refresh_token",
      refresh_token: sandbox.refreshToken(),
    }).toString(),
  });
  const { access_token: accessToken } = JSON.parse(await token.text()) as { access_token: string };
  const response = await fetch(`${sandbox.apiBase}/activities`, {
    method: "POST",
    headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      name: "Zwift ride",
      sport_type: "VirtualRide",
      start_date_local: localStart(zone, 30),
      elapsed_time: "2400",
    }).toString(),
  });
  expect(response.status).toBe(201);
  const id = String((JSON.parse(await response.text()) as { id: number }).id);
  // intervals.icu lists it on its day, as the stub its API makes of what Strava sent.
  const day = localStart(zone, 30).slice(0, 10);
  const listed = await fetch(`${sandbox.intervalsApiBase}/athlete/0/activities?oldest=${day}&newest=${day}T23:59:59`, {
    headers: { authorization: basic(sandbox) },
  });
  expect(JSON.parse(await listed.text())).toContainEqual(expect.objectContaining({ id, source: "STRAVA", _note: expect.any(String) }));
  return id;
}

/** A two-point GPX track that started `minutesAgo` before now, base64 as create_upload takes it. */
function gpxTrack(minutesAgo: number): string {
  const at = (ms: number) => new Date(ms).toISOString();
  const start = Date.now() - minutesAgo * 60_000;
  const gpx =
    `<?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>` +
    `<trkpt lat="40.0" lon="-105.2"><time>${at(start)}</time></trkpt>` +
    `<trkpt lat="40.001" lon="-105.2"><time>${at(start + 600_000)}</time></trkpt></trkseg></trk></gpx>`;
  return Buffer.from(gpx).toString("base64");
}

describe("debriefs on intervals.icu", () => {
  it("wake the coach once for a device's activity, naming its id; nothing new, a Strava stub and the coach's own wake no one", async () => {
    running = await pluginOnIntervals();
    const r = running;
    const zone = await profileZone(r.sandbox);
    await waitFor(() => expect(r.record().baselined).toBe(true));
    // The quiet hours' zone is the profile's, not the gateway's.
    expect(r.record().timeZone).toBe(zone);
    await twoMoreChecks(r);
    expect(r.events).toEqual([]);

    const stubId = await stravaSyncedActivity(r.sandbox, zone);
    const made = await r.host.invoke("fitness_create_activity", {
      name: "Iron Temple | Squat",
      type: "WeightTraining",
      start_date_local: localStart(zone, 60),
      elapsed_time: 3600,
    });
    expect(made.isError, textOf(made)).toBeUndefined();
    const coachId = (JSON.parse(textOf(made)) as { id: string }).id;
    const uploaded = await r.host.invoke("fitness_create_upload", { file: gpxTrack(90), data_type: "gpx", name: "Trail run" });
    expect(uploaded.isError, textOf(uploaded)).toBeUndefined();
    const uploadedIds = (JSON.parse(textOf(uploaded)) as { activities: Array<{ id: string }> }).activities.map((a) => a.id);
    expect(Object.keys(r.record().coachMade.activities).sort()).toEqual([coachId, ...uploadedIds].sort());
    await twoMoreChecks(r);
    expect(r.events).toEqual([]);
    // The coach's own are seen and never debriefed; the stub is not even listed as an activity.
    expect(Object.keys(r.record().seen)).toEqual(expect.arrayContaining([coachId, ...uploadedIds]));
    expect(Object.keys(r.record().seen)).not.toContain(stubId);

    const rideId = await deviceActivity(r.sandbox, zone, "Afternoon Ride");
    expect(rideId).toMatch(/^i\d+$/);
    await waitFor(() => expect(r.events).toHaveLength(1));
    expect(r.events[0]?.text).toContain(`activity ${rideId}.`);
    expect(r.events[0]?.text).not.toContain("Afternoon Ride");
    expect(r.events[0]?.options).toEqual({ agentId: "coach", sessionKey: "agent:coach:main", contextKey: `fitness-debrief:${rideId}` });
    expect(r.wakes).toHaveLength(1);

    await twoMoreChecks(r);
    expect(r.events).toHaveLength(1);
    expect(r.wakes).toHaveLength(1);
  });

  it("tell the athlete once when the key is missing from the store, and back off", async () => {
    running = await pluginOnIntervals(false);
    const r = running;
    await waitFor(() => expect(r.events).toHaveLength(1));
    expect(r.events[0]?.text).toContain("could not check the athlete's training log");
    expect(r.events[0]?.options["contextKey"]).toBe("fitness-debrief:check-failed");
    const failed = r.host.logs.find((line) => line.message.includes('"event":"debrief_check_failed"'));
    expect(failed?.message).toContain("npm run authorize:intervals");
    await waitFor(() => expect((r.record() as { failure?: { count: number } }).failure?.count).toBe(2));
    expect(r.events).toHaveLength(1);
    expect(r.lists()).toBe(0);
  });
});
