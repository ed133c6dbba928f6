/**
 * The ride chart: one panel per series (heart rate, power, speed or pace, elevation) stacked over a shared
 * time or distance axis, each with its peak marked and labelled, and a crosshair that reads every series at
 * the pointer (touch or mouse). Plain SVG: a few hundred elements for a chart whose data is already reduced,
 * every drawn point and label an element a test can count and read. Sizes, domains and the runs of a line are
 * ride-layout.ts's arithmetic; here each element is placed.
 */
import { distanceLabel, type Series, type XAxis } from "./ride-data.ts";
import { panelDomain, peakPillHeight, rideLayout, segments, type RideLayout } from "./ride-layout.ts";
import { linearScale, ticksUpTo, timeSteps } from "./scales.ts";
import { round, svg, title } from "./svg.ts";
import { formatDuration, roadDistance, type UnitSystem } from "./units.ts";

export interface RideChartInput {
  series: Series[];
  x: number[];
  axis: XAxis;
  system: UnitSystem;
  width: number;
  /** Called with the readout at the pointer (undefined when the pointer leaves). */
  onReadout: (text: string | undefined) => void;
}

const colors: Record<Series["key"], string> = {
  heartrate: "var(--chart-heartrate)",
  watts: "var(--chart-power)",
  speed: "var(--chart-speed)",
  pace: "var(--chart-speed)",
  altitude: "var(--chart-elevation)",
};

export function rideChart(input: RideChartInput): SVGSVGElement {
  const { series, x, width } = input;
  const layout = rideLayout(series, x, width);
  const chart = svg("svg", {
    class: "ride-chart",
    viewBox: `0 0 ${width} ${layout.height}`,
    width,
    height: layout.height,
    role: "img",
    "aria-label": `${series.map((one) => one.label).join(", ")} over ${input.axis}`,
    "data-samples": x.length,
  });

  const panels: Panel[] = [];
  series.forEach((one, position) => {
    const top = position * (layout.panelHeight + layout.titleHeight) + layout.titleHeight;
    const { domain, ticks } = panelDomain(one, layout.panelHeight);
    const toY = linearScale(one.inverted ? [domain[1], domain[0]] : domain, [top + layout.panelHeight, top + 6]);
    panels.push({ one, toY, top });
    chart.append(ridePanel({ one, toY, top }, ticks, x, layout));
  });

  const { margin, plotWidth, height, axisHeight, toX } = layout;
  chart.append(xAxis(input, toX, layout.xMax, height - axisHeight, margin.left, plotWidth));
  chart.append(crosshair(input, panels, toX, { left: margin.left, width: plotWidth, height: height - axisHeight }));
  return chart;
}

/** One series' panel and the y scale it is drawn on, its top the panel's plot's. */
interface Panel {
  one: Series;
  toY: (value: number) => number;
  top: number;
}

/** A panel: its title, its ticks inside the plot, the line (and area) through the samples drawn, and its peak. */
function ridePanel({ one, toY, top }: Panel, ticks: readonly number[], x: readonly number[], layout: RideLayout): SVGGElement {
  const { margin, plotWidth, panelHeight, toX } = layout;
  const group = svg("g", { class: "panel", "data-panel": one.key });
  group.append(svg("text", { class: "panel-title", x: margin.left, y: top - 8 }, [`${one.label} (${one.unit})`]));
  for (const tick of ticks) {
    const y = toY(tick);
    if (y < top + 2 || y > top + panelHeight + 0.5) continue;
    group.append(
      svg("line", { class: "grid", x1: margin.left, x2: margin.left + plotWidth, y1: y, y2: y }),
      svg("text", { class: "tick y-tick", x: margin.left - 6, y: y + 4, "text-anchor": "end" }, [one.format(tick)]),
    );
  }
  const clip = `clip-${one.key}`;
  group.append(svg("clipPath", { id: clip }, [svg("rect", { x: margin.left, y: top, width: plotWidth, height: panelHeight })]));
  const line = svg("g", { class: "series", "data-series": one.key, "clip-path": `url(#${clip})`, style: `--series: ${colors[one.key]}` });
  for (const segment of segments(layout.indices, one.values)) {
    const points = segment.map((index) => `${round(toX(x[index] ?? 0))},${round(toY(one.values[index] as number))}`);
    if (one.area && segment.length > 1) {
      const first = segment[0] as number;
      const last = segment[segment.length - 1] as number;
      const base = top + panelHeight;
      line.append(
        svg("polygon", {
          class: "area",
          points: `${round(toX(x[first] ?? 0))},${base} ${points.join(" ")} ${round(toX(x[last] ?? 0))},${base}`,
        }),
      );
    }
    line.append(svg("polyline", { class: "line", points: points.join(" ") }));
  }
  group.append(line);
  if (one.peak)
    group.append(
      peakMarker(one, one.peak, toX(x[one.peak.index] ?? 0), toY(one.peak.value), {
        left: margin.left,
        right: margin.left + plotWidth,
        top,
      }),
    );
  return group;
}

