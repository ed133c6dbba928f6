/**
 * The sandbox's optional second athlete (`secondAthlete: true`, `SANDBOX_SECOND_ATHLETE=true`): Jonas
 * Berg, Maya's training partner in Boulder, so a deployment that serves several athletes can be tested
 * for refusal (an athlete it does not admit signs in) and isolation (each athlete's calls see only
 * their own data). His activities come from the same weekly-routine generator with another seed, under
 * ids and upload ids far from Maya's, so no id of one athlete ever names an activity of the other.
 */
import { seedAthlete } from "./seed-athlete.ts";

/** Who an athlete is: what the athlete objects and the stats check need. */
export interface AthleteIdentity {
  id: number;
  username: string;
  firstname: string;
  lastname: string;
  bio: string;
  sex: "F" | "M";
  weight: number;
  createdAt: string;
}

export const firstAthlete: AthleteIdentity = seedAthlete;

export const secondAthlete: AthleteIdentity = {
  id: 61_930_114,
  username: "jonas_berg",
  firstname: "Jonas",
  lastname: "Berg",
  bio: "Maya's Saturday-ride partner. Mostly bikes, occasionally dragged onto trails.",
  sex: "M",
  weight: 74.5,
  createdAt: "2017-03-11T09:05:12Z",
};

/** Added to the second athlete's activity and upload ids. */
export const secondAthleteIdOffset = 1_000_000_000;

/** The second athlete's data seed, from the sandbox's seed. */
export function secondAthleteSeed(seed: number): number {
  return (seed + 7_919) >>> 0;
}
