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
import type { ActivityFileSummary } from "./activity-files.ts";
import type { Activity, RecordingPlan, RouteShape, StreamKey } from "./activity-model.ts";
import { activityTypeFor, defaultActivityName } from "./activity-model.ts";
import { createPrng, deriveSeed } from "./prng.ts";
import type { Prng } from "./prng.ts";
import { seedAthlete, gearById } from "./seed-athlete.ts";
import { wallClockAt } from "../common/time-zone.ts";
import { localMidnight, stravaTimezoneLabel, utcOffsetSeconds } from "./strava-dates.ts";
import { round, routeEvaluator, routePoints, terrainSummary } from "./route-geometry.ts";
import { estimateProfile, stoppedSeconds } from "./speed-model.ts";
import { encodePolyline } from "./polyline.ts";
import { segmentChoicesFor } from "./segments.ts";
import { blockSessions, droppedForRecovery } from "./training-block.ts";
import type { Session, SessionKind } from "./seed-session.ts";
import { handLoggedActivity } from "./hand-logged-activity.ts";

/** Days of history: about a year. */
export const historyDays = 365;
/** The current block: the last 90 days, with Blue's power meter; the base period is the days before. */
export const blockDays = 90;
/** In the base period, the share of the routine's sessions kept. */
const baseShare = 0.55;
/** Elapsed time of the long ride: 6 hours at 1 Hz is 21,600 stream points. */
export const longRideSeconds = 21_600;

const dayMs = 86_400_000;

/** Activity id from the start time: increasing like Strava's, 11 digits, far below 2^53. */
export function activityIdForStart(startMs: number): number {
  return 15_000_000_000 + Math.floor((startMs - Date.UTC(2000, 0, 1)) / 1000);
}

