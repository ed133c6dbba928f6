/**
 * Where the load view's charts put things, as numbers: the frame of a chart over dates (margins by width, the
 * plot's top and bottom, a slot per date and its middle), the weeks chart's rows and the room kept for their
 * labels, and the days chart's stacks of listed activities. Pure functions: no DOM, so they are tested in Node
 * (test/views/chart-layout.test.ts) and the drawing in load-chart.ts only places elements where these say.
 */
import { daysBetween, sportTotals, timeOf, type ListedActivity } from "./load-data.ts";
import type { TrainingLoadAnswer } from "../tools/training-load/training-load-answer.ts";
import { formatHours, grouped } from "./units.ts";

/** A chart's width and its left and right margins (narrower on a phone). */
export interface Frame {
  width: number;
  left: number;
  right: number;
}

export function frame(width: number): Frame {
  return { width, left: width < 560 ? 34 : 42, right: width < 560 ? 8 : 14 };
}

/** A chart with a slot per date: its frame, the plot's top and bottom, and the middle of date `index`'s slot. */
export interface DayFrame {
  f: Frame;
  top: number;
  bottom: number;
  plotWidth: number;
  slot: number;
  toX: (index: number) => number;
}

/** The frame of a chart `height` high (24 below the plot for the date axis) with `count` date slots. */
export function dayFrame(width: number, height: number, top: number, count: number): DayFrame {
  const f = frame(width);
  const plotWidth = width - f.left - f.right;
  const slot = plotWidth / Math.max(1, count);
  return { f, top, bottom: height - 24, plotWidth, slot, toX: (index) => f.left + slot * (index + 0.5) };
}

/** Characters of the weekly totals' label (11.5 px, tabular figures) to pixels: about 6.6 each, so the label is sized without measuring. */
const totalCharacterWidth = 6.6;

/** The weeks chart's rows: each week's total label, the room for the labels, and a bar's width for a training time. */
export interface WeeksLayout {
  labelWidth: number;
  totals: string[];
  row: number;
  height: number;
  toWidth: (seconds: number) => number;
}

export function weeksLayout(answer: TrainingLoadAnswer, width: number, unit: string): WeeksLayout {
  const compact = width < 560;
  const labelWidth = compact ? 58 : 84;
  const totals = answer.weeks.map((week) =>
    `${formatHours(week.total.moving_time)} · ${grouped(week.total.load)} ${compact ? "" : unit}`.trim(),
  );
  // The widest label decides the room kept for labels, so every week's stays inside the chart, a phone's included.
  const valueWidth = Math.max(...totals.map((text) => text.length)) * totalCharacterWidth + 10;
  const row = 26;
  const plotWidth = Math.max(60, width - labelWidth - valueWidth);
  const most = Math.max(1, ...answer.weeks.map((week) => week.total.moving_time));
  return { labelWidth, totals, row, height: answer.weeks.length * row + 6, toWidth: (seconds) => (seconds / most) * plotWidth };
}

/** A week's sports in `sports`' order with their training time, those without time left out. */
export function weekSegments(
  answer: TrainingLoadAnswer,
  week: TrainingLoadAnswer["weeks"][number],
  sports: readonly string[],
): Array<{ sport: string; totals: ReturnType<typeof sportTotals> }> {
  const segments: Array<{ sport: string; totals: ReturnType<typeof sportTotals> }> = [];
  for (const sport of sports) {
    const columns = week.sports[sport];
    if (columns === undefined) continue;
    const totals = sportTotals(answer, columns);
    if (totals.moving_time <= 0) continue;
    segments.push({ sport, totals });
  }
  return segments;
}

/** The days chart's data: the dated activities, the first date and the dates spanned, and what each stacks. */
export interface DayStacks {
  dated: ListedActivity[];
  first: string;
  count: number;
  /** True when some activity has a time: the stacks are hours; else each activity counts 1. */
  hours: boolean;
  /** An activity's part of its date's stack: its time in seconds, or 1. */
  amount: (activity: ListedActivity) => number;
  /** The highest date's stack, in hours (or activities), at least 1 before the conversion. */
  highest: number;
}

export function dayStacks(activities: readonly ListedActivity[]): DayStacks {
  const dated = activities.filter((activity) => /^\d{4}-\d{2}-\d{2}/.test(activity.start_date_local ?? ""));
  const dates = dated.map((activity) => (activity.start_date_local ?? "").slice(0, 10)).sort();
  const first = dates[0] ?? "1970-01-01";
  const hours = dated.some((activity) => timeOf(activity) !== undefined);
  // Without times (a fields list that left them out) every activity counts the same: a stack shows how many.
  const amount = (activity: ListedActivity): number => (hours ? (timeOf(activity) ?? 0) : 1);
  const perDay = new Map<string, number>();
  for (const activity of dated) {
    const date = (activity.start_date_local ?? "").slice(0, 10);
    perDay.set(date, (perDay.get(date) ?? 0) + amount(activity));
  }
  return {
    dated,
    first,
    count: daysBetween(first, dates[dates.length - 1] ?? first) + 1,
    hours,
    amount,
    highest: Math.max(1, ...perDay.values()) / (hours ? 3600 : 1),
  };
}
