/**
 * The noticing, one check at a time, with the suite's clock: baseline, nothing new (no wake), a new
 * activity (one wake naming its id), a restart (no second wake), several at once (one wake naming five),
 * what the coach made (never), quiet hours (held until they end, in the athlete's zone), the read budget,
 * a failing check (told once, backed off), off and the athlete's choice against the setting, a write in
 * flight. The list of activities is handed in (its upstream request is tools/recent-activities.ts's, tested
 * against the sandbox); the record is a real file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { manualClock, testNow, type ManualClock } from "../../support/test-clock.ts";
import type { Logger } from "../../../common/logger.ts";
import type { RecentActivities, RecentActivity } from "../../../tools/recent-activities.ts";
import { errorResult } from "../../../tools/runner/tool-result.ts";
import { DebriefRecordFile } from "../../../plugin/debriefs/debrief-record.ts";
import { DebriefWatch, lookBackMs, maxBackOffMs, type DebriefSettings } from "../../../plugin/debriefs/debrief-watch.ts";
import { debriefEventMarker } from "../../../plugin/debriefs/debrief-wake.ts";
import { instantFromWallClock, wallClockAt } from "../../../common/time-zone.ts";

const minute = 60_000;
const interval = 15 * minute;
const zone = "America/Denver";

interface Harness {
  clock: ManualClock;
  /** A watch over the record; `gatewayZone` is the zone before the log shows the athlete's (default the athlete's). */
  watch: (settings?: Partial<DebriefSettings>, gatewayZone?: string) => DebriefWatch;
  log: Array<{ level: string; event: string; fields?: Record<string, unknown> }>;
  wakes: Array<{ text: string; contextKey: string }>;
  lists: number[];
  /** What the log holds, newest first; a test adds to it. */
  activities: RecentActivity[];
  listAnswer?: RecentActivities;
  resumeAt?: number;
  writesInFlight: number;
  recordPath: string;
}

let directory: string;
let h: Harness;

/** Wall time in the athlete's zone on testNow's local date (or `dayOffset` days later). */
function localAt(hhmm: string, dayOffset = 0): number {
  const day = wallClockAt(testNow, zone);
  const [hour, minuteOfHour] = hhmm.split(":").map(Number) as [number, number];
  return instantFromWallClock({ ...day, day: day.day + dayOffset, hour, minute: minuteOfHour, second: 0 }, zone);
}

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "debrief-watch-"));
  const clock = manualClock(localAt("12:00"));
  const log: Harness["log"] = [];
  const record = (level: string) => (event: string, fields?: Record<string, unknown>) =>
    log.push({ level, event, ...(fields ? { fields } : {}) });
  const logger: Logger = { debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error") };
  const recordPath = join(directory, "fitness", "debriefs.json");
  h = {
    clock,
    log,
    wakes: [],
    lists: [],
    activities: [],
    writesInFlight: 0,
    recordPath,
    watch: (settings = {}, gatewayZone = zone) =>
      new DebriefWatch({
        settings: {
          debriefs: "15m",
          debriefAgent: "coach",
          debriefQuietHours: "22:00-07:00",
          debriefTimeZone: "",
          debriefTestIntervalSeconds: 0,
          ...settings,
        },
        record: new DebriefRecordFile(recordPath, logger),
        listRecent: async (sinceMs) => {
          h.lists.push(sinceMs);
          const activities = h.activities.filter((a) => a.startedAtMs >= sinceMs);
          // As the real list: the zone comes from an activity's label, so an empty list shows none.
          return h.listAnswer ?? { ok: true, activities, ...(activities.length > 0 ? { timeZone: zone } : {}) };
        },
        readsResumeAt: async () => h.resumeAt,
        wake: (text, contextKey) => {
          h.wakes.push({ text, contextKey });
          return true;
        },
        logger,
        now: clock.now,
        fallbackTimeZone: gatewayZone,
        writesInFlight: () => h.writesInFlight,
      }),
  };
});

afterEach(() => rmSync(directory, { recursive: true, force: true }));

