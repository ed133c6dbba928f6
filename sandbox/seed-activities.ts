/**
 * The seed athlete's last year of training, generated deterministically from a seed and the clock.
 *
 * Each calendar day draws its sessions from a weekly routine with its own PRNG (seeded by the seed and
 * the date), so a given day holds the same activities whichever day the sandbox starts on, and the
 * same seed and clock always give byte-identical data. The year has a shape a training-load summary can
 * read: a lighter base period (fewer sessions, easy runs instead of intervals, rides before Blue's power
 * meter with Strava's estimated power only), then the current block of the last 90 days, and on top of it
 * one 6-hour ride (the Saturday nearest to five weeks ago, recorded at 1 Hz: 21,600 points), a run within
 * the last 18 hours and a gym session today, which is what a coach is asked about first, and a recovery
 * week, a build and a spike relative to today (sandbox/training-block.ts).
 */
import type { Activity } from "./activity-model.ts";
import { createPrng, deriveSeed } from "./prng.ts";
import type { Prng } from "./prng.ts";
import { seedAthlete } from "./seed-athlete.ts";
import { wallClockAt } from "../common/time-zone.ts";
import { localMidnight, stravaTimezoneLabel } from "./strava-dates.ts";
import { blockSessions, droppedForRecovery } from "./training-block.ts";
import type { Session } from "./seed-session.ts";
import { handLoggedActivity } from "./hand-logged-activity.ts";
import { kinds } from "./kind-profiles.ts";
import { routineFor } from "./weekly-routine.ts";
import { activityIdForStart, buildActivity } from "./seeded-activity.ts";

/** Days of history: about a year. */
export const historyDays = 365;
/** The current block: the last 90 days, with Blue's power meter; the base period is the days before. */
export const blockDays = 90;
/** In the base period, the share of the routine's sessions kept. */
const baseShare = 0.55;
/** Elapsed time of the long ride: 6 hours at 1 Hz is 21,600 stream points. */
export const longRideSeconds = 21_600;

const dayMs = 86_400_000;

export function seedActivities(seed: number, nowMs: number): Activity[] {
  const year: SeedYear = { seed, nowMs, zone: seedAthlete.timeZone, timezoneLabel: stravaTimezoneLabel(seedAthlete.timeZone, nowMs) };
  return [...routineActivities(year), ...blockActivities(year), ...firstAskedAbout(year)].sort((a, b) => a.startMs - b.startMs);
}

/** What every step of the year is built from: the seed, now, and the athlete's zone and Strava's label for it. */
interface SeedYear {
  seed: number;
  nowMs: number;
  zone: string;
  timezoneLabel: string;
}

/** Each day of the year's routine sessions (the long ride on its day), thinned in the base period and the block's recovery week. */
function routineActivities({ seed, nowMs, zone, timezoneLabel }: SeedYear): Activity[] {
  const cutoff = nowMs - 24 * 3_600_000;
  const longRideDay = nearestSaturdayOffset(zone, nowMs, 35);
  const todayParts = wallClockAt(nowMs, zone);
  const today = Math.floor(Date.UTC(todayParts.year, todayParts.month - 1, todayParts.day) / dayMs);
  const activities: Activity[] = [];
  let privateYogaDone = false;
  for (let offset = historyDays; offset >= 0; offset--) {
    const midnight = localMidnight(nowMs, zone, offset);
    const date = wallClockAt(midnight + 12 * 3_600_000, zone);
    const dayNumber = Math.floor(Date.UTC(date.year, date.month - 1, date.day) / dayMs);
    const weekday = new Date(dayNumber * dayMs).getUTCDay();
    const prng = createPrng(deriveSeed(seed, dayNumber));
    const inBlock = offset <= blockDays;
    const sessions = offset === longRideDay ? [longRide()] : routineFor(weekday, date.month, prng);
    for (const session of sessions) {
      const startMs = midnight + ((session.localHour * 60 + session.localMinute) * 60 + prng.int(0, 59)) * 1000;
      if (startMs >= cutoff || startMs < nowMs - historyDays * dayMs) continue;
      if (inBlock && droppedForRecovery(session.kind, dayNumber, today)) continue;
      if (!inBlock && !baseSession(session, prng)) continue;
      if (inBlock && session.sportType === "Yoga" && !privateYogaDone) {
        session.private = true;
        session.description = "Home practice. Hips and hamstrings.";
        privateYogaDone = true;
      }
      activities.push(buildActivity(seed, session, startMs, zone, timezoneLabel, date.month));
    }
  }
  return activities;
}

