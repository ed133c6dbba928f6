/**
 * Strava's sport types grouped into the families whose hours cost about the same effort, for estimating the load
 * of an activity that carries nothing but its moving time: an hour of yoga is not an hour of running. A sport
 * type not named here (skiing, paddling, ball games, climbing, ...) is "other", which always takes the rate of
 * all sports.
 */

export type SportFamily = "rides" | "runs" | "swims" | "strength" | "mobility" | "walks_hikes" | "other";

const familyOfSport: Readonly<Record<string, SportFamily>> = {
  Ride: "rides",
  GravelRide: "rides",
  MountainBikeRide: "rides",
  VirtualRide: "rides",
  EBikeRide: "rides",
  EMountainBikeRide: "rides",
  Velomobile: "rides",
  Handcycle: "rides",
  Run: "runs",
  TrailRun: "runs",
  VirtualRun: "runs",
  Swim: "swims",
  WeightTraining: "strength",
  Workout: "strength",
  Crossfit: "strength",
  HighIntensityIntervalTraining: "strength",
  Yoga: "mobility",
  Pilates: "mobility",
  Walk: "walks_hikes",
  Hike: "walks_hikes",
};

export function sportFamily(sportType: string): SportFamily {
  return familyOfSport[sportType] ?? "other";
}