export function seedActivities(seed: number, nowMs: number): Activity[] {
  const zone = seedAthlete.timeZone;
  const timezoneLabel = stravaTimezoneLabel(zone, nowMs);
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

  for (const block of blockSessions) {
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
    activities.push(
      block.handLogged
        ? handLoggedActivity({ ...input, distance: block.handLogged.distance, zone, timezoneLabel })
        : buildActivity(seed, session, startMs, zone, timezoneLabel, wallClockAt(startMs, zone).month),
    );
  }

  // The two that a coach is asked about first: a run within the last 18 hours and a gym session today.
  const anchor = Math.floor(nowMs / 300_000) * 300_000;
  const recentRunStart = anchor - (10 * 60 + 20) * 60_000;
  const runParts = wallClockAt(recentRunStart, zone);
  activities.push(
    buildActivity(
      seed,
      { sportType: "Run", kind: "easy-run", localHour: runParts.hour, localMinute: runParts.minute, elapsed: 2_760 },
      recentRunStart,
      zone,
      timezoneLabel,
      runParts.month,
    ),
  );
  const gymStart = Math.max(localMidnight(nowMs, zone), anchor - 75 * 60_000);
  const gymParts = wallClockAt(gymStart, zone);
  activities.push(
    buildActivity(
      seed,
      {
        sportType: "WeightTraining",
        kind: "weights",
        localHour: gymParts.hour,
        localMinute: gymParts.minute,
        elapsed: 3_540,
        description: "",
      },
      gymStart,
      zone,
      timezoneLabel,
      gymParts.month,
    ),
  );
  return activities.sort((a, b) => a.startMs - b.startMs);
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

/** The weekly routine: what the athlete usually does on each weekday (0 = Sunday), with some randomness. */
function routineFor(weekday: number, month: number, prng: Prng): Session[] {
  const winter = month === 12 || month <= 3 || month === 11;
  const sessions: Session[] = [];
  const at = (hour: number, minuteSpread: number): { localHour: number; localMinute: number } => ({
    localHour: hour,
    localMinute: prng.int(0, minuteSpread),
  });
  switch (weekday) {
    case 1:
      if (prng.chance(0.8)) sessions.push({ sportType: "WeightTraining", kind: "weights", ...at(6, 40), elapsed: prng.int(3_300, 4_200) });
      break;
    case 2:
      if (prng.chance(0.75)) {
        sessions.push({
          sportType: "Run",
          kind: "interval-run",
          ...at(6, 30),
          elapsed: prng.int(2_700, 3_600),
          name: prng.pick(["Tempo Tuesday", "6x800 on the creek path", "Track: 5x1k", "Hill repeats"]),
        });
      }
      if (prng.chance(0.2)) sessions.push({ sportType: "Yoga", kind: "yoga", ...at(19, 20), elapsed: prng.int(2_400, 3_600) });
      break;
    case 3:
      if (prng.chance(0.6)) {
        if (winter && prng.chance(0.6)) {
          sessions.push({
            sportType: "VirtualRide",
            kind: "virtual-ride",
            ...at(18, 30),
            elapsed: prng.int(3_300, 4_500),
            name: prng.pick(["Zwift - Tempus Fugit in Watopia", "Zwift - Volcano Circuit in Watopia", "Zwift - Group Ride: Sweet Spot"]),
          });
        } else {
          sessions.push({ sportType: "Ride", kind: "ride", ...at(16, 50), elapsed: prng.int(4_200, 6_600) });
        }
      }
      break;
    case 4:
      if (prng.chance(0.6)) {
        sessions.push({
          sportType: "Workout",
          kind: "workout",
          ...at(6, 5),
          elapsed: prng.int(3_300, 3_900),
          name: prng.pick(["Iron Temple | Squat + Metcon", "Iron Temple | Deadlift + Engine", "Iron Temple | Partner WOD"]),
        });
      }
      if (prng.chance(0.15)) sessions.push({ sportType: "Run", kind: "easy-run", ...at(18, 30), elapsed: prng.int(2_100, 2_700) });
      break;
    case 5:
      if (prng.chance(0.55)) {
        sessions.push({
          sportType: "Swim",
          kind: "swim",
          ...at(6, 20),
          elapsed: prng.int(2_700, 3_300),
          name: prng.pick(["Masters swim", "Morning Swim", "Pool: 10x100 + pull"]),
        });
      }
      break;
    case 6:
      if (prng.chance(0.5)) {
        const gravel = prng.chance(0.35);
        sessions.push({
          sportType: gravel ? "GravelRide" : "Ride",
          kind: gravel ? "gravel-ride" : "ride",
          ...at(8, 40),
          elapsed: prng.int(8_400, 12_600),
          name: gravel
            ? prng.pick(["Gravel loop via Sixth Ave", "Dirt roads north of town"])
            : prng.pick(["Saturday group ride", "Carter Lake loop", "Lefthand + Olde Stage"]),
        });
      } else if (prng.chance(0.25)) {
        sessions.push({
          sportType: "Hike",
          kind: "hike",
          ...at(8, 45),
          elapsed: prng.int(9_000, 13_500),
          name: prng.pick(["Green Mountain via Gregory Canyon", "Bear Peak", "South Boulder Peak"]),
        });
      }
      break;
    case 0:
      if (prng.chance(0.7)) {
        const trail = prng.chance(0.35);
        sessions.push({
          sportType: trail ? "TrailRun" : "Run",
          kind: trail ? "trail-run" : "long-run",
          ...at(8, 30),
          elapsed: prng.int(4_800, 6_900),
          name: trail ? prng.pick(["Mesa Trail out and back", "Sanitas loop"]) : "Sunday long run",
        });
      }
      break;
  }
  return sessions;
}

interface KindProfile {
  speed: [number, number];
  gainPerKm: number;
  heartrate: [number, number];
  cadence: { average: [number, number]; spread: number } | null;
  streams: readonly StreamKey[];
  environment: "outdoor" | "virtual" | "pool" | "indoor";
  gear: string | null;
  device: string;
}

const outdoorStreams: readonly StreamKey[] = [
  "time",
  "distance",
  "latlng",
  "altitude",
  "velocity_smooth",
  "heartrate",
  "cadence",
  "temp",
  "moving",
  "grade_smooth",
];
const poweredStreams: readonly StreamKey[] = [
  "time",
  "distance",
  "latlng",
  "altitude",
  "velocity_smooth",
  "heartrate",
  "cadence",
  "watts",
  "temp",
  "moving",
  "grade_smooth",
];
const virtualStreams: readonly StreamKey[] = [
  "time",
  "distance",
  "latlng",
  "altitude",
  "velocity_smooth",
  "heartrate",
  "cadence",
  "watts",
  "moving",
  "grade_smooth",
];
const poolStreams: readonly StreamKey[] = ["time", "distance", "velocity_smooth", "heartrate", "cadence", "moving"];
const indoorStreams: readonly StreamKey[] = ["time", "heartrate", "moving"];

const kinds: Record<SessionKind, KindProfile> = {
  "easy-run": {
    speed: [2.85, 3.1],
    gainPerKm: 9,
    heartrate: [140, 176],
    cadence: { average: [84, 87], spread: 2 },
    streams: outdoorStreams,
    environment: "outdoor",
    gear: "g14872203",
    device: "Garmin Forerunner 965",
  },
  "interval-run": {
    speed: [3.1, 3.35],
    gainPerKm: 7,
    heartrate: [156, 184],
    cadence: { average: [86, 90], spread: 3 },
    streams: outdoorStreams,
    environment: "outdoor",
    gear: "g14872203",
    device: "Garmin Forerunner 965",
  },
  "long-run": {
    speed: [2.8, 3.0],
    gainPerKm: 10,
    heartrate: [146, 178],
    cadence: { average: [84, 86], spread: 2 },
    streams: outdoorStreams,
    environment: "outdoor",
    gear: "g14872203",
    device: "Garmin Forerunner 965",
  },
  "trail-run": {
    speed: [2.3, 2.6],
    gainPerKm: 38,
    heartrate: [150, 182],
    cadence: { average: [80, 84], spread: 4 },
    streams: outdoorStreams,
    environment: "outdoor",
    gear: "g16200981",
    device: "Garmin Forerunner 965",
  },
  ride: {
    speed: [7.3, 8.1],
    gainPerKm: 11,
    heartrate: [132, 170],
    cadence: { average: [86, 90], spread: 5 },
    streams: poweredStreams,
    environment: "outdoor",
    gear: "b9120457",
    device: "Garmin Edge 840",
  },
  "gravel-ride": {
    speed: [6.1, 6.7],
    gainPerKm: 9,
    heartrate: [134, 168],
    cadence: { average: [80, 84], spread: 6 },
    streams: outdoorStreams,
    environment: "outdoor",
    gear: "b10566312",
    device: "Garmin Edge 840",
  },
  "long-ride": {
    speed: [7.6, 7.7],
    gainPerKm: 14.5,
    heartrate: [128, 174],
    cadence: { average: [84, 86], spread: 5 },
    streams: poweredStreams,
    environment: "outdoor",
    gear: "b9120457",
    device: "Garmin Edge 840",
  },
  "virtual-ride": {
    speed: [8.4, 9.0],
    gainPerKm: 8,
    heartrate: [141, 172],
    cadence: { average: [88, 92], spread: 4 },
    streams: virtualStreams,
    environment: "virtual",
    gear: "b9120457",
    device: "Zwift",
  },
  hike: {
    speed: [1.15, 1.35],
    gainPerKm: 95,
    heartrate: [118, 152],
    cadence: { average: [50, 54], spread: 4 },
    streams: outdoorStreams,
    environment: "outdoor",
    gear: "g16200981",
    device: "Garmin Forerunner 965",
  },
  swim: {
    speed: [0.76, 0.84],
    gainPerKm: 0,
    heartrate: [128, 154],
    cadence: { average: [26, 29], spread: 3 },
    streams: poolStreams,
    environment: "pool",
    gear: null,
    device: "Garmin Forerunner 965",
  },
  weights: {
    speed: [0, 0],
    gainPerKm: 0,
    heartrate: [104, 142],
    cadence: null,
    streams: indoorStreams,
    environment: "indoor",
    gear: null,
    device: "Garmin Forerunner 965",
  },
  workout: {
    speed: [0, 0],
    gainPerKm: 0,
    heartrate: [138, 178],
    cadence: null,
    streams: indoorStreams,
    environment: "indoor",
    gear: null,
    device: "Garmin Forerunner 965",
  },
  yoga: {
    speed: [0, 0],
    gainPerKm: 0,
    heartrate: [86, 108],
    cadence: null,
    streams: indoorStreams,
    environment: "indoor",
    gear: null,
    device: "Garmin Forerunner 965",
  },
};

const monthlyTemperature = [-1, 1, 5, 9, 14, 20, 23, 22, 17, 10, 4, -1];

/** What an uploaded file says about its activity; the rest is filled in like a seeded activity's. */
export interface RecordedActivityInput extends ActivityFileSummary {
  id: number;
  uploadId: number;
  externalId: string;
  description: string | null;
  trainer: boolean;
  commute: boolean;
}

/** An activity created by an upload, with generated streams that match the file's summary. */
export function recordedActivity(seed: number, input: RecordedActivityInput, nowMs: number): Activity {
  const zone = seedAthlete.timeZone;
  const local = wallClockAt(input.startMs, zone);
  const session: Session = {
    sportType: input.sportType,
    kind: kindForSport(input.sportType),
    localHour: local.hour,
    localMinute: local.minute,
    elapsed: input.elapsed,
    ...(input.name ? { name: input.name } : {}),
    description: input.description ?? "",
  };
  const activity = buildActivity(seed, session, input.startMs, zone, stravaTimezoneLabel(zone, nowMs), local.month, input);
  activity.trainer = input.trainer || activity.trainer;
  activity.commute = input.commute;
  return activity;
}

function kindForSport(sportType: string): SessionKind {
  switch (activityTypeFor(sportType)) {
    case "Run":
      return sportType === "TrailRun" ? "trail-run" : "easy-run";
    case "Ride":
      return sportType === "GravelRide" || sportType === "MountainBikeRide" ? "gravel-ride" : "ride";
    case "VirtualRide":
      return "virtual-ride";
    case "Swim":
      return "swim";
    case "Hike":
    case "Walk":
      return "hike";
    case "WeightTraining":
      return "weights";
    case "Yoga":
      return "yoga";
    default:
      return "workout";
  }
}

function buildActivity(
  seed: number,
  session: Session,
  startMs: number,
  zone: string,
  timezoneLabel: string,
  month: number,
  upload?: RecordedActivityInput,
): Activity {
  const id = upload?.id ?? activityIdForStart(startMs);
  const prng = createPrng(deriveSeed(seed, 0xac7, id % 1_000_000_007));
  const profile = kinds[session.kind];
  const kind = session.noPowerMeter ? { ...profile, streams: profile.streams.filter((key) => key !== "watts") } : profile;
  const type = activityTypeFor(session.sportType);
  const elapsed = session.elapsed;
  const utcOffset = utcOffsetSeconds(startMs, zone);
  const hr = {
    average: kind.heartrate[0] + prng.int(-3, 3),
    max: kind.heartrate[1] + prng.int(-3, 3),
    resting: seedAthlete.heartrate.resting,
  };

  const stops = stopsFor(session.kind, elapsed, prng);
  const plan: RecordingPlan = {
    seed: deriveSeed(seed, 0x57e, id % 1_000_000_007),
    streams: kind.streams,
    seriesType: kind.environment === "indoor" ? "time" : "distance",
    stops,
    speedWaves: speedWavesFor(session.kind, prng),
    route: null,
    heartrate: hr,
    cadence: kind.cadence ? { average: prng.int(kind.cadence.average[0], kind.cadence.average[1]), spread: kind.cadence.spread } : null,
    watts: null,
    temperature: null,
  };
  const movingTime = elapsed - stoppedSeconds(plan);
  const modelled = kind.environment === "indoor" ? 0 : round(movingTime * prng.between(kind.speed[0], kind.speed[1]), 1);
  const distance = upload?.distance && kind.environment !== "indoor" ? round(upload.distance, 1) : modelled;

  if (kind.environment === "outdoor" || kind.environment === "virtual") {
    plan.route = routeFor(session.kind, distance, kind.gainPerKm, prng, upload?.start ?? null);
  }
  const gear = kind.gear ? gearById(kind.gear) : undefined;
  if (kind.streams.includes("watts")) {
    const average = session.kind === "virtual-ride" ? prng.int(182, 196) : session.kind === "long-ride" ? 152 : prng.int(160, 182);
    plan.watts = { average, max: prng.int(average * 3, average * 4) };
  }
  if (kind.streams.includes("temp")) {
    const base = (monthlyTemperature[month - 1] ?? 10) + (session.localHour < 9 ? -3 : session.localHour > 15 ? 1 : 3);
    plan.temperature = { start: base + prng.int(-2, 2), change: session.localHour < 12 ? prng.int(1, 4) : -prng.int(1, 3) };
  }
  // The peak speed from a coarse look at the speed profile; the streams then peak at exactly this value.
  const estimate = distance > 0 ? estimateProfile(plan, elapsed, 10) : { sum: 0, max: 0 };
  const scale = estimate.sum > 0 ? distance / estimate.sum : 0;

  const terrain = plan.route ? terrainSummary(plan.route, distance) : null;
  // Without a power meter Strava estimates a ride's power (device_watts false); the sandbox from speed.
  const estimatedPower = type === "Ride" || type === "VirtualRide";
  const averageWatts = plan.watts?.average ?? (estimatedPower && movingTime > 0 ? round((distance / movingTime) * 22.5, 1) : null);
  const kilojoules = averageWatts !== null ? round((averageWatts * movingTime) / 1000, 1) : null;
  const name = session.name ?? defaultActivityName(session.localHour, session.sportType);
  const where = plan.route ? routeEvaluator(plan.route, distance) : null;
  const start = where ? where.positionAt(0) : null;
  const end = where ? where.positionAt(distance) : null;
  const hrReserve = (hr.average - hr.resting) / (seedAthlete.heartrate.max - hr.resting);
  const groupRide = session.kind === "ride" && name === "Saturday group ride";
  const segmentWindows = windowsFor(type, kind.environment, prng);

  return {
    id,
    athleteId: seedAthlete.id,
    name,
    description: session.description ?? (prng.chance(0.3) ? prng.pick(descriptions[session.kind]) : ""),
    sportType: session.sportType,
    type,
    startMs,
    timezone: timezoneLabel,
    utcOffset,
    elapsedTime: elapsed,
    movingTime,
    distance,
    totalElevationGain: terrain?.gain ?? 0,
    elevHigh: terrain?.high ?? null,
    elevLow: terrain?.low ?? null,
    trainer: kind.environment === "virtual",
    commute: false,
    manual: false,
    private: session.private ?? false,
    hideFromHome: false,
    gearId: gear?.id ?? null,
    workoutType: workoutTypeFor(session.kind),
    externalId: upload
      ? upload.externalId
      : kind.device === "Zwift"
        ? `zwift-activity-${String(id).slice(-10)}${prng.int(100_000_000, 999_999_999)}.fit`
        : `garmin_ping_${prng.int(300_000_000, 399_999_999)}${prng.int(1_000, 9_999)}`,
    uploadId: upload ? upload.uploadId : id + 1_062_000_000,
    deviceName: kind.device,
    averageSpeed: movingTime > 0 ? round(distance / movingTime, 3) : 0,
    maxSpeed: round(estimate.max * scale, 2),
    averageHeartrate: hr.average,
    maxHeartrate: hr.max,
    averageCadence: plan.cadence?.average ?? null,
    averageWatts,
    weightedAverageWatts: plan.watts ? Math.round(plan.watts.average * prng.between(1.04, 1.12)) : null,
    maxWatts: plan.watts?.max ?? null,
    kilojoules,
    deviceWatts: plan.watts !== null,
    averageTemp: plan.temperature ? Math.round(plan.temperature.start + plan.temperature.change / 2) : null,
    calories: caloriesFor(type, distance, movingTime, hr.average, kilojoules),
    // Strava leaves suffer_score out of some activities (here the Zwift rides): a load summary must estimate those.
    sufferScore: session.kind === "virtual-ride" ? null : Math.max(1, Math.round((movingTime / 60) * hrReserve * hrReserve * 1.8)),
    achievementCount: type === "Run" || type === "Ride" ? prng.int(0, 4) : 0,
    kudosCount: prng.int(2, 18),
    commentCount: prng.int(0, 3),
    athleteCount: groupRide ? prng.int(3, 7) : 1,
    prCount: type === "Run" || type === "Ride" ? prng.int(0, 2) : 0,
    startLatlng: start,
    endLatlng: end,
    locationCountry: seedAthlete.country,
    summaryPolyline: plan.route
      ? encodePolyline(routePoints(plan.route, distance, Math.min(150, Math.max(24, Math.round(distance / 400)))))
      : "",
    recording: plan,
    segmentWindows,
    version: 1,
  };
}

function stopsFor(kind: SessionKind, elapsed: number, prng: Prng): Array<{ start: number; length: number }> {
  const at = (fraction: number, length: number): { start: number; length: number } => ({ start: Math.round(elapsed * fraction), length });
  switch (kind) {
    case "long-ride":
      return [at(0.22, 300), at(0.47, 1_500), at(0.78, 600)];
    case "ride":
    case "gravel-ride":
      return prng.chance(0.7) ? [at(prng.between(0.3, 0.6), prng.int(120, 600))] : [];
    case "easy-run":
    case "long-run":
    case "trail-run":
      return prng.chance(0.5) ? [at(prng.between(0.4, 0.7), prng.int(40, 120))] : [];
    case "hike":
      return [at(0.45, prng.int(420, 900)), at(0.7, prng.int(120, 300))];
    case "swim": {
      // Rest on the wall between sets.
      const rests: Array<{ start: number; length: number }> = [];
      for (let t = 420; t < elapsed - 240; t += prng.int(300, 480)) rests.push({ start: t, length: prng.int(25, 45) });
      return rests;
    }
    default:
      return [];
  }
}

function speedWavesFor(kind: SessionKind, prng: Prng): Array<{ amplitude: number; period: number; phase: number }> {
  const phase = prng.between(0, Math.PI * 2);
  switch (kind) {
    case "interval-run":
      return [{ amplitude: 0.2, period: prng.int(240, 330), phase }];
    case "virtual-ride":
      return [
        { amplitude: 0.12, period: 600, phase },
        { amplitude: 0.05, period: 95, phase: phase / 2 },
      ];
    case "swim":
      return [{ amplitude: 0.06, period: 120, phase }];
    default:
      return [
        { amplitude: 0.08, period: prng.int(700, 1_400), phase },
        { amplitude: 0.04, period: prng.int(90, 200), phase: phase / 3 },
      ];
  }
}

function routeFor(kind: SessionKind, distance: number, gainPerKm: number, prng: Prng, from: [number, number] | null): RouteShape {
  const virtual = kind === "virtual-ride";
  const trail = kind === "trail-run" || kind === "hike";
  // Trailheads: Chautauqua for trail runs and hikes, home otherwise; Watopia (Zwift's island) for virtual rides.
  const start: [number, number, number] = from
    ? [from[0], from[1], seedAthlete.home.altitude]
    : virtual
      ? [-11.64036, 166.94734, 12]
      : trail
        ? [39.99894, -105.28169, 1_770]
        : [seedAthlete.home.lat, seedAthlete.home.lng, seedAthlete.home.altitude];
  const targetGain = (distance / 1000) * gainPerKm * prng.between(0.85, 1.15);
  const cycles = [1, prng.int(3, 5), prng.int(12, 20)];
  const shares = [0.5, 0.32, 0.18];
  const hills = cycles.map((c, i) => ({
    amplitude: round(((shares[i] ?? 0) * targetGain) / (2 * c), 2),
    cycles: c,
    phase: prng.between(0, Math.PI * 2),
  }));
  return {
    startLat: start[0],
    startLng: start[1],
    radiusM: distance / (2 * Math.PI * 1.03),
    headingRad: prng.between(0, Math.PI * 2),
    wobble: prng.between(0.08, 0.2),
    wobblePhase: prng.between(0, Math.PI * 2),
    baseAltitude: start[2],
    hills,
  };
}

function windowsFor(
  type: string,
  environment: KindProfile["environment"],
  prng: Prng,
): Array<{ segmentIndex: number; from: number; to: number }> {
  if (environment !== "outdoor") return [];
  const choices = segmentChoicesFor(type);
  if (choices.length === 0) return [];
  const count = type === "Ride" ? prng.int(2, 3) : prng.int(1, 2);
  const windows: Array<{ segmentIndex: number; from: number; to: number }> = [];
  let cursor = 0.08;
  for (let i = 0; i < count && cursor < 0.85; i++) {
    const from = cursor + prng.between(0.02, 0.12);
    const to = Math.min(0.95, from + prng.between(0.04, 0.14));
    windows.push({ segmentIndex: prng.pick(choices), from: round(from, 4), to: round(to, 4) });
    cursor = to;
  }
  return windows;
}

function workoutTypeFor(kind: SessionKind): number | null {
  switch (kind) {
    case "easy-run":
    case "trail-run":
      return 0;
    case "long-run":
      return 2;
    case "interval-run":
      return 3;
    case "ride":
    case "gravel-ride":
    case "long-ride":
      return 10;
    case "virtual-ride":
      return 12;
    default:
      return null;
  }
}

function caloriesFor(type: string, distance: number, movingTime: number, averageHeartrate: number, kilojoules: number | null): number {
  if (kilojoules !== null) return round(kilojoules * 1.04, 1);
  if (type === "Run" || type === "Hike") return round(seedAthlete.weight * (distance / 1000) * (type === "Hike" ? 0.75 : 1.03), 1);
  return round((movingTime / 60) * Math.max(2.5, (averageHeartrate - 60) * 0.085), 1);
}

const descriptions: Record<SessionKind, readonly string[]> = {
  "easy-run": ["Easy miles, nose breathing.", "Shakeout. Calves a bit tight."],
  "interval-run": ["Felt smooth until the last rep.", "Windy on the way back."],
  "long-run": ["Fueled every 40 min. Good day.", "Last 3 km at marathon effort."],
  "trail-run": ["Icy in the shade above the Bluebell shelter.", "Muddy but fun."],
  ride: ["Tailwind home, finally.", "Group was spicy today."],
  "gravel-ride": ["Washboard on the descent, tire pressure 32 psi was right."],
  "long-ride": ["Big day."],
  "virtual-ride": ["Sweet spot 3x12. Fan on max."],
  hike: ["Views for days.", "Summit was windy, short stop."],
  swim: ["Warm-up 400, 10x100 on 1:55, cool-down 200.", "Drills: catch-up and fingertip drag."],
  weights: ["Back squat 5x5 @ 62.5 kg, RDL 3x8 @ 50 kg.", "Upper body: bench 4x6, rows, pull-ups."],
  workout: ["EMOM 12: 10 KB swings + 8 burpees.", "AMRAP 20 with a partner."],
  yoga: ["Vinyasa flow, 45 min."],
};