let nextId = 17_000_000_000;
function upload(minutesAgo: number, uploadId?: string): RecentActivity {
  const activity: RecentActivity = {
    id: String(nextId++),
    startedAtMs: h.clock.now() - minutesAgo * minute,
    ...(uploadId ? { uploadId } : {}),
  };
  h.activities.unshift(activity);
  return activity;
}

describe("noticing new activities", () => {
  it("takes a baseline when turned on, then makes no wake while nothing is new", async () => {
    upload(300);
    upload(60);
    const watch = h.watch();
    expect(await watch.check()).toEqual({ kind: "baseline", seen: 2, nextAtMs: h.clock.now() + interval });
    h.clock.advance(interval);
    expect(await watch.check()).toEqual({ kind: "nothing-new", nextAtMs: h.clock.now() + interval });
    expect(h.wakes).toEqual([]);
    // One list request per check, reaching 48 hours back.
    expect(h.lists).toEqual([localAt("12:00") - lookBackMs, localAt("12:15") - lookBackMs]);
  });

  it("wakes the coach once for a new activity, with its id only; a restart does not wake it again", async () => {
    upload(600);
    await h.watch().check();
    h.clock.advance(interval);
    const ride = upload(40);
    expect(await h.watch().check()).toMatchObject({ kind: "woke", ids: [ride.id] });
    expect(h.wakes).toHaveLength(1);
    expect(h.wakes[0]?.text).toMatch(
      new RegExp(`^\\${debriefEventMarker} New in the athlete's training log since the last check: activity ${ride.id}\\. `),
    );
    // A new watch over the same record: what a restarted gateway has.
    h.clock.advance(interval);
    expect(await h.watch().check()).toMatchObject({ kind: "nothing-new" });
    expect(h.wakes).toHaveLength(1);
  });

  it("debriefs a watch that synced late (started a day and a half ago, listed only now)", async () => {
    await h.watch().check();
    h.clock.advance(interval);
    const late = upload(36 * 60);
    expect(await h.watch().check()).toMatchObject({ kind: "woke", ids: [late.id] });
  });

  it("makes one wake for what arrived while the gateway was down, naming the newest five and counting the rest", async () => {
    await h.watch().check();
    h.clock.advance(6 * 60 * minute);
    const arrived = [1, 2, 3, 4, 5, 6, 7].map((index) => upload(300 - index * 30));
    const outcome = await h.watch().check();
    const newestFirst = [...arrived].reverse().map((activity) => activity.id);
    expect(outcome).toMatchObject({ kind: "woke", ids: newestFirst });
    expect(h.wakes).toHaveLength(1);
    expect(h.wakes[0]?.text).toContain(`activities ${newestFirst.slice(0, 5).join(", ")} and 2 more not named here.`);
  });

  it("never debriefs what the coach made: a created activity, an upload, the activity an upload became", async () => {
    const watch = h.watch();
    await watch.check();
    const created = upload(5);
    await watch.noteCoachMade({ activityIds: [created.id] }, true);
    // An upload: its id now, the activity later; the list shows the activity with its upload id first.
    await watch.noteCoachMade({ uploadId: "9001" }, true);
    upload(3, "9001");
    // Another upload's activity, learned from its status (a read of the coach's own upload).
    await watch.noteCoachMade({ uploadId: "9002" }, true);
    const third = upload(2);
    await watch.noteCoachMade({ uploadId: "9002", activityIds: [third.id] }, false);
    // A status read of an upload that was not the coach's names no activity of the coach's.
    const device = upload(1);
    await watch.noteCoachMade({ uploadId: "7777", activityIds: [device.id] }, false);
    h.clock.advance(interval);
    expect(await watch.check()).toMatchObject({ kind: "woke", ids: [device.id] });
  });

  it("waits while a write of the coach's is in flight", async () => {
    const watch = h.watch();
    await watch.check();
    h.writesInFlight = 1;
    h.clock.advance(interval);
    expect(await watch.check()).toEqual({ kind: "busy", nextAtMs: h.clock.now() + 5_000 });
    expect(h.lists).toHaveLength(1);
  });
});

