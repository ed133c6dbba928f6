/**
 * The sandbox's own record of an activity: what Strava would store, from which the summary, detail,
 * streams, zones and stats answers are all derived (so they agree with each other).
 */
export const streamKeys = [
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
] as const;
export type StreamKey = (typeof streamKeys)[number];

/** A route as a smooth closed loop from the start point, with rolling terrain along it. */
export interface RouteShape {
  startLat: number;
  startLng: number;
  /** Loop radius in metres (the loop's length is about the activity's distance). */
  radiusM: number;
  headingRad: number;
  wobble: number;
  wobblePhase: number;
  baseAltitude: number;
  /** Terrain: sine waves along the distance; `cycles` whole waves per activity so the loop ends where it began. */
  hills: ReadonlyArray<{ amplitude: number; cycles: number; phase: number }>;
}

/** How the athlete's device recorded the activity: what the generated streams are made from. */
export interface RecordingPlan {
  seed: number;
  streams: readonly StreamKey[];
  /** "distance" for activities that move (Strava's default), "time" for the rest. */
  seriesType: "distance" | "time";
  /** Pauses, in seconds from the start. */
  stops: ReadonlyArray<{ start: number; length: number }>;
  /** Speed wobble: relative amplitude and period (s) of two waves, e.g. intervals. */
  speedWaves: ReadonlyArray<{ amplitude: number; period: number; phase: number }>;
  route: RouteShape | null;
  heartrate: { average: number; max: number; resting: number } | null;
  cadence: { average: number; spread: number } | null;
  watts: { average: number; max: number } | null;
  temperature: { start: number; change: number } | null;
}

export interface Activity {
  id: number;
  athleteId: number;
  name: string;
  description: string | null;
  sportType: string;
  type: string;
  /** UTC start, epoch ms (whole seconds). */
  startMs: number;
  timezone: string;
  utcOffset: number;
  elapsedTime: number;
  movingTime: number;
  distance: number;
  totalElevationGain: number;
  elevHigh: number | null;
  elevLow: number | null;
  trainer: boolean;
  commute: boolean;
  manual: boolean;
  private: boolean;
  hideFromHome: boolean;
  gearId: string | null;
  workoutType: number | null;
  externalId: string | null;
  uploadId: number | null;
  deviceName: string | null;
  averageSpeed: number;
  maxSpeed: number;
  averageHeartrate: number | null;
  maxHeartrate: number | null;
  averageCadence: number | null;
  averageWatts: number | null;
  weightedAverageWatts: number | null;
  maxWatts: number | null;
  kilojoules: number | null;
  deviceWatts: boolean;
  averageTemp: number | null;
  calories: number;
  sufferScore: number | null;
  achievementCount: number;
  kudosCount: number;
  commentCount: number;
  athleteCount: number;
  prCount: number;
  startLatlng: [number, number] | null;
  endLatlng: [number, number] | null;
  locationCountry: string;
  summaryPolyline: string;
  recording: RecordingPlan | null;
  /** Segments ridden or run, as fractions of the activity's duration. */
  segmentWindows: ReadonlyArray<{ segmentIndex: number; from: number; to: number }>;
  /** Bumped on every change, so cached answers for the old version are never served. */
  version: number;
  /**
   * Where the athlete put it in, when not recorded by a device that syncs to both logs: typed into or uploaded to
   * Strava (it then reaches intervals.icu through Strava), or to intervals.icu. See intervals-face/activity-source.ts.
   */
  enteredVia?: "strava" | "intervals.icu";
}

/**
 * Strava's legacy `type` for a `sport_type`: the ActivityType enum is shorter, and newer sport types
 * map onto the nearest old one (Strava answers "Workout" for e.g. Pickleball).
 */
