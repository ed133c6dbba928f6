/**
 * The steps of the training-load answer on intervals.icu, as data: the series from the wellness records (a record's
 * own fitness, fatigue, ramp rate and day load; a date without one carried on by intervals.icu's recurrence with the
 * listed activities' load, and counted), and the notes on what intervals.icu's data lacks, each said only when so.
 */
import { describe, expect, it } from "vitest";
import { intervalsNotes, wellnessSeries, type WellnessRecord } from "../../../tools/intervals-icu/load-summary.ts";
import type { IntervalsLoadSources } from "../../../tools/training-load/training-load-answer.ts";

/** 2026-11-01 as a day number. */
const first = Date.UTC(2026, 10, 1) / 86_400_000;

describe("the series from the wellness records (wellnessSeries)", () => {
  it("takes each record's numbers, and carries a date without one on by intervals.icu's recurrence with the listed load", () => {
    const records = new Map<number, WellnessRecord>([
      [first, { ctl: 50, atl: 60, rampRate: 2.5, ctlLoad: 80 }],
      [first + 2, { ctl: 49, atl: 55, ctlLoad: 0 }],
    ]);
    const { loads, series, missing } = wellnessSeries(records, new Map([[first + 1, 100]]), first, first + 2);
    expect(loads).toEqual([80, 100, 0]);
    expect(missing).toBe(1);
    expect(series.firstDay).toBe(first);
    expect(series.fitness[0]).toBe(50);
    expect(series.fitness[1]).toBeCloseTo(50 + 50 * (1 - Math.exp(-1 / 42)), 12);
    expect(series.fatigue[1]).toBeCloseTo(60 + 40 * (1 - Math.exp(-1 / 7)), 12);
    expect(series.fitness[2]).toBe(49);
    expect(series.rampRate).toEqual([2.5, null, null]);
  });

  it("starts a series without records from 0, the load 0 on a date nothing was listed", () => {
    const { loads, series, missing } = wellnessSeries(new Map(), new Map(), first, first + 1);
    expect(loads).toEqual([0, 0]);
    expect(series.fitness).toEqual([0, 0]);
    expect(missing).toBe(2);
  });
});

describe("the notes on intervals.icu's data (intervalsNotes)", () => {
  const sources = (changes: Partial<IntervalsLoadSources>): IntervalsLoadSources => ({
    log: "intervals.icu",
    icu_training_load: 10,
    without_load: 0,
    strava_stubs: 0,
    wellness_days: { with_record: 3, of: 3 },
    ...changes,
  });

  it("says nothing when every date has a record and every activity its load", () => {
    expect(intervalsNotes(sources({}), first, first + 2)).toEqual([]);
  });

  it("names the dates without a record, the Strava stubs and the activities without load, in that order", () => {
    expect(
      intervalsNotes(sources({ wellness_days: { with_record: 2, of: 3 }, strava_stubs: 4, without_load: 1 }), first, first + 2),
    ).toEqual([
      "1 of the 3 dates from 2026-11-01 have no wellness record with fitness and fatigue; those dates carry them on by intervals.icu's recurrence from the day before, with the load of the activities listed that day.",
      "4 of the window's activities reached intervals.icu from Strava: its API lists them only as stubs, so they are not in weeks; intervals.icu counts their load in days, fitness and fatigue.",
      "1 activities have no load on intervals.icu (no power, heart rate or entered load): 0 in weeks.",
    ]);
  });
});