/** The sessions the training block adds relative to today (sandbox/training-block.ts), some of them logged by hand. */
function blockActivities({ seed, nowMs, zone, timezoneLabel }: SeedYear): Activity[] {
  return blockSessions.map((block) => {
    const { session } = block;
    const startMs =
      localMidnight(nowMs, zone, block.daysBack) + ((session.localHour * 60 + session.localMinute) * 60 + block.second) * 1000;
    const input = {
      id: activityIdForStart(startMs),
      name: session.name ?? "",
      description: session.description ?? "",
      sportType: session.sportType,
      startMs,
      elapsed: session.elapsed,
    };
    return block.handLogged
      ? handLoggedActivity({ ...input, distance: block.handLogged.distance, zone, timezoneLabel })
      : buildActivity(seed, session, startMs, zone, timezoneLabel, wallClockAt(startMs, zone).month);
  });
}

/** The two that a coach is asked about first: a run within the last 18 hours and a gym session today. */
function firstAskedAbout({ seed, nowMs, zone, timezoneLabel }: SeedYear): Activity[] {
  const anchor = Math.floor(nowMs / 300_000) * 300_000;
  const recentRunStart = anchor - (10 * 60 + 20) * 60_000;
  const runParts = wallClockAt(recentRunStart, zone);
  const run: Session = { sportType: "Run", kind: "easy-run", localHour: runParts.hour, localMinute: runParts.minute, elapsed: 2_760 };
  const gymStart = Math.max(localMidnight(nowMs, zone), anchor - 75 * 60_000);
  const gymParts = wallClockAt(gymStart, zone);
  const gym: Session = {
    sportType: "WeightTraining",
    kind: "weights",
    localHour: gymParts.hour,
    localMinute: gymParts.minute,
    elapsed: 3_540,
    description: "",
  };
  return [
    buildActivity(seed, run, recentRunStart, zone, timezoneLabel, runParts.month),
    buildActivity(seed, gym, gymStart, zone, timezoneLabel, gymParts.month),
  ];
}

/** Days back to the Saturday nearest `targetDaysBack` days ago. */
function nearestSaturdayOffset(zone: string, nowMs: number, targetDaysBack: number): number {
  for (let delta = 0; delta <= 3; delta++) {
    for (const offset of [targetDaysBack - delta, targetDaysBack + delta]) {
      const p = wallClockAt(localMidnight(nowMs, zone, offset) + 12 * 3_600_000, zone);
      if (new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay() === 6) return offset;
    }
  }
  return targetDaysBack;
}

/**
 * Whether a routine session happens in the base period, reshaped for it: about half of them, the interval runs
 * as easy runs, and rides before Blue's power meter. Draws from the day's PRNG after the routine's own draws, so
 * the block's days are untouched.
 */
function baseSession(session: Session, prng: Prng): boolean {
  if (!prng.chance(baseShare)) return false;
  if (session.kind === "interval-run") {
    session.kind = "easy-run";
    session.name = "Easy run";
  }
  if (kinds[session.kind].streams.includes("watts")) session.noPowerMeter = true;
  return true;
}

function longRide(): Session {
  return {
    sportType: "Ride",
    kind: "long-ride",
    localHour: 7,
    localMinute: 10,
    elapsed: longRideSeconds,
    name: "Peak to Peak big day",
    description: "Lefthand to Ward, Peak to Peak to Nederland, down Boulder Canyon. Coffee stop in Ward. Legs cooked on the last climb.",
  };
}
