/**
 * What the coach's debriefs cost in a day, and how long a workout waits for its debrief: the plugin's
 * noticing (plugin/debriefs/debrief-watch.ts) run check after check over one simulated day on a moved clock,
 * against the sandbox through the same tool helper and client as in the plugin, each check at the instant the
 * previous one asked for (the interval, the end of quiet hours). Workouts reach the log during the day, one of
 * them during the quiet hours; the day is run at the default 15 minutes with the default quiet hours, with
 * quiet hours off, and at 5 minutes. Per run: upstream requests (list requests of the checks), wakes (one model
 * turn each), and for each workout the wait from its arrival in the log to the check that woke the coach.
 * The coach's turn itself (three model calls and about three upstream requests in the host check) comes on top.
 *
 *   npx tsx bench/debrief-day.ts        # prints a Markdown table for BENCHMARKS.md
 *
 * Run by hand; figures in BENCHMARKS.md. Wall time is not measured here (the clock is simulated).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandbox } from "../sandbox/server.ts";
import { createToolDeps } from "../tools/runner/create-tool-deps.ts";
import { listRecentActivities } from "../tools/recent-activities.ts";
import { MemoryCredentialStore } from "../credentials/stores/memory-store.ts";
import { DebriefRecordFile } from "../plugin/debriefs/debrief-record.ts";
import { DebriefWatch, type DebriefSettings } from "../plugin/debriefs/debrief-watch.ts";
import { addCalendarDays, instantFromWallClock, wallClockAt } from "../common/time-zone.ts";
import { benchSandboxOptions } from "./bench-sandbox-options.ts";

const zone = "America/Denver";
const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
/** When workouts reach the log (local time): an early swim during the quiet hours, a lunch ride, an evening run. */
const arrivals = ["06:20", "12:52", "18:37"];

interface DayResult {
  label: string;
  checks: number;
  listRequests: number;
  wakes: number;
  waits: Array<{ arrival: string; minutes: number }>;
}

async function simulateDay(label: string, settings: Partial<DebriefSettings>): Promise<DayResult> {
  // The day after tomorrow's local midnight, so every arrival and check is in the future of the seed.
  const today = wallClockAt(Date.now(), zone);
  const midnight = instantFromWallClock({ ...addCalendarDays(today, 2), hour: 0, minute: 0, second: 0 }, zone);
  let now = midnight - 60_000;
  const clock = (): number => now;
  const sandbox = await startSandbox({ ...benchSandboxOptions, clock });
  const directory = mkdtempSync(join(tmpdir(), "bench-debrief-day-"));
  try {
    const store = new MemoryCredentialStore({
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
      refresh_token: sandbox.refreshToken(),
    });
    const deps = createToolDeps({ store, logger: quiet, settings: { apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl }, now: clock });
    const wakes: Array<{ at: number; ids: string[] }> = [];
    const watch = new DebriefWatch({
      settings: {
        debriefs: "15m",
        debriefAgent: "coach",
        debriefQuietHours: "22:00-07:00",
        debriefTimeZone: "",
        debriefTestIntervalSeconds: 0,
        ...settings,
      },
      record: new DebriefRecordFile(join(directory, "debriefs.json"), quiet),
      listRecent: (sinceMs) => listRecentActivities(deps, sinceMs),
      readsResumeAt: async (share) => deps.client.backgroundReadsResumeAt(share),
      wake: () => true,
      logger: quiet,
      now: clock,
      fallbackTimeZone: zone,
      writesInFlight: () => 0,
    });
    // Debriefs turned on a minute before the day starts: the baseline (taken at once, even in quiet hours).
    const first = await watch.check();
    let next = "nextAtMs" in first ? first.nextAtMs : now;
    const pending = arrivals.map((time) => {
      const [hour, minute] = time.split(":").map(Number) as [number, number];
      return { time, at: instantFromWallClock({ ...wallClockAt(midnight, zone), hour, minute, second: 0 }, zone), id: "" };
    });
    const listsBefore = sandbox.counters().byRoute["GET /athlete/activities"] ?? 0;
    let checks = 0;
    while (next < midnight + 86_400_000) {
      // Workouts that reached the log before this check.
      for (const workout of pending.filter((entry) => entry.id === "" && entry.at <= next)) {
        now = workout.at;
        workout.id = String(await deviceActivity(sandbox.apiBase, String(await accessToken(deps)), now));
      }
      now = next;
      const outcome = await watch.check();
      checks += 1;
      if (outcome.kind === "woke") wakes.push({ at: now, ids: outcome.ids });
      if (outcome.kind === "off") break;
      next = outcome.nextAtMs;
    }
    return {
      label,
      checks,
      listRequests: (sandbox.counters().byRoute["GET /athlete/activities"] ?? 0) - listsBefore,
      wakes: wakes.length,
      waits: pending.map((workout) => {
        const woke = wakes.find((wake) => wake.ids.includes(workout.id));
        return { arrival: workout.time, minutes: woke ? Math.round((woke.at - workout.at) / 60_000) : Number.NaN };
      }),
    };
  } finally {
    await sandbox.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

async function accessToken(deps: ReturnType<typeof createToolDeps>): Promise<string> {
  return await deps.tokens.accessToken();
}

/** A workout as a watch's sync creates it: straight in the sandbox, started 45 minutes before it arrives. */
async function deviceActivity(apiBase: string, token: string, arrivedAt: number): Promise<number> {
  const wall = wallClockAt(arrivedAt - 45 * 60_000, zone);
  const two = (value: number): string => String(value).padStart(2, "0");
  const start = `${wall.year}-${two(wall.month)}-${two(wall.day)}T${two(wall.hour)}:${two(wall.minute)}:00`;
  const response = await fetch(`${apiBase}/activities`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ name: "Workout", sport_type: "Run", start_date_local: start, elapsed_time: "2400" }).toString(),
  });
  if (response.status !== 201) throw new Error(`POST /activities: ${response.status} ${await response.text()}`);
  return (JSON.parse(await response.text()) as { id: number }).id;
}

const runs = [
  await simulateDay("15m, quiet hours 22:00-07:00 (the default)", {}),
  await simulateDay("15m, no quiet hours", { debriefQuietHours: "off" }),
  await simulateDay("5m, quiet hours 22:00-07:00", { debriefs: "5m" }),
];
console.log(`Simulated day in ${zone}; workouts reach the log at ${arrivals.join(", ")} (local).\n`);
console.log("| Setting | Checks | Upstream list requests | Wakes (model turns) | Wait from arrival to the waking check (min) |");
console.log("|---|---|---|---|---|");
for (const run of runs) {
  const waits = run.waits.map((wait) => `${wait.arrival}: ${wait.minutes}`).join(", ");
  console.log(`| ${run.label} | ${run.checks} | ${run.listRequests} | ${run.wakes} | ${waits} |`);
}
