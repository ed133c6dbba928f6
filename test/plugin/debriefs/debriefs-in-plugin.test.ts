/**
 * The debriefs as the plugin registers them (its default export on a recording host with a plugin runtime),
 * against the sandbox upstream on a token file: the service's checks list the log through the same client
 * as the tools (one request each), a coach's own write is never debriefed, an activity another app created
 * wakes the coach through the host's system event and a targeted wake of its main session, the athlete's
 * switch turns the checks off, a refused token is told once, and a read budget at 80% holds the checks.
 * The checks run every second here (the test-only setting) on the real clock; nothing here compares a fixed
 * date with it.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { startSandbox, type RunningSandbox } from "../../../sandbox/server.ts";
import { openAuthorizationStore } from "../../../credentials/store-choice.ts";
import type { HostToolContext, PluginRuntime } from "../../../plugin/host-api.ts";
import { debriefServiceId } from "../../../plugin/debriefs/debriefs.ts";
import { debriefSwitchToolName } from "../../../plugin/debriefs/debrief-switch-tool.ts";
import { registerPlugin, textOf, type RecordingHost } from "../recording-host-api.ts";
import { clearOfWindowTurn, quarterHourMs } from "../../support/window-turns.ts";

const savedEnv = { ...process.env };
const listRoute = "GET /athlete/activities";
const athlete = "5550001";

interface Running {
  sandbox: RunningSandbox;
  host: RecordingHost;
  directory: string;
  events: Array<{ text: string; options: Record<string, unknown> }>;
  wakes: Array<Record<string, unknown>>;
  lists(): number;
  record(): Record<string, unknown>;
  stop(): Promise<void>;
}

const started: Running[] = [];

async function pluginOnSandbox(readLimit: [number, number] = [10_000, 100_000]): Promise<Running> {
  for (const name of Object.keys(process.env)) if (name.startsWith("AWS_")) delete process.env[name];
  const sandbox = await startSandbox({ uploadProcessingMs: 50, rateLimits: { overall: [10_000, 100_000], read: readLimit } });
  process.env["STRAVA_API_BASE"] = sandbox.apiBase;
  process.env["STRAVA_TOKEN_URL"] = sandbox.tokenUrl;
  // After a refused refresh token the token manager reads the store again for this long (another process's
  // save); a token file answers at once, so a short deadline keeps the failing checks quick.
  process.env["FITNESS_STORE_TIMEOUT_MS"] = "500";
  const directory = mkdtempSync(join(tmpdir(), "debriefs-in-plugin-"));
  const tokenFile = join(directory, "strava-tokens.json");
  const store = await openAuthorizationStore({ kind: "token-file", path: tokenFile });
  await store.writeAuthorization(
    {
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
      refresh_token: sandbox.refreshToken(),
      access_token: "not-yet",
      expires_at: 0,
    },
    AbortSignal.timeout(5_000),
  );
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
    { credentialStore: "token-file", tokenFile, debriefs: "15m", debriefQuietHours: "off", debriefTestIntervalSeconds: 1 },
    runtime,
  );
  const service = host.services.get(debriefServiceId);
  if (!service) throw new Error("no debriefs service registered");
  await service.start();
  const running: Running = {
    sandbox,
    host,
    directory,
    events,
    wakes,
    lists: () => sandbox.counters().byRoute[listRoute] ?? 0,
    record: () => JSON.parse(readFileSync(join(directory, "state", "fitness", "debriefs.json"), "utf8")) as Record<string, unknown>,
    stop: async () => {
      await service.stop?.();
      await sandbox.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
  started.push(running);
  return running;
}

afterEach(async () => {
  for (const running of started.splice(0)) await running.stop();
});
afterAll(() => {
  process.env = savedEnv;
});

/** What another app (a watch's sync) does: an activity straight in the sandbox. */
async function deviceActivity(running: Running, name: string): Promise<number> {
  const token = String(
    (JSON.parse(readFileSync(join(running.directory, "strava-tokens.json"), "utf8")) as Record<string, unknown>)["access_token"],
  );
  const start = new Date(Date.now() - 40 * 60_000).toISOString().slice(0, 19);
  const response = await fetch(`${running.sandbox.apiBase}/activities`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ name, sport_type: "Ride", start_date_local: start, elapsed_time: "3600" }).toString(),
  });
  expect(response.status).toBe(201);
  return (JSON.parse(await response.text()) as { id: number }).id;
}

const waitFor = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 30_000, interval: 100 });

/** The longest the read-budget test below can run once its sandbox is up: its waits, and room for the sandbox and the plugin to start. */
const readBudgetTestMs = 40_000;

