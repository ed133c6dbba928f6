/**
 * Maya's training settings as intervals.icu keeps them: FTP, threshold and maximum heart rates, zones, per sport
 * group. They are the same numbers the Strava face's zones are cut at (seed-athlete.ts), written the way
 * intervals.icu writes them: heart-rate zones as each zone's top in bpm, power zones as percentages of FTP.
 */
import { heartRateZones, powerZones, seedAthlete } from "../seed-athlete.ts";

export const ftp = seedAthlete.ftp;
export const restingHeartRate = seedAthlete.heartrate.resting;
export const maxHeartRate = seedAthlete.heartrate.max;
export const rideLthr = 170;
export const runLthr = 172;
export const wPrime = 16_500;

/** Each heart-rate zone's top, in bpm (the last is the maximum heart rate). */
export const hrZoneTops: readonly number[] = heartRateZones.map((zone) => (zone.max === -1 ? maxHeartRate : zone.max));

/** Each power zone's top, as a percentage of FTP (intervals.icu writes 999 for the last). */
export const powerZoneTops: readonly number[] = powerZones.map((zone) => (zone.max === -1 ? 999 : Math.round((zone.max / ftp) * 100)));

/** intervals.icu's sweet spot, as percentages of FTP. */
export const sweetSpot = { min: 84, max: 97 } as const;

export const sportGroups = [
  { id: 101, types: ["Ride", "VirtualRide", "GravelRide", "MountainBikeRide", "EBikeRide"], kind: "ride" },
  { id: 102, types: ["Run", "TrailRun", "VirtualRun"], kind: "run" },
  { id: 103, types: ["Swim"], kind: "swim" },
  { id: 104, types: ["WeightTraining", "Workout", "Yoga", "Hike", "Walk", "Crossfit"], kind: "other" },
] as const;

export function lthrFor(type: string): number {
  return sportGroups[1].types.includes(type as never) ? runLthr : rideLthr;
}
