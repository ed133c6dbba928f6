/**
 * The load view's layout arithmetic, in Node (no DOM): a chart's frame over dates on a phone and a desktop, the
 * weeks chart's room for its labels (the widest label decides it) and the bar widths, a week's sports in the
 * order given without those with no time, and the days chart's stacks (hours, or a count when no activity has a
 * time). The drawing itself is checked in a browser (test/mcp-adapter/app-views-in-browser.test.ts).
 */
import { describe, expect, it } from "vitest";
import { dayFrame, dayStacks, frame, weeksLayout, weekSegments } from "../../views/chart-layout.ts";
import type { TrainingLoadAnswer, WeekSummary } from "../../tools/training-load/training-load-answer.ts";

const week = (monday: string, seconds: number, load: number, sports: WeekSummary["sports"]): WeekSummary => ({
  week: monday,
  partial: false,
  days: 7,
  total: { count: 1, distance: 0, moving_time: seconds, elevation_gain: 0, load },
  sports,
  rest_days: 0,
  load_change_percent: null,
  moving_time_change_percent: null,
});

const answerOf = (weeks: WeekSummary[]): TrainingLoadAnswer =>
  ({ weeks, sport_columns: ["count", "distance", "moving_time", "elevation_gain", "load"] }) as unknown as TrainingLoadAnswer;

describe("a chart over dates (dayFrame)", () => {
  it("keeps narrower margins under 560 px, and puts each date in the middle of its slot", () => {
    expect(frame(400)).toEqual({ width: 400, left: 34, right: 8 });
    expect(frame(800)).toEqual({ width: 800, left: 42, right: 14 });
    const layout = dayFrame(800, 246, 26, 4);
    expect({ top: layout.top, bottom: layout.bottom, plotWidth: layout.plotWidth, slot: layout.slot }).toEqual({
      top: 26,
      bottom: 222,
      plotWidth: 744,
      slot: 186,
    });
    expect([layout.toX(0), layout.toX(3)]).toEqual([42 + 93, 42 + 93 + 3 * 186]);
  });

  it("gives an empty series one slot rather than dividing by zero", () => {
    expect(dayFrame(400, 136, 24, 0).slot).toBe(358);
  });
});

describe("the weeks chart (weeksLayout, weekSegments)", () => {
  const answer = answerOf([
    week("2026-11-09", 7200, 150, { Run: [1, 0, 3600, 0, 80], Ride: [1, 0, 3600, 0, 70], Swim: [0, 0, 0, 0, 0] }),
    week("2026-11-16", 36_000, 1234, {}),
  ]);

  it("labels each week with its time and load (the unit only on a wide chart), the widest label keeping the room", () => {
    const wide = weeksLayout(answer, 800, "TSS");
    expect(wide.totals).toEqual(["2 h 00 · 150 TSS", "10 h 00 · 1,234 TSS"]);
    expect(wide.height).toBe(2 * 26 + 6);
    const plotWidth = 800 - 84 - ("10 h 00 · 1,234 TSS".length * 6.6 + 10);
    expect(wide.toWidth(36_000)).toBeCloseTo(plotWidth, 9);
    expect(wide.toWidth(18_000)).toBeCloseTo(plotWidth / 2, 9);
    expect(weeksLayout(answer, 400, "TSS").totals).toEqual(["2 h 00 · 150", "10 h 00 · 1,234"]);
  });

  it("lists a week's sports in the order given, without those with no time", () => {
    const segments = weekSegments(answer, answer.weeks[0]!, ["Ride", "Swim", "Run", "Walk"]);
    expect(segments.map(({ sport, totals }) => [sport, totals.moving_time, totals.load])).toEqual([
      ["Ride", 3600, 70],
      ["Run", 3600, 80],
    ]);
  });
});

describe("the days chart's stacks (dayStacks)", () => {
  it("spans the first date to the last, stacks hours by date, and leaves out activities without a date", () => {
    const stacks = dayStacks([
      { start_date_local: "2026-11-18T07:00:00Z", moving_time: 3600 },
      { start_date_local: "2026-11-16T07:00:00Z", moving_time: 1800 },
      { start_date_local: "2026-11-18T18:00:00Z", elapsed_time: 5400 },
      { name: "no date", moving_time: 99_999 },
    ]);
    expect({ first: stacks.first, count: stacks.count, hours: stacks.hours, highest: stacks.highest }).toEqual({
      first: "2026-11-16",
      count: 3,
      hours: true,
      highest: 2.5,
    });
    expect(stacks.dated).toHaveLength(3);
  });

  it("counts activities when none has a time; the highest stack is at least one (second, or activity) before its conversion", () => {
    const stacks = dayStacks([{ start_date_local: "2026-11-16T07:00:00Z" }, { start_date_local: "2026-11-16T09:00:00Z" }]);
    expect({ hours: stacks.hours, highest: stacks.highest, count: stacks.count }).toEqual({ hours: false, highest: 2, count: 1 });
    expect(dayStacks([{ start_date_local: "2026-11-16T07:00:00Z", moving_time: 600 }]).highest).toBe(600 / 3600);
  });
});
