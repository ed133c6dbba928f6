/**
 * The load view's key numbers as text, each a tile's label, value and what the value is about: the answer's
 * load numbers, and the morning signals' 7 days against the 28 before (numbers, no verdict). Pure functions: no
 * DOM, so every tile's words are tested in Node (test/views/load-numbers.test.ts); load-view.ts lays them out.
 */
import { shortDate } from "./load-data.ts";
import { formatHours, grouped } from "./units.ts";
import type { LoadNumbers, ReadinessMeasure, ReadinessTrend } from "../tools/training-load/training-load-answer.ts";

/** A tile: its label, its value and, under it, what the value is about. */
export type KeyNumberEntry = [string, string, string?];

export function loadNumberEntries(load: LoadNumbers): KeyNumberEntry[] {
  return [
    ["Fitness (CTL)", load.fitness.toFixed(1)],
    ["Fatigue (ATL)", load.fatigue.toFixed(1)],
    ["Form (TSB)", signed(load.form), load.form_percent === null ? undefined : `${signedWhole(load.form_percent)}% of fitness`],
    ["Ramp rate", load.ramp_rate === null ? "n/a" : signed(load.ramp_rate), "fitness gained in 7 days"],
    ["Acute:chronic ratio", load.acute_chronic_ratio === null ? "n/a" : load.acute_chronic_ratio.toFixed(2)],
    ["Monotony", load.monotony === null ? "n/a" : load.monotony.toFixed(2)],
    ["Strain", load.strain === null ? "n/a" : grouped(load.strain)],
    [
      "Days in a row without rest",
      `${load.longest_run_without_rest.days}`,
      load.longest_run_without_rest.ends ? `longest, to ${shortDate(load.longest_run_without_rest.ends)}` : undefined,
    ],
  ];
}

/** The morning signals' tiles: HRV, resting heart rate and sleep, each its 7-day mean against the 28 days before. */
export function readinessEntries(trend: ReadinessTrend): KeyNumberEntry[] {
  return [
    readinessEntry("HRV", trend.hrv, (value) => value.toFixed(1), " ms"),
    readinessEntry("Resting heart rate", trend.restingHR, (value) => value.toFixed(1), " bpm"),
    readinessEntry("Sleep", trend.sleepSecs, (seconds) => formatHours(seconds), ""),
  ];
}

function readinessEntry(
  label: string,
  measure: ReadinessMeasure,
  format: (value: number) => string,
  unit: string,
): [string, string, string] {
  const usual =
    measure.mean_28d === null || measure.sd_28d === null
      ? "no baseline"
      : `usual ${format(measure.mean_28d)} ± ${format(measure.sd_28d)}${unit}`;
  const difference = measure.difference_sd === null ? "" : ` · ${signed(measure.difference_sd)} SD`;
  const skipped = measure.skipped_7d + measure.skipped_28d;
  return [
    `${label}, 7-day mean`,
    measure.mean_7d === null ? "n/a" : `${format(measure.mean_7d)}${unit}`,
    `${usual}${difference}${skipped > 0 ? ` · ${skipped} ${skipped === 1 ? "morning" : "mornings"} without a value` : ""}`,
  ];
}

/** A signed number to a tenth, with a true minus sign. */
export function signed(value: number): string {
  return `${value > 0 ? "+" : value < 0 ? "\u2212" : ""}${Math.abs(value).toFixed(1)}`;
}

function signedWhole(value: number): string {
  return `${value > 0 ? "+" : value < 0 ? "\u2212" : ""}${Math.abs(value).toFixed(0)}`;
}
