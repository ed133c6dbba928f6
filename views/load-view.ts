/**
 * The load view (the MCP App of `get_activities`). With `summary: true`: the daily load with fitness and
 * fatigue, form, the weekly totals by sport and the answer's numbers and notes. For a plain list: the listed
 * activities by day. Nothing here calls a tool.
 */
import { element, message, notDrawable, startView, type ViewState } from "./view-app.ts";
import {
  activitiesByDay,
  dailySeries,
  loadUnit,
  logOf,
  parseActivities,
  shortDate,
  listedSportsByTime,
  sportsByTime,
  sportOf,
  timeOf,
  type ActivitiesAnswer,
  type ListedActivity,
} from "./load-data.ts";
import { daysChart, formChart, loadChart, weeksChart } from "./load-chart.ts";
import { sportName, sportPalette } from "./sport-colors.ts";
import { formatDistance, formatHours, grouped, unitSystemFor, type UnitSystem } from "./units.ts";
import type { ReadinessMeasure, ReadinessTrend, TrainingLoadAnswer } from "../tools/training-load/training-load-answer.ts";
import "./view.css";

startView("load", render);

function render(root: HTMLElement, state: ViewState): void {
  const problem = notDrawable(state);
  if (problem) return root.replaceChildren(problem);
  let parsed: ActivitiesAnswer;
  try {
    parsed = parseActivities(state.result?.text ?? "");
  } catch (error) {
    return root.replaceChildren(message("Nothing to draw", error instanceof Error ? error.message : String(error)));
  }
  const width = Math.max(280, state.width);
  const system = unitSystemFor(state.locale);
  root.replaceChildren(...(parsed.kind === "summary" ? summaryView(parsed.answer, width) : listView(parsed.activities, width, system)));
}

function summaryView(answer: TrainingLoadAnswer, width: number): HTMLElement[] {
  const days = dailySeries(answer);
  const sports = sportsByTime(answer);
  const colorOf = sportPalette(sports);
  const unit = loadUnit(answer);
  const header = element("header", "view-header");
  header.append(
    element("h1", "", `Training load, ${shortDate(answer.window.first)} to ${shortDate(answer.window.last)}`),
    element(
      "p",
      "subtitle",
      `${grouped(answer.window.activities)} activities · ${answer.weeks.length} weeks · dates in ${answer.window.time_zone}` +
        (logOf(answer) === "intervals.icu" ? " · intervals.icu's fitness and fatigue" : ""),
    ),
  );
  const load = answer.load;
  const numbers = keyNumbers([
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
  ]);
  const parts: HTMLElement[] = [header, numbers];
  if (answer.readiness_trend) parts.push(...readinessTiles(answer.readiness_trend));
  parts.push(
    element("h3", "", "Daily load, fitness and fatigue"),
    legend([
      ["Daily load", "var(--chart-load)", "bar"],
      ["Fitness (CTL)", "var(--chart-fitness)", "line"],
      ["Fatigue (ATL)", "var(--chart-fatigue)", "line"],
    ]),
  );
  parts.push(wrap(loadChart(days, width, unit)));
  parts.push(
    element("h3", "", "Form (TSB): fitness minus fatigue"),
    legend([
      ["Fresher", "var(--chart-form-up)", "bar"],
      ["More tired", "var(--chart-form-down)", "bar"],
    ]),
  );
  parts.push(wrap(formChart(days, width, unit)));
  parts.push(element("h3", "", `Training time per week, by sport, and its ${unit}`));
  const sportLegend = legend(sports.map((sport) => [sportName(sport), colorOf(sport), "bar", sport]));
  parts.push(sportLegend, wrap(weeksChart(answer, sports, width, colorOf, unit)));
  if (answer.weeks.some((week) => week.partial))
    parts.push(element("p", "note", "* Part of the week is outside the window (the current week, or the first one)."));
  if (answer.notes.length > 0) {
    const notes = element("ul", "notes");
    for (const note of answer.notes) notes.append(element("li", "", note));
    parts.push(notes);
  }
  return parts;
}

