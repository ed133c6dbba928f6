/**
 * Streams reduced for a model, on generated data of any shape: one index set for every stream, within
 * the limit and close to it, first and last and every numeric stream's extremes kept; summaries equal
 * to the same figures computed plainly from every sample.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keptIndices } from "../../tools/streams/stream-downsampling.ts";
import { reduceStreams, resolutionLimits } from "../../tools/streams/stream-reduction.ts";
import { summarizeStream } from "../../tools/streams/stream-summary.ts";
import { UpstreamBodyError } from "../../common/upstream/upstream-errors.ts";

const numbers = (length: number) =>
  fc.array(fc.oneof({ weight: 20, arbitrary: fc.integer({ min: -500, max: 2_000 }) }, { weight: 1, arbitrary: fc.constant(null) }), {
    minLength: length,
    maxLength: length,
  });

/** A coordinate as JSON can carry it (JSON has no -0). */
const coordinate = (limit: number) =>
  fc.double({ min: -limit, max: limit, noNaN: true }).map((value) => (Object.is(value, -0) ? 0 : value));

/** `actual` is `expected` rounded to `digits` decimals (half a unit of the last digit apart at most). */
function roundedFrom(actual: unknown, expected: number, digits: number): void {
  expect(typeof actual).toBe("number");
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(0.5 * 10 ** -digits + 1e-9);
}

/** A Strava-shaped keyed answer of `length` samples: time, two numeric streams, latlng and moving. */
const keyedAnswer = fc.integer({ min: 1, max: 3_000 }).chain((length) =>
  fc.record({
    length: fc.constant(length),
    heartrate: numbers(length),
    watts: numbers(length),
    latlng: fc.array(fc.tuple(coordinate(90), coordinate(180)), { minLength: length, maxLength: length }),
    moving: fc.array(fc.boolean(), { minLength: length, maxLength: length }),
  }),
);

function keyedText(answer: { length: number; heartrate: unknown[]; watts: unknown[]; latlng: unknown[]; moving: unknown[] }): string {
  const meta = { series_type: "time", original_size: answer.length, resolution: "high" };
  const time = Array.from({ length: answer.length }, (_, index) => index * 2);
  return JSON.stringify({
    time: { data: time, ...meta },
    heartrate: { data: answer.heartrate, ...meta },
    watts: { data: answer.watts, ...meta },
    latlng: { data: answer.latlng, ...meta },
    moving: { data: answer.moving, ...meta },
  });
}

const numericOnly = (values: readonly unknown[]): number[] => values.filter((value): value is number => typeof value === "number");

describe("keptIndices", () => {
  it("keeps every sample when there are no more than the limit", () => {
    expect(keptIndices([[1, 2, 3]], 3, 100)).toEqual([0, 1, 2]);
  });

  it("is ascending, within the limit and close to it, with first, last and each stream's extremes", () => {
    fc.assert(
      fc.property(keyedAnswer, fc.constantFrom(...Object.values(resolutionLimits)), (answer, limit) => {
        const series = [answer.heartrate, answer.watts, answer.latlng, answer.moving];
        const kept = keptIndices(series, answer.length, limit);
        expect(kept.length).toBe(Math.min(limit, answer.length));
        expect(kept.every((index, k) => k === 0 || index > kept[k - 1]!)).toBe(true);
        expect(kept[0]).toBe(0);
        expect(kept.at(-1)).toBe(answer.length - 1);
        for (const values of [answer.heartrate, answer.watts]) {
          const all = numericOnly(values);
          const picked = numericOnly(kept.map((index) => values[index]));
          if (all.length === 0) continue;
          expect(Math.max(...picked)).toBe(Math.max(...all));
          expect(Math.min(...picked)).toBe(Math.min(...all));
        }
      }),
      { numRuns: 60 },
    );
  });

  it("fills to exactly the limit when the evenly spaced samples must take over half of those left", () => {
    // fast-check's seed -1431775929 shrank to this: 1,001 samples whose numeric streams never decrease
    // (zeros and gaps), so no stream chooses peaks and the even fill alone picked 999 of 1,000.
    const zeros = Array.from({ length: 1_001 }, (_, index) => (index % 37 === 15 ? null : 0));
    const pairs = Array.from({ length: 1_001 }, () => [0, 0]);
    const stopped = Array.from({ length: 1_001 }, () => false);
    expect(keptIndices([zeros, zeros, pairs, stopped], 1_001, 1_000)).toHaveLength(1_000);
    // The same shortfall hit every length up to twice the limit (a GPS-only activity, a flat trainer
    // ride): every length from just over the limit to twelve times it, at each resolution's limit.
    for (const limit of Object.values(resolutionLimits)) {
      const lengths =
        limit === resolutionLimits.low
          ? Array.from({ length: 11 * limit }, (_, k) => limit + 1 + k)
          : [limit + 1, 1.5 * limit, 2 * limit - 2, 2 * limit - 1, 2 * limit, 3 * limit];
      for (const length of lengths) {
        const kept = keptIndices([Array(length).fill(0), Array.from({ length }, () => [0, 0])], length, limit);
        expect(kept, `${length} samples at a limit of ${limit}`).toHaveLength(limit);
        expect(new Set(kept).size).toBe(limit);
        expect([kept[0], kept.at(-1)]).toEqual([0, length - 1]);
        expect(kept.every((index, k) => k === 0 || index > kept[k - 1]!)).toBe(true);
      }
    }
  });

  it("keeps a lone sprint in a long flat ride at every resolution", () => {
    const watts = Array.from({ length: 21_600 }, (_, index) => (index === 12_345 ? 1_000 : 180 + (index % 7)));
    for (const limit of Object.values(resolutionLimits)) expect(keptIndices([watts], watts.length, limit)).toContain(12_345);
  });
});

