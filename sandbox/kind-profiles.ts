/**
 * How each kind of session the seed athlete does is recorded: its speeds, climbing, heart rate and cadence ranges,
 * the streams its device records, where it happens, its gear and device; and the month's temperatures and the
 * descriptions the athlete sometimes writes. Data only: seeded-activity.ts and recording-plan.ts draw from it.
 */
import type { StreamKey } from "./activity-model.ts";
import type { SessionKind } from "./seed-session.ts";

export interface KindProfile {
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

export const kinds: Record<SessionKind, KindProfile> = {
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

/** The mean temperature at the athlete's home each month, January first (°C). */
export const monthlyTemperature = [-1, 1, 5, 9, 14, 20, 23, 22, 17, 10, 4, -1];

/** What the athlete sometimes writes under a session of each kind. */
export const descriptions: Record<SessionKind, readonly string[]> = {
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