/** The peak's dot and its value on a pill above it (below when it is at the top), kept inside the plot. */
function peakMarker(
  one: Series,
  peak: NonNullable<Series["peak"]>,
  x: number,
  y: number,
  box: { left: number; right: number; top: number },
): SVGGElement {
  // Bold 12 px text is about 7 px a character: enough to size the pill without measuring.
  const width = peak.text.length * 7.4 + 14;
  const height = peakPillHeight;
  const left = Math.min(Math.max(x - width / 2, box.left + 2), box.right - width - 2);
  const above = y - box.top >= height + 8;
  const top = above ? y - height - 7 : y + 7;
  return svg(
    "g",
    { class: "peak", "data-peak": one.key, "data-value": peak.value, "data-index": peak.index, style: `--series: ${colors[one.key]}` },
    [
      svg("rect", { class: "peak-pill", x: left, y: top, width, height, rx: height / 2 }),
      svg("circle", { cx: x, cy: y, r: 4 }),
      svg("text", { class: "peak-label", x: left + width / 2, y: top + 13.5, "text-anchor": "middle" }, [peak.text]),
      title(peak.text),
    ],
  );
}

function xAxis(
  input: RideChartInput,
  toX: (value: number) => number,
  xMax: number,
  top: number,
  left: number,
  plotWidth: number,
): SVGGElement {
  const count = Math.max(2, Math.floor(plotWidth / 80));
  const distance = input.axis === "distance";
  const unitMeters = distance ? 1 / roadDistance(1, input.system) : 1;
  const ticks = distance ? ticksUpTo(xMax / unitMeters, count, []).map((value) => value * unitMeters) : ticksUpTo(xMax, count, timeSteps);
  const axis = svg("g", { class: "x-axis", "data-axis": input.axis });
  axis.append(svg("line", { class: "axis", x1: left, x2: left + plotWidth, y1: top, y2: top }));
  for (const tick of ticks) {
    const x = toX(tick);
    const label = distance ? distanceLabel(tick, input.system) : clock(tick);
    axis.append(
      svg("line", { class: "axis", x1: x, x2: x, y1: top, y2: top + 4 }),
      svg("text", { class: "tick x-tick", x, y: top + 17, "text-anchor": "middle" }, [label]),
    );
  }
  return axis;
}

/** Elapsed time on the axis: 0:00, 0:30, 1:00 (h:mm). */
function clock(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, "0")}`;
}

function crosshair(
  input: RideChartInput,
  panels: readonly Panel[],
  toX: (value: number) => number,
  area: { left: number; width: number; height: number },
): SVGGElement {
  const group = svg("g", { class: "crosshair" });
  const rule = svg("line", { class: "rule", y1: 0, y2: area.height, visibility: "hidden" });
  const dots = panels.map(({ one }) =>
    svg("circle", { class: "dot", r: 3.5, visibility: "hidden", style: `--series: ${colors[one.key]}` }),
  );
  const surface = svg("rect", { class: "surface", x: area.left, y: 0, width: area.width, height: area.height });
  const hide = (): void => {
    rule.setAttribute("visibility", "hidden");
    for (const dot of dots) dot.setAttribute("visibility", "hidden");
    input.onReadout(undefined);
  };
  surface.addEventListener("pointerleave", hide);
  surface.addEventListener("pointermove", (event) => {
    const box = surface.getBoundingClientRect();
    const position = area.left + ((event.clientX - box.left) / box.width) * area.width;
    const index = nearest(input.x, position, toX);
    const x = toX(input.x[index] ?? 0);
    rule.setAttribute("x1", String(x));
    rule.setAttribute("x2", String(x));
    rule.setAttribute("visibility", "visible");
    const parts = [input.axis === "distance" ? distanceLabel(input.x[index] ?? 0, input.system) : formatDuration(input.x[index] ?? 0)];
    panels.forEach(({ one, toY }, position) => {
      const value = one.values[index];
      const dot = dots[position];
      if (value === null || value === undefined || dot === undefined) {
        dot?.setAttribute("visibility", "hidden");
        return;
      }
      dot.setAttribute("cx", String(x));
      dot.setAttribute("cy", String(toY(value)));
      dot.setAttribute("visibility", "visible");
      parts.push(`${one.label} ${one.format(value)} ${one.unit}`);
    });
    input.onReadout(parts.join(" · "));
  });
  group.append(rule, ...dots, surface);
  return group;
}

/** The sample whose x is nearest the pointer's (binary search: x never decreases). */
function nearest(xs: readonly number[], position: number, toX: (value: number) => number): number {
  let low = 0;
  let high = xs.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (toX(xs[middle] ?? 0) < position) low = middle + 1;
    else high = middle;
  }
  if (low > 0 && Math.abs(toX(xs[low - 1] ?? 0) - position) < Math.abs(toX(xs[low] ?? 0) - position)) return low - 1;
  return low;
}