describe("debriefs in the plugin", () => {
  it("notice a device's activity, never the coach's own, and wake the coach's main session with its id", async () => {
    const running = await pluginOnSandbox();
    await waitFor(() => expect(running.record()["baselined"]).toBe(true));
    const listsAtBaseline = running.lists();
    await waitFor(() => expect(running.lists()).toBeGreaterThan(listsAtBaseline + 1));
    expect(running.events).toEqual([]);

    // The coach logs a session through its write tool: never debriefed.
    const created = await running.host.invoke("fitness_create_activity", {
      name: "Iron Temple | Squat",
      sport_type: "WeightTraining",
      start_date_local: new Date(Date.now() - 3_600_000).toISOString().slice(0, 19),
      elapsed_time: 3600,
    });
    const coachId = String((JSON.parse(textOf(created)) as { id: number }).id);
    expect((running.record()["coachMade"] as { activities: Record<string, number> }).activities[coachId]).toBeTypeOf("number");
    const listsAfterWrite = running.lists();
    await waitFor(() => expect(running.lists()).toBeGreaterThan(listsAfterWrite + 1));
    expect(running.events).toEqual([]);

    const rideId = await deviceActivity(running, "Afternoon Ride");
    await waitFor(() => expect(running.events).toHaveLength(1));
    expect(running.events[0]?.text).toContain(`activity ${rideId}.`);
    expect(running.events[0]?.text).not.toContain("Afternoon Ride");
    expect(running.events[0]?.options).toEqual({
      agentId: "coach",
      sessionKey: "agent:coach:main",
      contextKey: `fitness-debrief:${rideId}`,
    });
    expect(running.wakes).toEqual([
      {
        source: "notifications-event",
        intent: "immediate",
        reason: "wake",
        agentId: "coach",
        sessionKey: "agent:coach:main",
        heartbeat: { target: "last" },
      },
    ]);
    const listsAfterWake = running.lists();
    await waitFor(() => expect(running.lists()).toBeGreaterThan(listsAfterWake + 1));
    expect(running.events).toHaveLength(1);
  });

  it("stop checking when the athlete switches them off, and take a new baseline when on again", async () => {
    const running = await pluginOnSandbox();
    await waitFor(() => expect(running.record()["baselined"]).toBe(true));
    const context: HostToolContext = {
      agentId: "coach",
      messageChannel: "telegram",
      agentAccountId: "coach",
      requesterSenderId: athlete,
      runtimeConfig: {
        bindings: [{ agentId: "coach", match: { channel: "telegram", accountId: "coach" } }],
        channels: { telegram: { accounts: { coach: { allowFrom: [athlete] } } } },
      },
    };
    const factory = running.host.factories.get(debriefSwitchToolName)?.factory;
    expect(factory?.({ ...context, requesterSenderId: undefined })).toBeNull();
    const tool = factory?.(context);
    await tool?.execute("call-1", { debriefs: "off" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const listsWhenOff = running.lists();
    const rideId = await deviceActivity(running, "Lunch Ride");
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(running.lists()).toBe(listsWhenOff);
    await tool?.execute("call-2", { debriefs: "on" });
    await waitFor(() => expect(running.lists()).toBeGreaterThan(listsWhenOff + 1));
    // Turning on debriefs nothing already in the log.
    expect(running.events.map((event) => event.text).join()).not.toContain(String(rideId));
  });

  it("tell the athlete once when the log refuses the plugin's access, and back off", async () => {
    const running = await pluginOnSandbox();
    await waitFor(() => expect(running.record()["baselined"]).toBe(true));
    await running.sandbox.deauthorize(running.sandbox.athleteId);
    await waitFor(() => expect(running.events).toHaveLength(1));
    expect(running.events[0]?.text).toContain("refused the plugin's access");
    expect(running.events[0]?.options["contextKey"]).toBe("fitness-debrief:check-failed");
    const failure = running.record()["failure"] as { count: number; nextCheckAtMs: number };
    expect(failure.count).toBe(1);
    // Backed off: the next check waits two intervals, and the athlete is not told twice. The second failure is
    // written to the record before it is logged: both are waited for (a log read as the record showed the count
    // of 2 still held one failure line).
    await waitFor(() => {
      expect((running.record()["failure"] as { count: number }).count).toBe(2);
      expect(running.host.logs.filter((line) => line.message.includes('"event":"debrief_check_failed"')).length).toBeGreaterThanOrEqual(2);
    });
    expect(running.events).toHaveLength(1);
  });

  it(
    "hold the checks while Strava's read headers show 80% of the 15-minute limit used",
    { timeout: 2 * readBudgetTestMs + 5_000 },
    async () => {
      // Strava's read window must not turn while the test counts reads: at the turn the sandbox's count starts again
      // and the plugin's budget lets the checks go on (started seconds before a quarter hour, the test failed).
      await clearOfWindowTurn(quarterHourMs, readBudgetTestMs);
      const running = await pluginOnSandbox([5, 1_000]);
      await waitFor(() => expect(running.host.logs.some((line) => line.message.includes('"event":"debrief_check_skipped"'))).toBe(true));
      const held = running.lists();
      // 4 of 5 reads used: nothing more is read in the background until the window resets.
      expect(held).toBeLessThanOrEqual(4);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(running.lists()).toBe(held);
    },
  );
});
