/**
 * One activity built the way the seed's are: from a session of the routine or the training block, or from what an
 * uploaded file says (its sport, start, duration, distance and start position; the rest filled in alike). Its
 * recording plan comes from recording-plan.ts and its summary is computed from that plan, so the streams generated
 * later agree with it. The activity's own PRNG draws in a fixed order: the same seed and id give the same activity.
 */
import type { ActivityFileSummary } from "./activity-files.ts";
import type { Activity } from "./activity-model.ts";
import { activityTypeFor, defaultActivityName } from "./activity-model.ts";
import { createPrng, deriveSeed } from "./prng.ts";
import type { Prng } from "./prng.ts";
import { seedAthlete, gearById } from "./seed-athlete.ts";
import { wallClockAt } from "../common/time-zone.ts";
import { stravaTimezoneLabel, utcOffsetSeconds } from "./strava-dates.ts";
import { round, routeEvaluator, routePoints, terrainSummary } from "./route-geometry.ts";
import { estimateProfile } from "./speed-model.ts";
import { encodePolyline } from "./polyline.ts";
import { segmentChoicesFor } from "./segments.ts";
import type { Session, SessionKind } from "./seed-session.ts";
import { descriptions, kinds, type KindProfile } from "./kind-profiles.ts";
import { plannedRecording, type PlannedRecording } from "./recording-plan.ts";

/** Activity id from the start time: increasing like Strava's, 11 digits, far below 2^53. */
export function activityIdForStart(startMs: number): number {
  return 15_000_000_000 + Math.floor((startMs - Date.UTC(2000, 0, 1)) / 1000);
}

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

/** What the steps below share: the session, its kind's profile, its planned recording and the PRNG they draw from. */
interface ActivityDraft {
  id: number;
  session: Session;
  kind: KindProfile;
  type: string;
  name: string;
  prng: Prng;
  recorded: PlannedRecording;
  /** Where the route passes at a distance (null without a route). */
  where: ReturnType<typeof routeEvaluator> | null;
  upload: RecordedActivityInput | undefined;
}

/** A session (or an upload's summary) as an activity: its recording planned, its summary computed from the plan. */
export function buildActivity(
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
  const recorded = plannedRecording(deriveSeed(seed, 0x57e, id % 1_000_000_007), session, kind, month, prng, upload);
  const { plan, distance } = recorded;
  const name = session.name ?? defaultActivityName(session.localHour, session.sportType);
  const where = plan.route ? routeEvaluator(plan.route, distance) : null;
  const segmentWindows = windowsFor(type, kind.environment, prng);
  const draft: ActivityDraft = { id, session, kind, type, name, prng, recorded, where, upload };
  return {
    ...describedFields(draft, startMs, zone, timezoneLabel),
    ...measuredFields(draft),
    ...socialFields(draft),
    startLatlng: where ? where.positionAt(0) : null,
    endLatlng: where ? where.positionAt(distance) : null,
    locationCountry: seedAthlete.country,
    summaryPolyline: plan.route
      ? encodePolyline(routePoints(plan.route, distance, Math.min(150, Math.max(24, Math.round(distance / 400)))))
      : "",
    recording: plan,
    segmentWindows,
    version: 1,
  };
}

/** What the athlete and Strava say of the activity: name, sport, times, climbing, flags, gear, where it came from. */
function describedFields(
  { id, session, kind, type, name, prng, recorded, upload }: ActivityDraft,
  startMs: number,
  zone: string,
  timezoneLabel: string,
) {
  const terrain = recorded.plan.route ? terrainSummary(recorded.plan.route, recorded.distance) : null;
  const gear = kind.gear ? gearById(kind.gear) : undefined;
  return {
    id,
    athleteId: seedAthlete.id,
    name,
    description: session.description ?? (prng.chance(0.3) ? prng.pick(descriptions[session.kind]) : ""),
    sportType: session.sportType,
    type,
    startMs,
    timezone: timezoneLabel,
    utcOffset: utcOffsetSeconds(startMs, zone),
    elapsedTime: session.elapsed,
    movingTime: recorded.movingTime,
    distance: recorded.distance,
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
  };
}

/** The recording's summary: speeds, heart rate, cadence, power (measured or, for a ride without a meter, estimated), temperature, energy. */
function measuredFields({ session, type, prng, recorded }: ActivityDraft) {
  const { plan, hr, movingTime, distance } = recorded;
  // The peak speed from a coarse look at the speed profile; the streams then peak at exactly this value.
  const estimate = distance > 0 ? estimateProfile(plan, session.elapsed, 10) : { sum: 0, max: 0 };
  const scale = estimate.sum > 0 ? distance / estimate.sum : 0;
  // Without a power meter Strava estimates a ride's power (device_watts false); the sandbox from speed.
  const estimatedPower = type === "Ride" || type === "VirtualRide";
  const averageWatts = plan.watts?.average ?? (estimatedPower && movingTime > 0 ? round((distance / movingTime) * 22.5, 1) : null);
  const kilojoules = averageWatts !== null ? round((averageWatts * movingTime) / 1000, 1) : null;
  const hrReserve = (hr.average - hr.resting) / (seedAthlete.heartrate.max - hr.resting);
  return {
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
  };
}

/** What other athletes and Strava's records add: achievements, kudos, comments, the group, records. */
function socialFields({ session, type, name, prng }: ActivityDraft) {
  const groupRide = session.kind === "ride" && name === "Saturday group ride";
  return {
    achievementCount: type === "Run" || type === "Ride" ? prng.int(0, 4) : 0,
    kudosCount: prng.int(2, 18),
    commentCount: prng.int(0, 3),
    athleteCount: groupRide ? prng.int(3, 7) : 1,
    prCount: type === "Run" || type === "Ride" ? prng.int(0, 2) : 0,
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
