/**
 * The load view's key numbers as text, in Node (no DOM): each tile's label, value and what it is about, "n/a"
 * where the answer has null, signs with a true minus; the morning signals' tiles with their baseline, the
 * difference in standard deviations and the mornings skipped, or "no baseline".
 */
import { describe, expect, it } from "vitest";
import { loadNumberEntries, readinessEntries, signed } from "../../views/load-numbers.ts";
import type { LoadNumbers, ReadinessMeasure, ReadinessTrend } from "../../tools/training-load/training-load-answer.ts";

describe("the load numbers' tiles (loadNumberEntries)", () => {
  it("gives each number its words, n/a for what the answer could not compute", () => {
    const load = {
      fitness: 48.25,
      fatigue: 61.04,
      form: -12.79,
      form_percent: -26.5,
      ramp_rate: null,
      acute_chronic_ratio: 1.234,
      monotony: null,
      strain: 2345.6,
      longest_run_without_rest: { days: 6, ends: "2026-11-20" },
    } as unknown as LoadNumbers;
    expect(loadNumberEntries(load)).toEqual([
      ["Fitness (CTL)", "48.3"],
      ["Fatigue (ATL)", "61.0"],
      ["Form (TSB)", "\u221212.8", "\u221227% of fitness"],
      ["Ramp rate", "n/a", "fitness gained in 7 days"],
      ["Acute:chronic ratio", "1.23"],
      ["Monotony", "n/a"],
      ["Strain", "2,346"],
      ["Days in a row without rest", "6", "longest, to 20 Nov"],
    ]);
  });

  it("signs a tenth with + or a true minus, and zero with neither", () => {
    expect([signed(2.04), signed(-0.06), signed(0)]).toEqual(["+2.0", "\u22120.1", "0.0"]);
  });
});

describe("the morning signals' tiles (readinessEntries)", () => {
  const measure = (changes: Partial<ReadinessMeasure>): ReadinessMeasure => ({
    mean_7d: 52.14,
    skipped_7d: 0,
    mean_28d: 58,
    sd_28d: 4.5,
    skipped_28d: 0,
    difference_sd: -1.3,
    ...changes,
  });

  it("says the 7-day mean against the usual, in standard deviations, and counts the mornings without a value", () => {
    const trend = {
      last_7d: { first: "2026-11-15", last: "2026-11-21" },
      baseline_28d: { first: "2026-10-18", last: "2026-11-14" },
      hrv: measure({ skipped_7d: 1 }),
      restingHR: measure({ mean_28d: null, sd_28d: null, difference_sd: null, skipped_28d: 2 }),
      sleepSecs: measure({ mean_7d: null, mean_28d: 27_000, sd_28d: 1800, difference_sd: null }),
    } as ReadinessTrend;
    expect(readinessEntries(trend)).toEqual([
      ["HRV, 7-day mean", "52.1 ms", "usual 58.0 ± 4.5 ms · \u22121.3 SD · 1 morning without a value"],
      ["Resting heart rate, 7-day mean", "52.1 bpm", "no baseline · 2 mornings without a value"],
      ["Sleep, 7-day mean", "n/a", "usual 7 h 30 ± 30 min"],
    ]);
  });
});
