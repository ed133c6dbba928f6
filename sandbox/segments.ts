/**
 * Local Strava segments around Boulder that the seed athlete's rides and runs pass through. Segment
 * efforts inside activity detail carry ids above 2^53, as on Strava today: they are kept as bigint and
 * written as exact digits.
 */
export interface Segment {
  id: number;
  name: string;
  activityType: "Ride" | "Run";
  distance: number;
  averageGrade: number;
  maximumGrade: number;
  elevationHigh: number;
  elevationLow: number;
  start: [number, number];
  end: [number, number];
  climbCategory: number;
  /**
   * A near-duplicate segment on the same road (someone else's version of the climb). Strava marks
   * efforts on such redundant segments `hidden` and leaves them out of activity detail unless the
   * request says `include_all_efforts=true`.
   */
  twin: { id: number; name: string };
}

export const segments: readonly Segment[] = [
  {
    id: 655_471,
    name: "Flagstaff Road Climb",
    activityType: "Ride",
    distance: 6_903.1,
    averageGrade: 7.4,
    maximumGrade: 18.2,
    elevationHigh: 2_213.4,
    elevationLow: 1_703.2,
    start: [39.999581, -105.292745],
    end: [39.995032, -105.326681],
    climbCategory: 2,
    twin: { id: 655_502, name: "Flagstaff Rd: Baseline to the top" },
  },
  {
    id: 1_082_663,
    name: "Lefthand Canyon to Ward",
    activityType: "Ride",
    distance: 26_385.9,
    averageGrade: 3.7,
    maximumGrade: 11.6,
    elevationHigh: 2_791.2,
    elevationLow: 1_702.5,
    start: [40.110221, -105.305832],
    end: [40.072381, -105.510234],
    climbCategory: 1,
    twin: { id: 1_091_207, name: "Lefthand Canyon Dr (Buckingham to Ward)" },
  },
  {
    id: 611_413,
    name: "Old Stage Road",
    activityType: "Ride",
    distance: 2_810.5,
    averageGrade: 6.9,
    maximumGrade: 13.1,
    elevationHigh: 1_872.1,
    elevationLow: 1_678.3,
    start: [40.067211, -105.286001],
    end: [40.085412, -105.301523],
    climbCategory: 4,
    twin: { id: 611_488, name: "Old Stage climb" },
  },
  {
    id: 4_217_895,
    name: "Jay Road Sprint",
    activityType: "Ride",
    distance: 1_204.7,
    averageGrade: 0.3,
    maximumGrade: 2.1,
    elevationHigh: 1_597.6,
    elevationLow: 1_593.1,
    start: [40.052231, -105.220018],
    end: [40.052207, -105.205912],
    climbCategory: 0,
    twin: { id: 4_217_960, name: "Jay Rd: 28th to 47th" },
  },
  {
    id: 2_546_106,
    name: "Boulder Creek Path East",
    activityType: "Run",
    distance: 3_010.2,
    averageGrade: -0.8,
    maximumGrade: 2.4,
    elevationHigh: 1_650.3,
    elevationLow: 1_626.1,
    start: [40.014992, -105.273012],
    end: [40.012201, -105.239987],
    climbCategory: 0,
    twin: { id: 2_546_170, name: "Creek Path eastbound" },
  },
  {
    id: 7_790_412,
    name: "Mesa Trail: NCAR to Chautauqua",
    activityType: "Run",
    distance: 4_480.6,
    averageGrade: -2.9,
    maximumGrade: 16.8,
    elevationHigh: 1_902.4,
    elevationLow: 1_769.9,
    start: [39.978121, -105.274423],
    end: [39.998901, -105.281702],
    climbCategory: 0,
    twin: { id: 7_790_455, name: "Mesa Trail NCAR to Chautauqua (old)" },
  },
  {
    id: 9_102_337,
    name: "Sanitas Valley Trail",
    activityType: "Run",
    distance: 1_650.9,
    averageGrade: 4.6,
    maximumGrade: 12.5,
    elevationHigh: 1_775.0,
    elevationLow: 1_699.2,
    start: [40.019331, -105.297604],
    end: [40.032402, -105.300155],
    climbCategory: 0,
    twin: { id: 9_102_389, name: "Sanitas Valley up" },
  },
  {
    id: 12_330_871,
    name: "Royal Arch Trail",
    activityType: "Run",
    distance: 2_102.3,
    averageGrade: 15.9,
    maximumGrade: 32.4,
    elevationHigh: 2_110.8,
    elevationLow: 1_776.3,
    start: [39.997402, -105.284401],
    end: [39.990911, -105.290802],
    climbCategory: 0,
    twin: { id: 12_330_902, name: "Royal Arch from the bench" },
  },
];

/** Segment indexes an activity of this legacy type may pass through. */
export function segmentChoicesFor(type: string): number[] {
  const wanted = type === "Ride" ? "Ride" : type === "Run" || type === "Hike" ? "Run" : null;
  if (!wanted) return [];
  return segments.flatMap((s, i) => (s.activityType === wanted ? [i] : []));
}

/**
 * Segment-effort id: far above 2^53 (as Strava's are), odd so that a double cannot hold it exactly,
 * unique per activity and effort.
 */
export function segmentEffortId(activityId: number, effortIndex: number): bigint {
  return 3_470_000_000_000_000_001n + BigInt(activityId) * 64n + BigInt(effortIndex) * 2n;
}
