/**
 * The load view's charts, in plain SVG (one element per day, per week, per activity: what a test counts):
 * - the load chart: a bar per day's load, with the fitness (CTL) and fatigue (ATL) lines over it;
 * - the form chart: form (TSB) per day around zero, fresh above and tired below;
 * - the weeks chart: per Monday-to-Sunday week, its training time stacked by sport, with its load;
 * - the days chart (a plain list): per date, the listed activities stacked by their time.
 */
import { addDays, daysBetween, shortDate, sportOf, sportTotals as totalsOf, timeOf, type Day, type ListedActivity } from "./load-data.ts";
import type { TrainingLoadAnswer } from "../tools/training-load/training-load-answer.ts";
import { linearScale, niceDomain } from "./scales.ts";
import { sportName } from "./sport-colors.ts";
import { round, svg, title } from "./svg.ts";
import { decimal, formatHours, grouped } from "./units.ts";

interface Frame {
  width: number;
  left: number;
  right: number;
}

function frame(width: number): Frame {
  return { width, left: width < 560 ? 34 : 42, right: width < 560 ? 8 : 14 };
}

/** Date labels under a day axis: days for a fortnight or less, else Mondays; as many as fit. */
function dayAxis(dates: readonly string[], toX: (index: number) => number, top: number, plotWidth: number): SVGGElement {
  const axis = svg("g", { class: "x-axis" });
  const all = dates.map((date, index) => ({ date, index }));
  const candidates = dates.length <= 14 ? all : all.filter(({ date }) => new Date(`${date}T00:00:00Z`).getUTCDay() === 1);
  const every = Math.max(1, Math.ceil((candidates.length * 52) / plotWidth));
  candidates.forEach(({ date, index }, position) => {
    if (position % every !== 0) return;
    const x = toX(index);
    axis.append(
      svg("line", { class: "axis", x1: x, x2: x, y1: top, y2: top + 4 }),
      svg("text", { class: "tick x-tick", x, y: top + 16, "text-anchor": "middle" }, [shortDate(date)]),
    );
  });
  return axis;
}

function yTicks(
  group: SVGGElement,
  ticks: readonly number[],
  toY: (value: number) => number,
  f: Frame,
  format: (value: number) => string,
): void {
  for (const tick of ticks) {
    const y = toY(tick);
    group.append(
      svg("line", { class: tick === 0 ? "axis" : "grid", x1: f.left, x2: f.width - f.right, y1: y, y2: y }),
      svg("text", { class: "tick y-tick", x: f.left - 5, y: y + 4, "text-anchor": "end" }, [format(tick)]),
    );
  }
}

/** A y axis's title, over its tick labels: what the values are counted in. */
function axisTitle(text: string): SVGTextElement {
  return svg("text", { class: "axis-title", x: 0, y: 12 }, [text]);
}

/** The load chart, its axis titled with what the loads are counted in (`unit`, per day). */
export function loadChart(days: readonly Day[], width: number, unit: string): SVGSVGElement {
  const f = frame(width);
  const height = width < 560 ? 206 : 246;
  const top = 26;
  const bottom = height - 24;
  const plotWidth = width - f.left - f.right;
  const slot = plotWidth / Math.max(1, days.length);
  const toX = (index: number): number => f.left + slot * (index + 0.5);
  const { domain, ticks } = niceDomain(0, Math.max(1, ...days.map((day) => Math.max(day.load, day.fitness, day.fatigue))), 4);
  const toY = linearScale(domain, [bottom, top]);
  const last = days[days.length - 1];
  const chart = svg("svg", {
    class: "load-chart",
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: "img",
    "aria-label": "Daily load with fitness and fatigue",
    "data-fitness": last ? decimal(last.fitness, 1) : undefined,
    "data-fitness-first": days[0] ? decimal(days[0].fitness, 1) : undefined,
    "data-fatigue": last ? decimal(last.fatigue, 1) : undefined,
  });
  const grid = svg("g", { class: "grid-lines" });
  yTicks(grid, ticks, toY, f, (value) => grouped(value));
  chart.append(grid, axisTitle(`${unit} per day`));
  const bars = svg("g", { class: "series", "data-series": "load" });
  const barWidth = Math.max(1, slot * 0.72);
  days.forEach((day, index) => {
    const y = toY(day.load);
    bars.append(
      svg(
        "rect",
        {
          class: "bar",
          x: toX(index) - barWidth / 2,
          y,
          width: barWidth,
          height: Math.max(0, bottom - y),
          "data-date": day.date,
          "data-load": day.load,
        },
        [title(`${shortDate(day.date, true)}: load ${grouped(day.load)}`)],
      ),
    );
  });
  chart.append(bars);
  for (const [key, pick] of [
    ["fatigue", (day: Day) => day.fatigue],
    ["fitness", (day: Day) => day.fitness],
  ] as const) {
    const points = days.map((day, index) => `${round(toX(index))},${round(toY(pick(day)))}`).join(" ");
    chart.append(
      svg("g", { class: "series", "data-series": key, style: `--series: var(--chart-${key})` }, [
        svg("polyline", { class: "line thick", points }),
      ]),
    );
  }
  chart.append(
    dayAxis(
      days.map((day) => day.date),
      toX,
      bottom,
      plotWidth,
    ),
  );
  return chart;
}

