/**
 * The load view's charts, in plain SVG (one element per day, per week, per activity: what a test counts):
 * - the load chart: a bar per day's load, with the fitness (CTL) and fatigue (ATL) lines over it;
 * - the form chart: form (TSB) per day around zero, fresh above and tired below;
 * - the weeks chart: per Monday-to-Sunday week, its training time stacked by sport, with its load;
 * - the days chart (a plain list): per date, the listed activities stacked by their time.
 * Where things go (frames, rows, stacks) is chart-layout.ts's arithmetic; here each element is placed.
 */
import { addDays, daysBetween, shortDate, sportOf, timeOf, type Day, type ListedActivity } from "./load-data.ts";
import { dayFrame, dayStacks, weeksLayout, weekSegments, type DayFrame, type Frame, type WeeksLayout } from "./chart-layout.ts";
import type { TrainingLoadAnswer } from "../tools/training-load/training-load-answer.ts";
import { linearScale, niceDomain } from "./scales.ts";
import { sportName } from "./sport-colors.ts";
import { round, svg, title } from "./svg.ts";
import { decimal, formatHours, grouped } from "./units.ts";

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
  const height = width < 560 ? 206 : 246;
  const layout = dayFrame(width, height, 26, days.length);
  const { domain, ticks } = niceDomain(0, Math.max(1, ...days.map((day) => Math.max(day.load, day.fitness, day.fatigue))), 4);
  const toY = linearScale(domain, [layout.bottom, layout.top]);
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
  yTicks(grid, ticks, toY, layout.f, (value) => grouped(value));
  chart.append(grid, axisTitle(`${unit} per day`));
  chart.append(loadBars(days, layout, toY));
  for (const [key, pick] of [
    ["fatigue", (day: Day) => day.fatigue],
    ["fitness", (day: Day) => day.fitness],
  ] as const) {
    const points = days.map((day, index) => `${round(layout.toX(index))},${round(toY(pick(day)))}`).join(" ");
    chart.append(
      svg("g", { class: "series", "data-series": key, style: `--series: var(--chart-${key})` }, [
        svg("polyline", { class: "line thick", points }),
      ]),
    );
  }
  chart.append(
    dayAxis(
      days.map((day) => day.date),
      layout.toX,
      layout.bottom,
      layout.plotWidth,
    ),
  );
  return chart;
}

/** A bar per date's load, its date and load on it. */
function loadBars(days: readonly Day[], layout: DayFrame, toY: (value: number) => number): SVGGElement {
  const bars = svg("g", { class: "series", "data-series": "load" });
  const barWidth = Math.max(1, layout.slot * 0.72);
  days.forEach((day, index) => {
    const y = toY(day.load);
    bars.append(
      svg(
        "rect",
        {
          class: "bar",
          x: layout.toX(index) - barWidth / 2,
          y,
          width: barWidth,
          height: Math.max(0, layout.bottom - y),
          "data-date": day.date,
          "data-load": day.load,
        },
        [title(`${shortDate(day.date, true)}: load ${grouped(day.load)}`)],
      ),
    );
  });
  return bars;
}

export function formChart(days: readonly Day[], width: number, unit: string): SVGSVGElement {
  const height = width < 560 ? 136 : 156;
  const { f, top, bottom, plotWidth, slot, toX } = dayFrame(width, height, 24, days.length);
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

export function weeksChart(
  answer: TrainingLoadAnswer,
  sports: readonly string[],
  width: number,
  colorOf: (sport: string) => string,
  unit: string,
): SVGSVGElement {
  const layout = weeksLayout(answer, width, unit);
  const chart = svg("svg", {
    class: "weeks-chart",
    viewBox: `0 0 ${width} ${layout.height}`,
    width,
    height: layout.height,
    role: "img",
    "aria-label": "Training time per week by sport",
  });
  answer.weeks.forEach((week, position) => chart.append(weekRow(answer, week, position, sports, layout, colorOf, unit)));
  return chart;
}

/** One week's row: its Monday (starred when partial), its time stacked by sport, and its totals. */
function weekRow(
  answer: TrainingLoadAnswer,
  week: TrainingLoadAnswer["weeks"][number],
  position: number,
  sports: readonly string[],
  layout: WeeksLayout,
  colorOf: (sport: string) => string,
  unit: string,
): SVGGElement {
  const { labelWidth, row, toWidth } = layout;
  const y = position * row + 4;
  const group = svg("g", { class: "week", "data-week": week.week, "data-partial": String(week.partial) });
  group.append(svg("text", { class: "tick", x: 0, y: y + 15 }, [`${shortDate(week.week)}${week.partial ? "*" : ""}`]));
  let x = labelWidth;
  for (const { sport, totals } of weekSegments(answer, week, sports)) {
    const w = toWidth(totals.moving_time);
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
          "data-seconds": totals.moving_time,
        },
        [title(`${sportName(sport)}: ${totals.count} × ${formatHours(totals.moving_time)}, ${grouped(totals.load)} ${unit}`)],
      ),
    );
    x += w;
  }
  group.append(
    svg("text", { class: "week-total", x: labelWidth + toWidth(week.total.moving_time) + 6, y: y + 15 }, [layout.totals[position] ?? ""]),
  );
  return group;
}

/** A plain list by day: a column per date from the first listed to the last, its activities stacked by time. */
export function daysChart(activities: readonly ListedActivity[], width: number, colorOf: (sport: string) => string): SVGSVGElement {
  const stacks = dayStacks(activities);
  const height = width < 560 ? 170 : 200;
  const layout = dayFrame(width, height, 10, stacks.count);
  const { domain, ticks } = niceDomain(0, stacks.highest, 3);
  const toY = linearScale(domain, [layout.bottom, layout.top]);
  const chart = svg("svg", {
    class: "days-chart",
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: "img",
    "aria-label": "Listed activities by day",
  });
  const grid = svg("g", { class: "grid-lines" });
  yTicks(grid, ticks, toY, layout.f, (value) => (stacks.hours ? `${decimal(value, 1)} h` : String(value)));
  chart.append(grid);
  const stacked = new Map<string, number>();
  const barWidth = Math.max(2, Math.min(28, layout.slot * 0.7));
  for (const activity of stacks.dated) {
    const date = (activity.start_date_local ?? "").slice(0, 10);
    const below = stacked.get(date) ?? 0;
    const value = stacks.amount(activity) / (stacks.hours ? 3600 : 1);
    stacked.set(date, below + value);
    chart.append(
      activityBar(
        activity,
        date,
        layout.toX(daysBetween(stacks.first, date)) - barWidth / 2,
        barWidth,
        toY(below + value),
        toY(below),
        colorOf,
      ),
    );
  }
  const allDates = Array.from({ length: stacks.count }, (_, index) => addDays(stacks.first, index));
  chart.append(dayAxis(allDates, layout.toX, layout.bottom, layout.plotWidth));
  return chart;
}

/** One activity's part of its date's stack, from `y1` (its top) to `y0`, with its name and time. */
function activityBar(
  activity: ListedActivity,
  date: string,
  x: number,
  barWidth: number,
  y1: number,
  y0: number,
  colorOf: (sport: string) => string,
): SVGRectElement {
  const sport = sportOf(activity) ?? "";
  return svg(
    "rect",
    {
      class: "activity",
      x,
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
  );
}
