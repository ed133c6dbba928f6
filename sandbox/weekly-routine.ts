/**
 * The seed athlete's weekly routine: what they usually do on each weekday, with some randomness (whether a session
 * happens, its start, length and name), drawn from the day's PRNG. One function per weekday, each drawing in the
 * same order every time, so a given day and seed always hold the same sessions.
 */
import type { Prng } from "./prng.ts";
import type { Session } from "./seed-session.ts";

/** A day of the routine: its PRNG, whether it is winter (virtual rides), and a start time drawn from the PRNG. */
interface RoutineDay {
  prng: Prng;
  winter: boolean;
  at(hour: number, minuteSpread: number): { localHour: number; localMinute: number };
}

/** The routine's sessions on a weekday (0 = Sunday) of a month, drawn from the day's PRNG. */
export function routineFor(weekday: number, month: number, prng: Prng): Session[] {
  const day: RoutineDay = {
    prng,
    winter: month === 12 || month <= 3 || month === 11,
    at: (hour, minuteSpread) => ({ localHour: hour, localMinute: prng.int(0, minuteSpread) }),
  };
  const sessions: Session[] = [];
  weekdays[weekday]?.(day, sessions);
  return sessions;
}

function monday({ prng, at }: RoutineDay, sessions: Session[]): void {
  if (prng.chance(0.8)) sessions.push({ sportType: "WeightTraining", kind: "weights", ...at(6, 40), elapsed: prng.int(3_300, 4_200) });
}

function tuesday({ prng, at }: RoutineDay, sessions: Session[]): void {
  if (prng.chance(0.75)) {
    sessions.push({
      sportType: "Run",
      kind: "interval-run",
      ...at(6, 30),
      elapsed: prng.int(2_700, 3_600),
      name: prng.pick(["Tempo Tuesday", "6x800 on the creek path", "Track: 5x1k", "Hill repeats"]),
    });
  }
  if (prng.chance(0.2)) sessions.push({ sportType: "Yoga", kind: "yoga", ...at(19, 20), elapsed: prng.int(2_400, 3_600) });
}

function wednesday({ prng, winter, at }: RoutineDay, sessions: Session[]): void {
  if (!prng.chance(0.6)) return;
  if (winter && prng.chance(0.6)) {
    sessions.push({
      sportType: "VirtualRide",
      kind: "virtual-ride",
      ...at(18, 30),
      elapsed: prng.int(3_300, 4_500),
      name: prng.pick(["Zwift - Tempus Fugit in Watopia", "Zwift - Volcano Circuit in Watopia", "Zwift - Group Ride: Sweet Spot"]),
    });
  } else {
    sessions.push({ sportType: "Ride", kind: "ride", ...at(16, 50), elapsed: prng.int(4_200, 6_600) });
  }
}

function thursday({ prng, at }: RoutineDay, sessions: Session[]): void {
  if (prng.chance(0.6)) {
    sessions.push({
      sportType: "Workout",
      kind: "workout",
      ...at(6, 5),
      elapsed: prng.int(3_300, 3_900),
      name: prng.pick(["Iron Temple | Squat + Metcon", "Iron Temple | Deadlift + Engine", "Iron Temple | Partner WOD"]),
    });
  }
  if (prng.chance(0.15)) sessions.push({ sportType: "Run", kind: "easy-run", ...at(18, 30), elapsed: prng.int(2_100, 2_700) });
}

function friday({ prng, at }: RoutineDay, sessions: Session[]): void {
  if (!prng.chance(0.55)) return;
  sessions.push({
    sportType: "Swim",
    kind: "swim",
    ...at(6, 20),
    elapsed: prng.int(2_700, 3_300),
    name: prng.pick(["Masters swim", "Morning Swim", "Pool: 10x100 + pull"]),
  });
}

function saturday({ prng, at }: RoutineDay, sessions: Session[]): void {
  if (prng.chance(0.5)) {
    const gravel = prng.chance(0.35);
    sessions.push({
      sportType: gravel ? "GravelRide" : "Ride",
      kind: gravel ? "gravel-ride" : "ride",
      ...at(8, 40),
      elapsed: prng.int(8_400, 12_600),
      name: gravel
        ? prng.pick(["Gravel loop via Sixth Ave", "Dirt roads north of town"])
        : prng.pick(["Saturday group ride", "Carter Lake loop", "Lefthand + Olde Stage"]),
    });
  } else if (prng.chance(0.25)) {
    sessions.push({
      sportType: "Hike",
      kind: "hike",
      ...at(8, 45),
      elapsed: prng.int(9_000, 13_500),
      name: prng.pick(["Green Mountain via Gregory Canyon", "Bear Peak", "South Boulder Peak"]),
    });
  }
}

function sunday({ prng, at }: RoutineDay, sessions: Session[]): void {
  if (!prng.chance(0.7)) return;
  const trail = prng.chance(0.35);
  sessions.push({
    sportType: trail ? "TrailRun" : "Run",
    kind: trail ? "trail-run" : "long-run",
    ...at(8, 30),
    elapsed: prng.int(4_800, 6_900),
    name: trail ? prng.pick(["Mesa Trail out and back", "Sanitas loop"]) : "Sunday long run",
  });
}

/** Index 0 is Sunday, as Date.getUTCDay counts. */
const weekdays: ReadonlyArray<(day: RoutineDay, sessions: Session[]) => void> = [
  sunday,
  monday,
  tuesday,
  wednesday,
  thursday,
  friday,
  saturday,
];