export function formChart(days: readonly Day[], width: number, unit: string): SVGSVGElement {
  const f = frame(width);
  const height = width < 560 ? 136 : 156;
  const top = 24;
  const bottom = height - 24;
  const plotWidth = width - f.left - f.right;
  const slot = plotWidth / Math.max(1, days.length);
  const toX = (index: number): number => f.left + slot * (index + 0.5);
  const values = days.map((day) => day.form);
  const { domain, ticks } = niceDomain(Math.min(0, ...values), Math.max(0, ...values), 3);
  const toY = linearScale(domain, [bottom, top]);
  const chart = svg("svg", {
    class: "form-chart",
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: "img",
    "aria-label": "Form per day",
    "data-form": decimal(days[days.length - 1]?.form ?? 0, 1),
  });
  const grid = svg("g", { class: "grid-lines" });
  yTicks(grid, ticks, toY, f, (value) => grouped(value));
  chart.append(grid, axisTitle(`${unit} per day`));
  const zero = toY(0);
  const bars = svg("g", { class: "series", "data-series": "form" });
  days.forEach((day, index) => {
    const y = toY(day.form);
    bars.append(
      svg(
        "rect",
        {
          class: day.form >= 0 ? "form-up" : "form-down",
          x: toX(index) - slot / 2,
          y: Math.min(y, zero),
          width: Math.max(1, slot),
          height: Math.abs(zero - y),
          "data-date": day.date,
        },
        [title(`${shortDate(day.date, true)}: form ${decimal(day.form, 1)}`)],
      ),
    );
  });
  chart.append(bars);
  chart.append(
    dayAxis(
      days.map((day) => day.date),
      toX,
      bottom,
      plotWidth,
    ),
  );
  return chart;
}

/** Characters of the weekly totals' label (11.5 px, tabular figures) to pixels: about 6.6 each, so the label is sized without measuring. */
const totalCharacterWidth = 6.6;

export function weeksChart(
  answer: TrainingLoadAnswer,
  sports: readonly string[],
  width: number,
  colorOf: (sport: string) => string,
  unit: string,
): SVGSVGElement {
  const compact = width < 560;
  const labelWidth = compact ? 58 : 84;
  const totals = answer.weeks.map((week) =>
    `${formatHours(week.total.moving_time)} · ${grouped(week.total.load)} ${compact ? "" : unit}`.trim(),
  );
  // The widest label decides the room kept for labels, so every week's stays inside the chart, a phone's included.
  const valueWidth = Math.max(...totals.map((text) => text.length)) * totalCharacterWidth + 10;
  const row = 26;
  const height = answer.weeks.length * row + 6;
  const plotWidth = Math.max(60, width - labelWidth - valueWidth);
  const most = Math.max(1, ...answer.weeks.map((week) => week.total.moving_time));
  const toWidth = (seconds: number): number => (seconds / most) * plotWidth;
  const chart = svg("svg", {
    class: "weeks-chart",
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: "img",
    "aria-label": "Training time per week by sport",
  });
  answer.weeks.forEach((week, position) => {
    const y = position * row + 4;
    const group = svg("g", { class: "week", "data-week": week.week, "data-partial": String(week.partial) });
    group.append(svg("text", { class: "tick", x: 0, y: y + 15 }, [`${shortDate(week.week)}${week.partial ? "*" : ""}`]));
    let x = labelWidth;
    for (const sport of sports) {
      const columns = week.sports[sport];
      if (columns === undefined) continue;
      const sportTotals = totalsOf(answer, columns);
      if (sportTotals.moving_time <= 0) continue;
      const w = toWidth(sportTotals.moving_time);
      group.append(
        svg(
          "rect",
          {
            class: "segment",
            x,
            y: y + 3,
            width: Math.max(1, w - 1),
            height: row - 9,
            fill: colorOf(sport),
            "data-sport": sport,
            "data-seconds": sportTotals.moving_time,
          },
          [
            title(
              `${sportName(sport)}: ${sportTotals.count} × ${formatHours(sportTotals.moving_time)}, ${grouped(sportTotals.load)} ${unit}`,
            ),
          ],
        ),
      );
      x += w;
    }
    group.append(
      svg("text", { class: "week-total", x: labelWidth + toWidth(week.total.moving_time) + 6, y: y + 15 }, [totals[position] ?? ""]),
    );
    chart.append(group);
  });
  return chart;
}

