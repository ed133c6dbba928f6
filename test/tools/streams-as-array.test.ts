import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { streamsAsArray } from "../../tools/get-activity-streams.ts";

/** Parse, add `type`, serialise: the reshaping spelled out. */
function viaParser(keyed: Record<string, unknown>): string {
  return JSON.stringify(Object.entries(keyed).map(([type, stream]) => ({ type, ...(stream as object) })));
}

// Field names like Strava's: never array indexes, which JavaScript objects would move to the front.
const stream = fc.dictionary(
  fc.string().filter((key) => !/^(0|[1-9][0-9]*)$/.test(key)),
  fc.jsonValue(),
);

describe("streamsAsArray", () => {
  it("reshapes any keyed answer exactly as parsing and re-serialising would, whatever its indentation", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), stream), fc.constantFrom(undefined, 2), (keyed, indent) => {
        expect(streamsAsArray(JSON.stringify(keyed, null, indent))).toBe(viaParser(keyed));
      }),
      { numRuns: 300 },
    );
  });

  it("keeps every value and Strava's field order; a number may be spelled the shortest way (1.50 as 1.5)", () => {
    const body = '{"time":{"data":[0,1.50,2e3],"series_type":"time"},"moving":{}}';
    expect(streamsAsArray(body)).toBe('[{"type":"time","data":[0,1.5,2000],"series_type":"time"},{"type":"moving"}]');
  });

  it("passes an array answer through and still reshapes an unexpected stream shape", () => {
    expect(streamsAsArray('[{"type":"time","data":[1]}]')).toBe('[{"type":"time","data":[1]}]');
    expect(streamsAsArray('{"time":[1,2]}')).toBe('[{"type":"time","data":[1,2]}]');
  });

  it("refuses a cut-off body and a body that is not a stream list", () => {
    expect(() => streamsAsArray('{"time":{"data":[1,2')).toThrow(SyntaxError);
    expect(() => streamsAsArray("42")).toThrow(/something other than a stream list/);
  });
});
