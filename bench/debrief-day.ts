/**
 * What the coach's debriefs cost in a day, and how long a workout waits for its debrief: the plugin's
 * noticing (plugin/debriefs/debrief-watch.ts) run check after check over one simulated day on a moved clock,
 * against the sandbox through the same tool helper and client as in the plugin, each check at the instant the
 * previous one asked for (the interval, the end of quiet hours). Workouts reach the log during the day, one of
 * them during the quiet hours; the day is run at the default 15 minutes with the default quiet hours, with
 * quiet hours off, and at 5 minutes on Strava, and at the default on the sandbox's intervals.icu face. Per run:
 * upstream requests (the checks' list requests, and on intervals.icu the athlete's profile, read once for the
 * time zone), wakes (one model turn each), and for each workout the wait from its arrival in the log to the check
 * that woke the coach.
 * The coach's turn itself (three model calls and about three upstream requests in the host check) comes on top.
 *
 *   npx tsx bench/debrief-day.ts        # prints a Markdown table for BENCHMARKS.md
 *
 * Run by hand; figures in BENCHMARKS.md. Wall time is not measured here (the clock is simulated).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandbox, type RunningSandbox } from "../sandbox/server.ts";
import { createToolDeps, type ToolDeps as StravaToolDeps } from "../tools/runner/create-tool-deps.ts";
import { createIntervalsToolDeps } from "../tools/runner/intervals-tool-deps.ts";
import type { ToolDeps } from "../tools/runner/tool-deps.ts";
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

type Log = "strava" | "intervals.icu";

/** The sandbox's counters of what a check sends, per log. */
const routes: Record<Log, string[]> = {
  strava: ["GET /athlete/activities"],
  "intervals.icu": ["intervals.icu GET /athlete/{id}/activities", "intervals.icu GET /athlete/{id}"],
};

interface DayResult {
  label: string;
  checks: number;
  upstreamRequests: number;
  wakes: number;
  waits: Array<{ arrival: string; minutes: number }>;
}

async function simulateDay(label: string, settings: Partial<DebriefSettings>, log: Log = "strava"): Promise<DayResult> {
  // The day after tomorrow's local midnight, so every arrival and check is in the future of the seed.
  const today = wallClockAt(Date.now(), zone);
  const midnight = instantFromWallClock({ ...addCalendarDays(today, 2), hour: 0, minute: 0, second: 0 }, zone);
  let now = midnight - 60_000;
  const clock = (): number => now;
  const sandbox = await startSandbox({ ...benchSandboxOptions, clock });
  const directory = mkdtempSync(join(tmpdir(), "bench-debrief-day-"));
  try {
    const deps: ToolDeps = log === "strava" ? stravaDeps(sandbox, clock) : intervalsDeps(sandbox, clock);
    const device = (arrivedAt: number): Promise<string> =>
      deps.log === "strava" ? stravaDevice(sandbox, deps as StravaToolDeps, arrivedAt) : intervalsDevice(sandbox, arrivedAt);
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
    const requests = (): number => routes[log].reduce((sum, route) => sum + (sandbox.counters().byRoute[route] ?? 0), 0);
    const requestsBefore = requests();
    let checks = 0;
    while (next < midnight + 86_400_000) {
      // Workouts that reached the log before this check.
      for (const workout of pending.filter((entry) => entry.id === "" && entry.at <= next)) {
        now = workout.at;
        workout.id = await device(now);
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
      upstreamRequests: requests() - requestsBefore,
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

function stravaDeps(sandbox: RunningSandbox, clock: () => number): StravaToolDeps {
  const store = new MemoryCredentialStore({
    client_id: sandbox.clientId,
    client_secret: sandbox.clientSecret,
    refresh_token: sandbox.refreshToken(),
  });
  return createToolDeps({ store, logger: quiet, settings: { apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl }, now: clock });
}

function intervalsDeps(sandbox: RunningSandbox, clock: () => number): ToolDeps {
  return createIntervalsToolDeps({
    settings: { apiKey: sandbox.intervalsApiKey, athleteId: "0", apiBase: sandbox.intervalsApiBase },
    keyAdvice: "the sandbox refused its own key",
    logger: quiet,
    now: clock,
  });
}

/** A workout's local start, 45 minutes before it reaches the log. */
function localStart(arrivedAt: number): string {
  const wall = wallClockAt(arrivedAt - 45 * 60_000, zone);
  const two = (value: number): string => String(value).padStart(2, "0");
  return `${wall.year}-${two(wall.month)}-${two(wall.day)}T${two(wall.hour)}:${two(wall.minute)}:00`;
}

/** A workout as a watch's sync creates it on Strava: straight in the sandbox. */
async function stravaDevice(sandbox: RunningSandbox, deps: StravaToolDeps, arrivedAt: number): Promise<string> {
  const response = await fetch(`${sandbox.apiBase}/activities`, {
    method: "POST",
    headers: { authorization: `Bearer ${await deps.tokens.accessToken()}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      name: "Workout",
      sport_type: "Run",
      start_date_local: localStart(arrivedAt),
      elapsed_time: "2400",
    }).toString(),
  });
  if (response.status !== 201) throw new Error(`POST /activities: ${response.status} ${await response.text()}`);
  return String((JSON.parse(await response.text()) as { id: number }).id);
}

/** The same on intervals.icu (a device that syncs there directly). */
async function intervalsDevice(sandbox: RunningSandbox, arrivedAt: number): Promise<string> {
  const response = await fetch(`${sandbox.intervalsApiBase}/athlete/0/activities/manual`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`API_KEY:${sandbox.intervalsApiKey}`).toString("base64")}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ name: "Workout", type: "Run", start_date_local: localStart(arrivedAt), elapsed_time: 2400 }),
  });
  if (response.status !== 200) throw new Error(`POST /athlete/0/activities/manual: ${response.status} ${await response.text()}`);
  return (JSON.parse(await response.text()) as { id: string }).id;
}

const runs = [
  await simulateDay("15m, quiet hours 22:00-07:00 (the default)", {}),
  await simulateDay("15m, no quiet hours", { debriefQuietHours: "off" }),
  await simulateDay("5m, quiet hours 22:00-07:00", { debriefs: "5m" }),
  await simulateDay("intervals.icu: 15m, quiet hours 22:00-07:00 (the default)", {}, "intervals.icu"),
];
console.log(`Simulated day in ${zone}; workouts reach the log at ${arrivals.join(", ")} (local).\n`);
console.log("| Setting | Checks | Upstream requests | Wakes (model turns) | Wait from arrival to the waking check (min) |");
console.log("|---|---|---|---|---|");
for (const run of runs) {
  const waits = run.waits.map((wait) => `${wait.arrival}: ${wait.minutes}`).join(", ");
  console.log(`| ${run.label} | ${run.checks} | ${run.upstreamRequests} | ${run.wakes} | ${waits} |`);
}