function listView(activities: readonly ListedActivity[], width: number, system: UnitSystem): HTMLElement[] {
  const byDay = activitiesByDay(activities);
  const header = element("header", "view-header");
  header.append(element("h1", "", `${grouped(activities.length)} activities by day`));
  if (byDay.length === 0) {
    header.append(element("p", "subtitle", "The list carries no dates (start_date_local), so it cannot be drawn by day."));
    return [header];
  }
  const newest = byDay[0]?.date ?? "";
  const oldest = byDay[byDay.length - 1]?.date ?? "";
  header.append(element("p", "subtitle", `${shortDate(oldest)} to ${shortDate(newest)} · ${byDay.length} days with an activity`));
  const sports = listedSportsByTime(activities);
  const colorOf = sportPalette(sports);
  const parts: HTMLElement[] = [
    header,
    legend(sports.map((sport) => [sportName(sport), colorOf(sport), "bar", sport])),
    wrap(daysChart(activities, width, colorOf)),
  ];
  const list = element("ol", "day-list");
  for (const day of byDay) {
    const item = element("li", "day");
    item.append(element("h4", "", shortDate(day.date, true)));
    const rows = element("ul", "");
    for (const activity of day.activities) {
      const row = element("li", "activity-row");
      const swatch = element("span", "swatch");
      swatch.style.background = colorOf(sportOf(activity) ?? "");
      const facts = [
        sportOf(activity) ? sportName(sportOf(activity) ?? "") : undefined,
        activity.distance ? formatDistance(activity.distance, system) : undefined,
        timeOf(activity) !== undefined ? formatHours(timeOf(activity) ?? 0) : undefined,
      ];
      row.append(
        swatch,
        element(
          "span",
          "activity-name",
          activity.name ?? (activity.source === "STRAVA" ? "From Strava (a stub on intervals.icu)" : "Activity"),
        ),
        element("span", "activity-facts", facts.filter(Boolean).join(" · ")),
      );
      rows.append(row);
    }
    item.append(rows);
    list.append(item);
  }
  parts.push(list);
  return parts;
}

/**
 * The morning signals of a log that keeps them: each one's last 7 days against the 28 before, as the answer gives
 * them (numbers, no verdict), with the mornings skipped for want of a value.
 */
function readinessTiles(trend: ReadinessTrend): HTMLElement[] {
  const tile = (label: string, measure: ReadinessMeasure, format: (value: number) => string, unit: string): [string, string, string] => {
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
  };
  const numbers = keyNumbers([
    tile("HRV", trend.hrv, (value) => value.toFixed(1), " ms"),
    tile("Resting heart rate", trend.restingHR, (value) => value.toFixed(1), " bpm"),
    tile("Sleep", trend.sleepSecs, (seconds) => formatHours(seconds), ""),
  ]);
  numbers.classList.add("readiness");
  return [
    element("h3", "", `Mornings: ${shortDate(trend.last_7d.first)} to ${shortDate(trend.last_7d.last)} against the 28 days before`),
    numbers,
  ];
}

/** Tiles of a label, a value and, under it, what the value is about. */
function keyNumbers(entries: Array<[string, string, string?]>): HTMLElement {
  const numbers = element("dl", "key-numbers");
  for (const [label, value, about] of entries) {
    const tile = element("div", "key-number");
    const text = element("dd", "", value);
    if (about !== undefined) text.append(element("small", "", about));
    tile.append(element("dt", "", label), text);
    numbers.append(tile);
  }
  return numbers;
}

/** A legend: each entry's swatch (a bar or a line) in its colour; `sport` marks a sport's entry. */
function legend(entries: Array<[string, string, "bar" | "line", string?]>): HTMLElement {
  const list = element("ul", "legend");
  for (const [label, color, shape, sport] of entries) {
    const item = element("li", "");
    if (sport !== undefined) item.dataset["sport"] = sport;
    const swatch = element("span", `swatch ${shape}`);
    swatch.style.background = color;
    item.append(swatch, document.createTextNode(label));
    list.append(item);
  }
  return list;
}

function wrap(chart: SVGSVGElement): HTMLElement {
  const figure = element("figure", "chart");
  figure.append(chart);
  return figure;
}

function signed(value: number): string {
  return `${value > 0 ? "+" : value < 0 ? "\u2212" : ""}${Math.abs(value).toFixed(1)}`;
}

function signedWhole(value: number): string {
  return `${value > 0 ? "+" : value < 0 ? "\u2212" : ""}${Math.abs(value).toFixed(0)}`;
}
