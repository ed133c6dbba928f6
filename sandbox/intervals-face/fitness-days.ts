/**
 * intervals.icu's fitness and fatigue per day, from each day's training load, by its own recurrence (FACTS.md):
 * x += (load - x)(1 - e^(-1/N)), N = 42 days for fitness (`ctl`) and 7 for fatigue (`atl`), starting from zero
 * on the day of the athlete's first activity; ramp rate is the change of fitness over the last seven days. Every
 * activity counts, whichever way it reached intervals.icu: its website has the data of a Strava-synced one even
 * though its API does not show it.
 */
import type { Activity } from "../activity-model.ts";
import { wallClockAt } from "../../common/time-zone.ts";

export interface FitnessDay {
  /** Days since 1970-01-01 of the local date. */
  day: number;
  /** "2026-11-21" */
  date: string;
  /** The day's summed training load. */
  load: number;
  ctl: number;
  atl: number;
  rampRate: number;
}

export interface FitnessHistory {
  days: FitnessDay[];
  /** The day of `days[0]`. */
  firstDay: number;
  today: number;
  of(date: string): FitnessDay | undefined;
}

const dayMs = 86_400_000;
const fitnessDecay = 1 - Math.exp(-1 / 42);
const fatigueDecay = 1 - Math.exp(-1 / 7);

export function localDay(instantMs: number, zone: string): number {
  const wall = wallClockAt(instantMs, zone);
  return Math.floor(Date.UTC(wall.year, wall.month - 1, wall.day) / dayMs);
}

export function dateOfDay(day: number): string {
  return new Date(day * dayMs).toISOString().slice(0, 10);
}

/** The local day of "2026-11-21", or undefined when it is not such a date. */
export function dayOfDate(date: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return undefined;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return dateOfDay(ms / dayMs) === date ? ms / dayMs : undefined;
}

export function fitnessHistory(
  activities: readonly Activity[],
  loadOf: (activity: Activity) => number | null,
  zone: string,
  nowMs: number,
): FitnessHistory {
  const today = localDay(nowMs, zone);
  const loads = new Map<number, number>();
  let firstDay = today;
  for (const activity of activities) {
    const day = localDay(activity.startMs, zone);
    if (day > today) continue;
    firstDay = Math.min(firstDay, day);
    loads.set(day, (loads.get(day) ?? 0) + (loadOf(activity) ?? 0));
  }
  const days: FitnessDay[] = [];
  let ctl = 0;
  let atl = 0;
  for (let day = firstDay; day <= today; day++) {
    const load = loads.get(day) ?? 0;
    ctl += (load - ctl) * fitnessDecay;
    atl += (load - atl) * fatigueDecay;
    const weekAgo = days[days.length - 7];
    days.push({ day, date: dateOfDay(day), load, ctl, atl, rampRate: ctl - (weekAgo?.ctl ?? 0) });
  }
  return { days, firstDay, today, of: (date) => days[(dayOfDate(date) ?? -Infinity) - firstDay] };
}
