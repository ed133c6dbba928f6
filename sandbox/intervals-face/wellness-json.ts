/**
 * A wellness record per day as intervals.icu's API writes it (its `Wellness` model): its own fitness, fatigue and
 * ramp rate with the loads behind them, and what the athlete's watch and the athlete add: HRV, resting heart rate,
 * sleep, weight, subjective scores. Those are generated from the sandbox's seed, one PRNG per day, so the same seed
 * and clock give the same numbers, and they answer the training: after a hard day and while fatigue runs above
 * fitness (the current spike) HRV dips and resting heart rate, soreness and fatigue rise. Now and then a day has
 * no watch data (not worn, not synced) and on some days the athlete skips the questions, as in real logs.
 *
 * Subjective scores use intervals.icu's 1 to 4 scales, 1 the best: soreness, fatigue and stress (1 low, 4
 * extreme), mood (1 great, 4 grumpy), motivation (1 extreme, 4 low), injury (1 none, 4 injured), sleep quality
 * (1 great, 4 poor).
 */
import { createPrng, deriveSeed, type Prng } from "../prng.ts";
import { seedAthlete } from "../seed-athlete.ts";
import { instantFromWallClock, toIsoUtc } from "../../common/time-zone.ts";
import type { Json } from "./activity-json.ts";
import { round } from "./activity-load.ts";
import type { FitnessDay } from "./fitness-days.ts";
import { ftp, restingHeartRate, wPrime } from "./sport-settings.ts";

/** Chances that, on a given day, the watch recorded nothing and that the athlete answered the questions. */
const missedWatchDay = 0.07;
const answeredQuestions = 0.7;
const weighedIn = 0.6;

/** The record of `days[index]`; `nowMs` limits today's record to what is known by now. */
export function wellnessObject(days: readonly FitnessDay[], index: number, seed: number, nowMs: number): Json {
  const day = days[index]!;
  const yesterday = days[index - 1];
  const prng = createPrng(deriveSeed(seed, 0x3e11, day.day));
  // How far fatigue ran above fitness yesterday, and whether yesterday was hard: what a morning's body shows.
  const body: MorningBody = {
    strain: yesterday ? Math.max(0, yesterday.atl - yesterday.ctl) : 0,
    hardYesterday: (yesterday?.load ?? 0) >= 100,
    weekend: [0, 6].includes(new Date(day.day * 86_400_000).getUTCDay()),
  };
  const morning = instantFromWallClock(
    { ...wallOf(day.date), hour: 7, minute: prng.int(0, 59), second: prng.int(0, 59) },
    seedAthlete.timeZone,
  );
  const record = loadRecord(day, prng, Math.min(morning, nowMs));
  if (morning > nowMs) return record;
  if (!prng.chance(missedWatchDay)) Object.assign(record, watchData(prng, body));
  if (prng.chance(weighedIn))
    record["weight"] = round(seedAthlete.weight + 0.4 * Math.sin((2 * Math.PI * day.day) / 37) + 0.25 * gaussian(prng), 1);
  if (prng.chance(answeredQuestions)) Object.assign(record, answers(prng, body));
  return record;
}

/** What a morning's body shows of yesterday's training. */
interface MorningBody {
  strain: number;
  hardYesterday: boolean;
  weekend: boolean;
}

/** intervals.icu's own part of the day (fitness, fatigue and their loads), with every field the watch and athlete fill still null. */
function loadRecord(day: FitnessDay, prng: Prng, updatedMs: number): Json {
  return {
    id: day.date,
    ctl: day.ctl,
    atl: day.atl,
    rampRate: day.rampRate,
    ctlLoad: day.load,
    atlLoad: day.load,
    sportInfo: [{ type: "Ride", eftp: round(ftp - 3 + 6 * prng.next(), 1), wPrime, pMax: 780 }],
    updated: toIsoUtc(updatedMs),
    weight: null,
    restingHR: null,
    hrv: null,
    hrvSDNN: null,
    sleepSecs: null,
    sleepScore: null,
    sleepQuality: null,
    avgSleepingHR: null,
    soreness: null,
    fatigue: null,
    stress: null,
    mood: null,
    motivation: null,
    injury: null,
    spO2: null,
    readiness: null,
    respiration: null,
    steps: null,
    kcalConsumed: null,
    comments: null,
    locked: false,
  };
}

/** What the watch recorded overnight: resting heart rate, HRV, sleep, breathing and steps. */
function watchData(prng: Prng, { strain, hardYesterday, weekend }: MorningBody): Json {
  const restingHR = Math.round(restingHeartRate - 2 + 0.15 * strain + (hardYesterday ? 1.5 : 0) + gaussian(prng));
  const hrv = round(Math.max(30, 64 - 0.45 * strain - (hardYesterday ? 5 : 0) + 4 * gaussian(prng)), 1);
  const sleepHours = 7.4 + (weekend ? 0.5 : 0) - (strain > 15 ? 0.3 : 0) + 0.45 * gaussian(prng);
  const sleepScore = clamp(Math.round(55 + (sleepHours - 5.5) * 12 - 0.3 * strain + 4 * gaussian(prng)), 40, 98);
  return {
    restingHR,
    hrv,
    hrvSDNN: round(hrv * 1.25 + 3 * gaussian(prng), 1),
    sleepSecs: Math.round((sleepHours * 3600) / 60) * 60,
    sleepScore,
    sleepQuality: sleepScore >= 85 ? 1 : sleepScore >= 75 ? 2 : sleepScore >= 62 ? 3 : 4,
    avgSleepingHR: round(restingHR + 4 + gaussian(prng), 1),
    respiration: round(14.5 + 0.6 * gaussian(prng), 1),
    steps: prng.int(5_500, 12_500),
  };
}

/** The athlete's answers to the morning questions, on intervals.icu's 1 to 4 scales. */
function answers(prng: Prng, { strain, hardYesterday }: MorningBody): Json {
  return {
    soreness: clamp(1 + (hardYesterday ? 1 : 0) + (strain > 12 ? 1 : 0) + (prng.chance(0.15) ? 1 : 0), 1, 4),
    fatigue: clamp(1 + (strain > 6 ? 1 : 0) + (strain > 16 ? 1 : 0) + (hardYesterday && prng.chance(0.5) ? 1 : 0), 1, 4),
    stress: clamp(1 + (prng.chance(0.35) ? 1 : 0) + (prng.chance(0.1) ? 1 : 0), 1, 4),
    mood: clamp(1 + (prng.chance(0.4) ? 1 : 0) + (strain > 16 && prng.chance(0.5) ? 1 : 0), 1, 4),
    motivation: clamp(1 + (prng.chance(0.3) ? 1 : 0) + (strain > 16 ? 1 : 0), 1, 4),
    injury: 1,
  };
}

function wallOf(date: string): { year: number; month: number; day: number } {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return { year, month, day };
}

/** A standard normal draw (Box-Muller) from the day's PRNG. */
function gaussian(prng: Prng): number {
  const u = Math.max(prng.next(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * prng.next());
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