describe("quiet hours", () => {
  it("makes no check during them, and the first check after them debriefs what came meanwhile", async () => {
    const watch = h.watch();
    await watch.check();
    h.clock.set(localAt("23:10"));
    const night = upload(5);
    expect(await watch.check()).toEqual({ kind: "quiet", nextAtMs: localAt("07:00", 1) });
    expect(h.lists).toHaveLength(1);
    h.clock.set(localAt("07:00", 1));
    expect(await watch.check()).toMatchObject({ kind: "woke", ids: [night.id] });
  });

  it("take no baseline off: debriefs turned on at night debrief the morning's early session", async () => {
    h.clock.set(localAt("23:30"));
    const watch = h.watch();
    expect((await watch.check()).kind).toBe("baseline");
    h.clock.set(localAt("06:10", 1));
    const swim = upload(40);
    expect(await watch.check()).toEqual({ kind: "quiet", nextAtMs: localAt("07:00", 1) });
    h.clock.set(localAt("07:00", 1));
    expect(await watch.check()).toMatchObject({ kind: "woke", ids: [swim.id] });
  });

  it("reads them in the zone the setting names instead of the athlete's", async () => {
    const watch = h.watch({ debriefTimeZone: "Asia/Tokyo" });
    await watch.check();
    // 12:00 in Denver is 04:00 in Tokyo: quiet there.
    h.clock.advance(interval);
    expect((await watch.check()).kind).toBe("quiet");
  });

  it("off: checks at any hour", async () => {
    h.clock.set(localAt("03:00"));
    expect((await h.watch({ debriefQuietHours: "off" }).check()).kind).toBe("baseline");
  });

  it("before the log has shown a zone, reads them in the gateway's", async () => {
    // Nothing in the log: no zone learned. 23:30 UTC (16:30 in Denver) is quiet in the gateway's zone, UTC.
    h.clock.set(Date.UTC(2026, 10, 21, 23, 30));
    const watch = h.watch({}, "UTC");
    await watch.check();
    h.clock.advance(minute);
    expect((await watch.check()).kind).toBe("quiet");
  });
});

describe("the read budget", () => {
  it("skips checks while the upstream's headers show 80% of a read window used, until it resets", async () => {
    const watch = h.watch();
    await watch.check();
    h.resumeAt = h.clock.now() + 40 * minute;
    h.clock.advance(interval);
    expect(await watch.check()).toEqual({ kind: "rate-limited", nextAtMs: h.resumeAt });
    expect(h.lists).toHaveLength(1);
    expect(h.log.find((line) => line.event === "debrief_check_skipped")?.fields).toMatchObject({
      reason: "upstream read limit at 80% or more",
    });
  });
});

describe("a failing check", () => {
  it("is told to the athlete once, logged each time, and backed off (twice the interval, four times, ... up to six hours)", async () => {
    const quietOff = { debriefQuietHours: "off" };
    const watch = h.watch(quietOff);
    await watch.check();
    h.listAnswer = { ok: false, error: errorResult("Strava refused the access token.", 401, "UpstreamStatusError") };
    h.clock.advance(interval);
    const first = await watch.check();
    expect(first).toEqual({ kind: "failed", cause: "refused", told: true, nextAtMs: h.clock.now() + 2 * interval });
    expect(h.wakes).toHaveLength(1);
    expect(h.wakes[0]?.text).toContain("refused the plugin's access");
    // Not before the back-off ends.
    h.clock.advance(interval);
    expect(await watch.check()).toEqual({ kind: "backing-off", nextAtMs: first.kind === "failed" ? first.nextAtMs : 0 });
    h.clock.advance(interval);
    expect(await watch.check()).toEqual({ kind: "failed", cause: "refused", told: false, nextAtMs: h.clock.now() + 4 * interval });
    expect(h.wakes).toHaveLength(1);
    expect(h.log.filter((line) => line.event === "debrief_check_failed")).toHaveLength(2);
    // A restart keeps the back-off and does not tell the athlete again; the back-off grows to its cap.
    h.listAnswer = { ok: false, error: errorResult("Strava did not answer.", undefined, "UpstreamTimeoutError") };
    const waits: number[] = [];
    for (let failure = 3; failure <= 5; failure++) {
      h.clock.advance(2 ** (failure - 1) * interval);
      const outcome = await h.watch(quietOff).check();
      expect(outcome).toMatchObject({ kind: "failed", cause: "unavailable", told: false });
      waits.push((outcome as { nextAtMs: number }).nextAtMs - h.clock.now());
    }
    expect(waits).toEqual([8 * interval, 16 * interval, maxBackOffMs]);
    expect(h.wakes).toHaveLength(1);
    delete h.listAnswer;
    h.clock.advance(maxBackOffMs);
    expect(await h.watch(quietOff).check()).toMatchObject({ kind: "nothing-new" });
    expect(h.log.some((line) => line.event === "debrief_check_recovered")).toBe(true);
    // A new run of failures is told again.
    h.listAnswer = { ok: false, error: errorResult("Strava answered 500.", 500, "UpstreamStatusError") };
    h.clock.advance(interval);
    expect(await h.watch(quietOff).check()).toMatchObject({ kind: "failed", cause: "unavailable", told: true });
    expect(h.wakes).toHaveLength(2);
  });
});