/** A plain list by day: a column per date from the first listed to the last, its activities stacked by time. */
export function daysChart(activities: readonly ListedActivity[], width: number, colorOf: (sport: string) => string): SVGSVGElement {
  const dated = activities.filter((activity) => /^\d{4}-\d{2}-\d{2}/.test(activity.start_date_local ?? ""));
  const dates = dated.map((activity) => (activity.start_date_local ?? "").slice(0, 10)).sort();
  const first = dates[0] ?? "1970-01-01";
  const count = daysBetween(first, dates[dates.length - 1] ?? first) + 1;
  const f = frame(width);
  const height = width < 560 ? 170 : 200;
  const top = 10;
  const bottom = height - 24;
  const plotWidth = width - f.left - f.right;
  const slot = plotWidth / count;
  const toX = (index: number): number => f.left + slot * (index + 0.5);
  const perDay = new Map<string, number>();
  const anyTime = dated.some((activity) => timeOf(activity) !== undefined);
  // Without times (a fields list that left them out) every activity counts the same: a stack shows how many.
  const amount = (activity: ListedActivity): number => (anyTime ? (timeOf(activity) ?? 0) : 1);
  for (const activity of dated)
    perDay.set(
      (activity.start_date_local ?? "").slice(0, 10),
      (perDay.get((activity.start_date_local ?? "").slice(0, 10)) ?? 0) + amount(activity),
    );
  const hours = anyTime;
  const { domain, ticks } = niceDomain(0, Math.max(1, ...perDay.values()) / (hours ? 3600 : 1), 3);
  const toY = linearScale(domain, [bottom, top]);
  const chart = svg("svg", {
    class: "days-chart",
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: "img",
    "aria-label": "Listed activities by day",
  });
  const grid = svg("g", { class: "grid-lines" });
  yTicks(grid, ticks, toY, f, (value) => (hours ? `${decimal(value, 1)} h` : String(value)));
  chart.append(grid);
  const stacked = new Map<string, number>();
  const barWidth = Math.max(2, Math.min(28, slot * 0.7));
  for (const activity of dated) {
    const date = (activity.start_date_local ?? "").slice(0, 10);
    const below = stacked.get(date) ?? 0;
    const value = amount(activity) / (hours ? 3600 : 1);
    const y0 = toY(below);
    const y1 = toY(below + value);
    stacked.set(date, below + value);
    const sport = sportOf(activity) ?? "";
    chart.append(
      svg(
        "rect",
        {
          class: "activity",
          x: toX(daysBetween(first, date)) - barWidth / 2,
          y: y1,
          width: barWidth,
          height: Math.max(1, y0 - y1 - 1),
          fill: colorOf(sport),
          "data-sport": sport,
          "data-date": date,
        },
        [
          title(
            `${shortDate(date, true)}: ${activity.name ?? sportName(sport)}${timeOf(activity) !== undefined ? `, ${formatHours(timeOf(activity) ?? 0)}` : ""}`,
          ),
        ],
      ),
    );
  }
  const allDates = Array.from({ length: count }, (_, index) => addDays(first, index));
  chart.append(dayAxis(allDates, toX, bottom, plotWidth));
  return chart;
}
