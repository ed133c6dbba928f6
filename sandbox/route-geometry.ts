/**
 * Where an activity is at a given distance: position on a closed loop from the start point, altitude
 * and gradient of the terrain along it. Pure functions of the route and the total distance, so the
 * summary (seeded at start-up) and the streams (generated later) agree. `routeEvaluator` precomputes
 * the constants once, because the streams evaluate it for every second of a ride.
 */
import type { RouteShape } from "./activity-model.ts";

const metresPerDegreeLat = 111_320;

export interface RouteEvaluator {
  /** [lat, lng] at distance d (m), rounded like Strava's (6 places). */
  positionAt(d: number): [number, number];
  altitudeAt(d: number): number;
  /** Gradient in percent at distance d. */
  gradeAt(d: number): number;
}

export function routeEvaluator(route: RouteShape, total: number): RouteEvaluator {
  const length = Math.max(total, 1);
  const thetaPerMetre = (2 * Math.PI) / length;
  const r0 = route.radiusM * (1 + route.wobble * Math.sin(route.wobblePhase));
  const cosH = Math.cos(route.headingRad);
  const sinH = Math.sin(route.headingRad);
  const metresPerDegreeLng = metresPerDegreeLat * Math.cos((route.startLat * Math.PI) / 180);
  const hills = route.hills.map((h) => ({
    amplitude: h.amplitude,
    w: (2 * Math.PI * h.cycles) / length,
    phase: h.phase,
    offset: Math.sin(h.phase),
  }));
  return {
    positionAt(d) {
      const theta = d * thetaPerMetre;
      const r = route.radiusM * (1 + route.wobble * Math.sin(3 * theta + route.wobblePhase));
      // Loop placed so that theta = 0 sits on the start point.
      const x = r * Math.cos(theta) - r0;
      const y = r * Math.sin(theta);
      const east = x * cosH - y * sinH;
      const north = x * sinH + y * cosH;
      return [round(route.startLat + north / metresPerDegreeLat, 6), round(route.startLng + east / metresPerDegreeLng, 6)];
    },
    altitudeAt(d) {
      let alt = route.baseAltitude;
      for (const h of hills) alt += h.amplitude * (Math.sin(h.w * d + h.phase) - h.offset);
      return alt;
    },
    gradeAt(d) {
      let slope = 0;
      for (const h of hills) slope += h.amplitude * h.w * Math.cos(h.w * d + h.phase);
      return slope * 100;
    },
  };
}

/** Elevation gain, highest and lowest point, from the terrain sampled finely along the route. */
export function terrainSummary(route: RouteShape, total: number): { gain: number; high: number; low: number } {
  const evaluator = routeEvaluator(route, total);
  const samples = 500;
  let gain = 0;
  let prev = evaluator.altitudeAt(0);
  let high = prev;
  let low = prev;
  for (let i = 1; i <= samples; i++) {
    const alt = evaluator.altitudeAt((total * i) / samples);
    if (alt > prev) gain += alt - prev;
    if (alt > high) high = alt;
    if (alt < low) low = alt;
    prev = alt;
  }
  return { gain: round(gain, 1), high: round(high, 1), low: round(low, 1) };
}

/** `count` + 1 evenly spaced points along the route (for map polylines). */
export function routePoints(route: RouteShape, total: number, count: number): Array<[number, number]> {
  const evaluator = routeEvaluator(route, total);
  const points: Array<[number, number]> = [];
  for (let i = 0; i <= count; i++) points.push(evaluator.positionAt((total * i) / count));
  return points;
}

const powersOfTen = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000];

export function round(value: number, places: number): number {
  const f = powersOfTen[places] ?? 10 ** places;
  return Math.round(value * f) / f;
}
