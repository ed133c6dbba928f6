/**
 * A training block around "today", so that a training-load summary of the seed athlete has something worth
 * flagging: a recovery week three calendar weeks back (only the gym, yoga and the swim kept), a build over the
 * two weeks after it (lunchtime sessions on top of the routine), and a spike in the last six days (one more
 * session every day, one of them a hike logged by hand without a watch). Like the long ride and today's
 * session, it sits relative to the clock; every routine session it does not drop keeps its id.
 */
import type { Session, SessionKind } from "./seed-session.ts";

/** A session the block adds, `daysBack` local days before today, at a fixed local time (seconds never 0). */
export interface BlockSession {
  daysBack: number;
  second: number;
  session: Session;
  /** Entered by hand: no device, no heart rate, no streams (and so no Relative Effort). */
  handLogged?: { distance: number };
}

const lunch = (
  daysBack: number,
  kind: SessionKind,
  sportType: string,
  time: [number, number, number],
  elapsed: number,
  name: string,
): BlockSession => ({
  daysBack,
  second: time[2],
  session: { sportType, kind, localHour: time[0], localMinute: time[1], elapsed, name },
});

export const blockSessions: readonly BlockSession[] = [
  // The spike: a second session every day of the last six.
  lunch(1, "ride", "Ride", [12, 20, 17], 6_600, "Lunch loop: Lefthand to Jamestown"),
  lunch(2, "interval-run", "Run", [12, 5, 41], 3_300, "Run club: 3x2 mi tempo"),
  {
    daysBack: 3,
    second: 7,
    session: {
      sportType: "Hike",
      kind: "hike",
      localHour: 10,
      localMinute: 15,
      elapsed: 10_800,
      name: "Mount Sanitas with friends",
      description: "Forgot my watch, logged it by hand.",
    },
    handLogged: { distance: 9_800 },
  },
  lunch(4, "ride", "Ride", [12, 10, 29], 7_200, "Long lunch ride: Carter Lake"),
  lunch(5, "easy-run", "Run", [12, 35, 13], 3_000, "Lunch Run"),
  lunch(6, "gravel-ride", "GravelRide", [12, 2, 53], 7_800, "Gravel: Sixth Ave loop"),
  // The build over the two weeks before it.
  lunch(8, "easy-run", "Run", [12, 30, 11], 3_000, "Lunch Run"),
  lunch(10, "ride", "Ride", [12, 15, 37], 5_400, "Lunch Ride"),
  lunch(12, "interval-run", "Run", [12, 5, 19], 3_000, "Track: 8x400"),
  lunch(15, "ride", "Ride", [12, 25, 43], 4_800, "Lunch Ride"),
  lunch(18, "easy-run", "Run", [12, 40, 23], 2_700, "Lunch Run"),
];

const keptInRecovery: ReadonlySet<SessionKind> = new Set(["weights", "yoga", "swim"]);

/**
 * Whether the routine's session of this kind on `day` is dropped: days are day numbers (days since
 * 1970-01-01 of the local date), and the recovery week is the Monday-to-Sunday week three before today's.
 */
export function droppedForRecovery(kind: SessionKind, day: number, today: number): boolean {
  return mondayOf(day) === mondayOf(today) - 21 && !keptInRecovery.has(kind);
}

function mondayOf(day: number): number {
  // Day 0 (1970-01-01) was a Thursday.
  return day - ((((day + 3) % 7) + 7) % 7);
}
