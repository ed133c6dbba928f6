/**
 * The ride chart's layout arithmetic, in Node (no DOM): its sizes by width and series, a panel's domain (room
 * above the best value for its label; pace to its 95th percentile in whole steps of time), and a line broken
 * where the recording has a gap.
 */
import { describe, expect, it } from "vitest";
import { paceDomain, panelDomain, rideLayout, segments } from "../../views/ride-layout.ts";
import type { Series } from "../../views/ride-data.ts";

const series = (key: Series["key"], values: Array<number | null>): Series => ({
  key,
  label: key,
  unit: "",
  values,
  peak: undefined,
  inverted: key === "pace",
  format: String,
  area: false,
});

describe("the ride chart's sizes (rideLayout)", () => {
  it("stacks a panel per series over the time axis, narrower on a phone, the x scale over the samples' span", () => {
    const wide = rideLayout([series("heartrate", [120, 130, 140]), series("altitude", [10, 20, 30])], [0, 10, 20], 800);
    expect({ height: wide.height, plotWidth: wide.plotWidth, margin: wide.margin, xMax: wide.xMax }).toEqual({
      height: 2 * (128 + 24) + 26,
      plotWidth: 800 - 48 - 16,
      margin: { left: 48, right: 16 },
      xMax: 20,
    });
    expect([wide.toX(0), wide.toX(20)]).toEqual([48, 48 + 736]);
    expect(wide.indices).toEqual([0, 1, 2]);
    const phone = rideLayout([series("heartrate", [120])], [0], 320);
    expect({ height: phone.height, plotWidth: phone.plotWidth, xMax: phone.xMax }).toEqual({
      height: 96 + 24 + 26,
      plotWidth: 270,
      xMax: 1,
    });
  });
});

describe("a panel's domain (panelDomain, paceDomain)", () => {
  it("keeps room above the highest value for the peak's label", () => {
    const { domain } = panelDomain(series("watts", [100, null, 300]), 128);
    expect(domain[0]).toBeLessThanOrEqual(100);
    expect(domain[1]).toBeGreaterThan(300 + (200 * 27) / 122 - 1);
  });

  it("draws pace to its 95th percentile in whole steps of time, a stop's slow pace left off the scale", () => {
    const paces = [...Array.from({ length: 40 }, (_, index) => 290 + index), 1200];
    const { domain, ticks } = panelDomain(series("pace", paces), 128);
    expect(domain[1]).toBeLessThan(1200);
    expect(ticks.every((tick) => tick % 15 === 0)).toBe(true);
    expect(paceDomain(240, 330)).toEqual({ domain: [240, 330], ticks: [240, 270, 300, 330] });
  });
});

describe("the runs a line is drawn through (segments)", () => {
  it("breaks the line where a sample has no value", () => {
    expect(segments([0, 1, 2, 3, 4, 5], [1, 2, null, 4, 5, null])).toEqual([
      [0, 1],
      [3, 4],
    ]);
  });
});
