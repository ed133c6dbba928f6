/**
 * Axis arithmetic for the charts: linear scales and "nice" tick values (1, 2, 2.5 or 5 times a power of
 * ten; whole minutes and hours for time). Pure functions: no DOM.
 */

export type Scale = (value: number) => number;

/** Maps [d0, d1] onto [r0, r1]; a flat domain maps to the middle of the range. */
export function linearScale([d0, d1]: readonly [number, number], [r0, r1]: readonly [number, number]): Scale {
  const span = d1 - d0;
  if (span === 0) return () => (r0 + r1) / 2;
  return (value) => r0 + ((value - d0) / span) * (r1 - r0);
}

/** A step near `span / count` that is 1, 2, 2.5 or 5 times a power of ten. */
export function niceStep(span: number, count: number): number {
  if (!(span > 0) || count < 1) return 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

/** The domain widened to whole steps and the ticks inside it, about `count` of them. */
export function niceDomain(min: number, max: number, count: number): { domain: [number, number]; ticks: number[] } {
  if (min === max) {
    const pad = Math.abs(min) > 0 ? Math.abs(min) * 0.1 : 1;
    return niceDomain(min - pad, max + pad, count);
  }
  const step = niceStep(max - min, count);
  const low = Math.floor(min / step) * step;
  const high = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let value = low; value <= high + step / 1e6; value += step) ticks.push(Number(value.toPrecision(12)));
  return { domain: [low, high], ticks };
}

/**
 * A domain that fits the data: from the nice step at or below `min` to just above `max`, leaving `topShare` of the
 * height free over `max` (room for a label on the peak) rather than rounding up to a whole step, which can
 * leave a quarter of a panel empty; ticks are the whole steps inside it.
 */
export function fittedDomain(min: number, max: number, count: number, topShare: number): { domain: [number, number]; ticks: number[] } {
  if (min === max) return niceDomain(min, max, count);
  const step = niceStep(max - min, count);
  const low = Math.floor(min / step) * step;
  const share = Math.min(0.9, Math.max(0, topShare));
  const high = (max - share * low) / (1 - share);
  const ticks: number[] = [];
  for (let value = low; value <= high + step / 1e6; value += step) ticks.push(Number(value.toPrecision(12)));
  return { domain: [low, high], ticks };
}

/** Ticks from 0 to `max` that are whole numbers of a readable step, about `count` of them. */
export function ticksUpTo(max: number, count: number, steps: readonly number[]): number[] {
  const step = steps.find((candidate) => max / candidate <= count) ?? niceStep(max, count);
  const ticks: number[] = [];
  for (let value = 0; value <= max + 1e-9; value += step) ticks.push(value);
  return ticks;
}

/** Readable steps of elapsed time, in seconds: minutes, quarter hours, hours. */
export const timeSteps = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400] as const;
