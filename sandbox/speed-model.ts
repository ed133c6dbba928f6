/**
 * How fast the athlete moves second by second, before scaling to the activity's distance: waves
 * (intervals, terrain), smooth pseudo-random variation, standstill during stops and a short
 * acceleration after each. The variation is value noise (a function of the second, not a running
 * random sequence), so seeding can sample the profile coarsely to size the summary while the streams
 * evaluate every second of the very same function.
 */
import type { RecordingPlan } from "./activity-model.ts";

const noiseKnotSeconds = 25;
const noiseAmplitude = 0.22;
const rampSeconds = 12;

/** Relative speed at second t while moving, before the ramp after a stop. */
export function cruisingSpeed(plan: RecordingPlan, t: number): number {
  let s = 1 + noiseAmplitude * valueNoise(plan.seed, t / noiseKnotSeconds);
  const waves = plan.speedWaves;
  for (let i = 0; i < waves.length; i++) {
    const wave = waves[i]!;
    s += wave.amplitude * Math.sin((2 * Math.PI * t) / wave.period + wave.phase);
  }
  return s < 0.15 ? 0.15 : s;
}

/** Relative speed at each second 0..elapsed-1: 0 while stopped and at t = 0 (nothing covered yet). */
export function rawSpeedProfile(plan: RecordingPlan, elapsed: number): Float64Array {
  const speeds = new Float64Array(elapsed);
  const stops = plan.stops;
  let stopIndex = 0;
  let resumedAt = 0;
  for (let t = 1; t < elapsed; t++) {
    const stop = stops[stopIndex];
    if (stop && t >= stop.start) {
      if (t < stop.start + stop.length) {
        resumedAt = stop.start + stop.length;
        continue;
      }
      stopIndex++;
    }
    const s = cruisingSpeed(plan, t);
    const sinceResume = t - resumedAt;
    speeds[t] = sinceResume < rampSeconds ? (s * (sinceResume + 1)) / (rampSeconds + 1) : s;
  }
  return speeds;
}

/** A cheap estimate of the profile's sum and peak from every `step`-th second (used at seeding). */
export function estimateProfile(plan: RecordingPlan, elapsed: number, step: number): { sum: number; max: number } {
  let sum = 0;
  let max = 0;
  for (let t = step; t < elapsed; t += step) {
    if (!movingAt(plan, t)) continue;
    const s = cruisingSpeed(plan, t);
    sum += s * step;
    if (s > max) max = s;
  }
  return { sum, max };
}

/** Whether the athlete is moving at second t. */
export function movingAt(plan: RecordingPlan, t: number): boolean {
  for (const stop of plan.stops) {
    if (t >= stop.start && t < stop.start + stop.length) return false;
  }
  return true;
}

export function stoppedSeconds(plan: RecordingPlan): number {
  return plan.stops.reduce((sum, s) => sum + s.length, 0);
}

/** Smooth noise in [-1, 1]: random values at integer knots, eased in between. */
function valueNoise(seed: number, x: number): number {
  const k = Math.floor(x);
  const f = x - k;
  const a = knot(seed, k);
  const b = knot(seed, k + 1);
  const e = f * f * (3 - 2 * f);
  return a + (b - a) * e;
}

function knot(seed: number, k: number): number {
  let h = Math.imul(seed ^ Math.imul(k, 0x27d4eb2d), 0x165667b1);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h ^= h >>> 13;
  return ((h >>> 0) / 4294967295) * 2 - 1;
}