describe("on and off", () => {
  it("makes no check while the setting is off", async () => {
    expect(await h.watch({ debriefs: "off" }).check()).toEqual({ kind: "off" });
    expect(h.lists).toEqual([]);
  });

  it("the athlete's choice stands until a different setting is written; turning on debriefs nothing already there", async () => {
    const watch = h.watch();
    await watch.check();
    expect(await watch.choose(false)).toMatchObject({ on: false, decidedBy: "athlete" });
    h.clock.advance(interval);
    const whileOff = upload(10);
    expect(await watch.check()).toEqual({ kind: "off" });
    expect(await watch.choose(true)).toMatchObject({ on: true, decidedBy: "athlete" });
    expect(await watch.check()).toMatchObject({ kind: "baseline" });
    h.clock.advance(interval);
    expect(await watch.check()).toMatchObject({ kind: "nothing-new" });
    expect(h.wakes.map((wake) => wake.text).join()).not.toContain(whileOff.id);
    // Off again in chat; then the operator writes another setting ("30m"): that is the newer choice.
    await watch.choose(false);
    const rerun = h.watch({ debriefs: "30m" });
    expect(await rerun.plan()).toEqual({ on: true, intervalMs: 30 * minute, decidedBy: "setting" });
    // With the setting the athlete chose under, their choice stands.
    expect(await h.watch({ debriefs: "15m" }).plan()).toMatchObject({ on: false, decidedBy: "athlete" });
  });

  it("the athlete can turn on what the setting has off", async () => {
    const watch = h.watch({ debriefs: "off" });
    expect(await watch.choose(true)).toEqual({ on: true, intervalMs: interval, decidedBy: "athlete" });
    expect((await watch.check()).kind).toBe("baseline");
  });

  it("a test interval below five minutes comes only from the test setting", async () => {
    expect(await h.watch({ debriefTestIntervalSeconds: 5 }).plan()).toMatchObject({ intervalMs: 5_000 });
  });
});

describe("the record", () => {
  it("is kept in one file, and forgets ids a week after their start", async () => {
    const old = upload(47 * 60);
    await h.watch().check();
    expect(Object.keys(JSON.parse(readFileSync(h.recordPath, "utf8")).seen as object)).toEqual([old.id]);
    h.clock.advance(6 * 24 * 60 * minute);
    h.activities = [];
    await h.watch().check();
    expect(Object.keys(JSON.parse(readFileSync(h.recordPath, "utf8")).seen as object)).toEqual([]);
  });

  it("set aside when unreadable: a new baseline, nothing debriefed twice, said in the log", async () => {
    upload(30);
    await h.watch().check();
    writeFileSync(h.recordPath, "{ not json");
    h.clock.advance(interval);
    upload(5);
    expect((await h.watch().check()).kind).toBe("baseline");
    expect(h.wakes).toEqual([]);
    expect(readdirSync(join(directory, "fitness")).some((name) => name.startsWith("debriefs.json.unreadable-"))).toBe(true);
    expect(h.log.find((line) => line.event === "debrief_record_unreadable")?.level).toBe("warn");
  });
});