export function activityTypeFor(sportType: string): string {
  switch (sportType) {
    case "MountainBikeRide":
    case "GravelRide":
    case "EMountainBikeRide":
      return sportType === "EMountainBikeRide" ? "EBikeRide" : "Ride";
    case "TrailRun":
      return "Run";
    case "VirtualRow":
      return "Rowing";
    case "Badminton":
    case "Cricket":
    case "Dance":
    case "HighIntensityIntervalTraining":
    case "Padel":
    case "Pickleball":
    case "Pilates":
    case "PhysicalTherapy":
    case "Racquetball":
    case "Squash":
    case "TableTennis":
    case "Tennis":
    case "Volleyball":
    case "Basketball":
      return "Workout";
    default:
      return activityTypes.has(sportType) ? sportType : "Workout";
  }
}

const activityTypes = new Set([
  "AlpineSki",
  "BackcountrySki",
  "Canoeing",
  "Crossfit",
  "EBikeRide",
  "Elliptical",
  "Golf",
  "Handcycle",
  "Hike",
  "IceSkate",
  "InlineSkate",
  "Kayaking",
  "Kitesurf",
  "NordicSki",
  "Ride",
  "RockClimbing",
  "RollerSki",
  "Rowing",
  "Run",
  "Sail",
  "Skateboard",
  "Snowboard",
  "Snowshoe",
  "Soccer",
  "StairStepper",
  "StandUpPaddling",
  "Surfing",
  "Swim",
  "Velomobile",
  "VirtualRide",
  "VirtualRun",
  "Walk",
  "WeightTraining",
  "Wheelchair",
  "Windsurf",
  "Workout",
  "Yoga",
]);

/** The sport types Strava accepts (the official spec's SportType enum). */
export const sportTypes: ReadonlySet<string> = new Set([
  "AlpineSki",
  "BackcountrySki",
  "Badminton",
  "Basketball",
  "Canoeing",
  "Cricket",
  "Crossfit",
  "Dance",
  "EBikeRide",
  "Elliptical",
  "EMountainBikeRide",
  "Golf",
  "GravelRide",
  "Handcycle",
  "HighIntensityIntervalTraining",
  "Hike",
  "IceSkate",
  "InlineSkate",
  "Kayaking",
  "Kitesurf",
  "MountainBikeRide",
  "NordicSki",
  "Padel",
  "PhysicalTherapy",
  "Pickleball",
  "Pilates",
  "Racquetball",
  "Ride",
  "RockClimbing",
  "RollerSki",
  "Rowing",
  "Run",
  "Sail",
  "Skateboard",
  "Snowboard",
  "Snowshoe",
  "Soccer",
  "Squash",
  "StairStepper",
  "StandUpPaddling",
  "Surfing",
  "Swim",
  "TableTennis",
  "Tennis",
  "TrailRun",
  "Velomobile",
  "VirtualRide",
  "VirtualRow",
  "VirtualRun",
  "Volleyball",
  "Walk",
  "WeightTraining",
  "Wheelchair",
  "Windsurf",
  "Workout",
  "Yoga",
]);

/** The totals bucket an activity counts towards in athlete stats, if any. */
export function statsBucket(type: string): "ride" | "run" | "swim" | null {
  if (type === "Ride" || type === "VirtualRide" || type === "EBikeRide" || type === "Handcycle" || type === "Velomobile") {
    return "ride";
  }
  if (type === "Run" || type === "VirtualRun") return "run";
  if (type === "Swim") return "swim";
  return null;
}

/** Strava's default title: "Morning Run", "Lunch Ride", "Evening Weight Training"... */
export function defaultActivityName(localHour: number, sportType: string): string {
  const part =
    localHour < 4
      ? "Night"
      : localHour < 11
        ? "Morning"
        : localHour < 14
          ? "Lunch"
          : localHour < 18
            ? "Afternoon"
            : localHour < 22
              ? "Evening"
              : "Night";
  return `${part} ${sportType.replace(/([a-z])([A-Z])/g, "$1 $2")}`;
}
