/**
 * Where the ride chart puts things, as numbers: its panels' sizes by width, the x scale and the samples drawn,
 * each panel's value domain and ticks (room kept above the best value for its label; a pace axis in whole steps of
 * time), and the runs of samples a line is drawn through. Pure functions: no DOM, so they are tested in Node
 * (test/views/ride-layout.test.ts) and ride-chart.ts only places elements where these say.
 */
import { drawnIndices, type Series } from "./ride-data.ts";
import { fittedDomain, linearScale } from "./scales.ts";

/** The height of the pill that labels a panel's peak. */
export const peakPillHeight = 19;

/** The chart's sizes for `width` and its series, the x scale, and the samples drawn. */
export interface RideLayout {
  margin: { left: number; right: number };
  panelHeight: number;
  titleHeight: number;
  axisHeight: number;
  plotWidth: number;
  height: number;
  xMax: number;
  toX: (value: number) => number;
  indices: number[];
}

export function rideLayout(series: readonly Series[], x: readonly number[], width: number): RideLayout {
  const compact = width < 560;
  const margin = { left: compact ? 40 : 48, right: compact ? 10 : 16 };
  const panelHeight = compact ? 96 : 128;
  const titleHeight = 24;
  const axisHeight = 26;
  const plotWidth = Math.max(40, width - margin.left - margin.right);
  const xMax = x.length > 0 ? Math.max(x[x.length - 1] ?? 0, 1) : 1;
  return {
    margin,
    panelHeight,
    titleHeight,
    axisHeight,
    plotWidth,
    height: series.length * (panelHeight + titleHeight) + axisHeight,
    xMax,
    toX: linearScale([x[0] ?? 0, xMax], [margin.left, margin.left + plotWidth]),
    indices: drawnIndices(
      x.length,
      series.map((one) => one.values),
      Math.round(plotWidth),
    ),
  };
}

/** A panel's value domain and ticks: pace up to its 95th percentile in whole steps of time, the rest fitted with room above. */
export function panelDomain(one: Series, panelHeight: number): { domain: [number, number]; ticks: number[] } {
  const present = one.values.filter((value): value is number => value !== null);
  const low = Math.min(...present);
  const high = one.key === "pace" ? percentile(present, 0.95) : Math.max(...present);
  // Room above the best value for its label (peakMarker's pill and gap), so it sits over the peak rather than on the line.
  return one.key === "pace"
    ? paceDomain(low - (high - low) * 0.3, high)
    : fittedDomain(low, high, 3, (peakPillHeight + 8) / (panelHeight - 6));
}

/** A pace axis in whole steps of time (15 s, 30 s, a minute...), not decimal ones. */
export function paceDomain(fastest: number, slowest: number): { domain: [number, number]; ticks: number[] } {
  const step = [15, 30, 60, 120, 300, 600].find((candidate) => (slowest - fastest) / candidate <= 3) ?? 600;
  const low = Math.floor(fastest / step) * step;
  const high = Math.max(low + step, Math.ceil(slowest / step) * step);
  const ticks: number[] = [];
  for (let value = low; value <= high; value += step) ticks.push(value);
  return { domain: [low, high], ticks };
}

/** Runs of drawn indices with a value: a gap in the recording is a gap in the line. */
export function segments(indices: readonly number[], values: ReadonlyArray<number | null>): number[][] {
  const out: number[][] = [];
  let current: number[] = [];
  for (const index of indices) {
    if (values[index] === null || values[index] === undefined) {
      if (current.length > 0) out.push(current);
      current = [];
    } else current.push(index);
  }
  if (current.length > 0) out.push(current);
  return out;
}

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}