describe("reduceStreams", () => {
  it("resolution: every stream keeps the samples of the same instants, and says the level applied", () => {
    fc.assert(
      fc.property(keyedAnswer, fc.constantFrom("low", "medium", "high") as fc.Arbitrary<"low" | "medium" | "high">, (answer, level) => {
        const reduced = JSON.parse(reduceStreams(keyedText(answer), { resolution: level })) as Array<{
          type: string;
          data: unknown[];
          original_size: number;
          resolution: string;
        }>;
        const time = reduced.find((stream) => stream.type === "time")!.data as number[];
        const source = { heartrate: answer.heartrate, watts: answer.watts, latlng: answer.latlng, moving: answer.moving } as Record<
          string,
          unknown[]
        >;
        for (const stream of reduced) {
          expect(stream.resolution).toBe(level);
          expect(stream.original_size).toBe(answer.length);
          expect(stream.data).toHaveLength(time.length);
          if (stream.type === "time") continue;
          stream.data.forEach((value, k) => expect(value).toEqual(source[stream.type]![time[k]! / 2]));
        }
      }),
      { numRuns: 40 },
    );
  });

  it("resolution low on a 150-sample GPS track (time and latlng only): 100 samples per stream", () => {
    const meta = { series_type: "time", original_size: 150, resolution: "high" };
    const text = JSON.stringify({
      time: { data: Array.from({ length: 150 }, (_, index) => index), ...meta },
      latlng: { data: Array.from({ length: 150 }, (_, index) => [40 + index / 1e4, -105]), ...meta },
    });
    const reduced = JSON.parse(reduceStreams(text, { resolution: "low" })) as Array<{ type: string; data: unknown[] }>;
    expect(reduced.map((stream) => [stream.type, stream.data.length])).toEqual([
      ["time", 100],
      ["latlng", 100],
    ]);
  });

  it("summary: replaces data with the summary, or sits beside a resolution's data", () => {
    const text = keyedText({
      length: 4,
      heartrate: [100, 110, 120, 130],
      watts: [0, 200, 220, 0],
      latlng: [
        [1, 2],
        [1.5, 2.5],
        [2, 2],
        [1, 3],
      ],
      moving: [true, true, false, true],
    });
    const summaryOnly = JSON.parse(reduceStreams(text, { summary: true })) as Array<Record<string, unknown>>;
    expect(summaryOnly.map((stream) => Object.keys(stream))).toEqual(
      Array(5).fill(["type", "summary", "series_type", "original_size", "resolution"]),
    );
    const both = JSON.parse(reduceStreams(text, { summary: true, resolution: "low" })) as Array<Record<string, unknown>>;
    expect(both.map((stream) => Object.keys(stream))).toEqual(
      Array(5).fill(["type", "data", "summary", "series_type", "original_size", "resolution"]),
    );
  });

  it("reads an array answer too, and refuses one that is not a stream list or has a stream without data", () => {
    const reduced = JSON.parse(reduceStreams('[{"type":"time","data":[0,1],"series_type":"time"}]', { resolution: "low" })) as unknown;
    expect(reduced).toEqual([{ type: "time", data: [0, 1], series_type: "time", resolution: "low" }]);
    expect(() => reduceStreams("42", { summary: true })).toThrow(UpstreamBodyError);
    expect(() => reduceStreams('{"time":{"series_type":"time"}}', { summary: true })).toThrow(/time stream has no data list/);
    expect(() => reduceStreams('{"time":{"data":[1,2', { summary: true })).toThrow(SyntaxError);
  });
});

