/**
 * The sandbox's one athlete: a believable amateur multisport athlete in Boulder, Colorado, who runs,
 * rides, swims, lifts and does yoga. Everything here is invented; the place names are real geography.
 */
export interface Gear {
  id: string;
  name: string;
  nickname: string;
  kind: "bike" | "shoe";
  primary: boolean;
  /** Distance logged before the sandbox's year of activities, in metres. */
  priorDistance: number;
  hasPowerMeter: boolean;
}

export const seedAthlete = {
  id: 48_201_735,
  username: "maya_lindgren",
  firstname: "Maya",
  lastname: "Lindgren",
  bio: "Trail runner, gravel convert, reluctant swimmer. Lifting twice a week so my knees stay friends with me.",
  city: "Boulder",
  state: "Colorado",
  country: "United States",
  sex: "F" as const,
  premium: true,
  summit: true,
  createdAt: "2015-05-03T14:22:41Z",
  badgeTypeId: 1,
  weight: 61.2,
  ftp: 238,
  followerCount: 312,
  friendCount: 287,
  measurementPreference: "meters" as const,
  timeZone: "America/Denver",
  home: { lat: 40.01499, lng: -105.27055, altitude: 1655 },
  heartrate: { max: 188, resting: 52 },
} as const;

export const seedGear: readonly Gear[] = [
  {
    id: "b9120457",
    name: "Canyon Endurace CF 7",
    nickname: "Blue",
    kind: "bike",
    primary: true,
    priorDistance: 8_412_300,
    hasPowerMeter: true,
  },
  {
    id: "b10566312",
    name: "Specialized Crux Comp",
    nickname: "Gravel",
    kind: "bike",
    primary: false,
    priorDistance: 2_905_800,
    hasPowerMeter: false,
  },
  { id: "g14872203", name: "Hoka Clifton 9", nickname: "Daily", kind: "shoe", primary: true, priorDistance: 402_700, hasPowerMeter: false },
  {
    id: "g16200981",
    name: "Salomon Speedcross 6",
    nickname: "Trail",
    kind: "shoe",
    primary: false,
    priorDistance: 188_400,
    hasPowerMeter: false,
  },
];

export function gearById(id: string): Gear | undefined {
  return seedGear.find((g) => g.id === id);
}

/** Heart-rate zone edges (bpm) from the athlete's max heart rate, like Strava's defaults. */
export const heartRateZones: ReadonlyArray<{ min: number; max: number }> = [
  { min: 0, max: 122 },
  { min: 122, max: 152 },
  { min: 152, max: 167 },
  { min: 167, max: 182 },
  { min: 182, max: -1 },
];

/** Power zone edges (W) from FTP 238: the seven classic zones. */
export const powerZones: ReadonlyArray<{ min: number; max: number }> = [
  { min: 0, max: 131 },
  { min: 131, max: 179 },
  { min: 179, max: 214 },
  { min: 214, max: 250 },
  { min: 250, max: 286 },
  { min: 286, max: 357 },
  { min: 357, max: -1 },
];
