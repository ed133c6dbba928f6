/**
 * A seeded activity's recording plan: what its device recorded and how (streams, stops, the waves in its speed, its
 * route, heart rate, cadence, power and temperature), from which streams.ts later generates every second, and the
 * distance it covers. Every choice is drawn from the activity's PRNG in a fixed order, so the same seed gives the
 * same plan.
 */
import type { RecordingPlan, RouteShape } from "./activity-model.ts";
import type { Prng } from "./prng.ts";
import { round } from "./route-geometry.ts";
import { seedAthlete } from "./seed-athlete.ts";
import type { Session, SessionKind } from "./seed-session.ts";
import { stoppedSeconds } from "./speed-model.ts";
import { monthlyTemperature, type KindProfile } from "./kind-profiles.ts";

/** A plan with the heart rate it was made for, its moving time and the distance it covers. */
export interface PlannedRecording {
  plan: RecordingPlan;
  hr: { average: number; max: number; resting: number };
  movingTime: number;
  distance: number;
}

/**
 * The plan of a session's recording. `uploadedDistance` and `uploadedStart` are an uploaded file's, which the plan
 * follows; the month sets the temperature.
 */
export function plannedRecording(
  planSeed: number,
  session: Session,
  kind: KindProfile,
  month: number,
  prng: Prng,
  uploaded: { distance: number | null; start: [number, number] | null } | undefined,
): PlannedRecording {
  const hr = {
    average: kind.heartrate[0] + prng.int(-3, 3),
    max: kind.heartrate[1] + prng.int(-3, 3),
    resting: seedAthlete.heartrate.resting,
  };
  const stops = stopsFor(session.kind, session.elapsed, prng);
  const plan: RecordingPlan = {
    seed: planSeed,
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
  const movingTime = session.elapsed - stoppedSeconds(plan);
  const modelled = kind.environment === "indoor" ? 0 : round(movingTime * prng.between(kind.speed[0], kind.speed[1]), 1);
  const distance = uploaded?.distance && kind.environment !== "indoor" ? round(uploaded.distance, 1) : modelled;
  if (kind.environment === "outdoor" || kind.environment === "virtual") {
    plan.route = routeFor(session.kind, distance, kind.gainPerKm, prng, uploaded?.start ?? null);
  }
  if (kind.streams.includes("watts")) {
    const average = session.kind === "virtual-ride" ? prng.int(182, 196) : session.kind === "long-ride" ? 152 : prng.int(160, 182);
    plan.watts = { average, max: prng.int(average * 3, average * 4) };
  }
  if (kind.streams.includes("temp")) {
    const base = (monthlyTemperature[month - 1] ?? 10) + (session.localHour < 9 ? -3 : session.localHour > 15 ? 1 : 3);
    plan.temperature = { start: base + prng.int(-2, 2), change: session.localHour < 12 ? prng.int(1, 4) : -prng.int(1, 3) };
  }
  return { plan, hr, movingTime, distance };
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