describe("summarizeStream equals the figures computed plainly from every sample", () => {
  const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

  it("min, max, mean and half means of numeric streams, with gaps counted as missing", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 500 }).chain((length) => numbers(length)),
        (values) => {
          const summary = summarizeStream("heartrate", values, undefined, new Map());
          const half = Math.floor(values.length / 2);
          const all = numericOnly(values);
          const first = numericOnly(values.slice(0, half));
          const second = numericOnly(values.slice(half));
          expect(summary["min"]).toBe(all.length > 0 ? Math.min(...all) : null);
          expect(summary["max"]).toBe(all.length > 0 ? Math.max(...all) : null);
          if (all.length > 0) roundedFrom(summary["mean"], mean(all), 2);
          if (first.length > 0) roundedFrom(summary["first_half_mean"], mean(first), 2);
          if (second.length > 0) roundedFrom(summary["second_half_mean"], mean(second), 2);
          expect(summary["missing"]).toBe(all.length < values.length ? values.length - all.length : undefined);
        },
      ),
    );
  });

  it("watts: best window means, weighted mean (30 s rolling, 4th power), work and coasting share", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1_200 }), { minLength: 60, maxLength: 900 }), (watts) => {
        const summary = summarizeStream("watts", watts, undefined, new Map());
        const peaks = summary["peak_means"] as Record<string, number | null>;
        for (const window of [5, 60, 300]) {
          let best: number | null = null;
          for (let start = 0; start + window <= watts.length; start++) {
            const value = mean(watts.slice(start, start + window));
            if (best === null || value > best) best = value;
          }
          if (best === null) expect(peaks[`${window}s`]).toBeNull();
          else roundedFrom(peaks[`${window}s`], best, 1);
        }
        const rolling: number[] = [];
        for (let end = 29; end < watts.length; end++) rolling.push(mean(watts.slice(end - 29, end + 1)));
        roundedFrom(summary["weighted_mean"], mean(rolling.map((value) => value ** 4)) ** 0.25, 1);
        roundedFrom(summary["work_kj"], watts.reduce((sum, value) => sum + value, 0) / 1000, 1);
        roundedFrom(summary["zero_share"], watts.filter((value) => value === 0).length / watts.length, 4);
      }),
      { numRuns: 40 },
    );
  });

  it("heart rate: decoupling against watts is the drop of output per beat from the first half to the second", () => {
    const heartrate = [120, 120, 130, 130];
    const watts = [200, 200, 200, 200];
    const summary = summarizeStream("heartrate", heartrate, undefined, new Map([["watts", watts]]));
    // Efficiency 200/120 then 200/130: (1.6667 - 1.5385) / 1.6667 = 7.7 %.
    expect(summary["decoupling_percent"]).toBe(7.7);
    expect(summary["decoupling_against"]).toBe("watts");
  });

  it("moving: shares of samples moving, and seconds moving by the time stream", () => {
    const summary = summarizeStream("moving", [true, false, true, true], [0, 5, 6, 10], new Map());
    expect(summary).toMatchObject({ min: false, max: true, mean: 0.75, first_half_mean: 0.5, second_half_mean: 1, moving_time: 5 + 4 + 1 });
  });

  it("latlng: bounding box, centroids, start and end", () => {
    const summary = summarizeStream("latlng", [[40, -105], [40.2, -105.3], [39.9, -105.1], null], undefined, new Map());
    expect(summary).toMatchObject({ min: [39.9, -105.3], max: [40.2, -105], start: [40, -105], end: [39.9, -105.1], missing: 1 });
    expect(summary["first_half_mean"]).toEqual([40.1, -105.15]);
  });
});
