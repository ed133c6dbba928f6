import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closingBracket, compactJson } from "../../tools/compact-json.ts";

/** Objects and arrays with awkward strings (quotes, backslashes, brackets, spaces) and numbers. */
const container = fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue()));

describe("compactJson", () => {
  it("gives JSON.stringify's compact form for any object or array, however it was indented", () => {
    fc.assert(
      fc.property(container, fc.constantFrom(undefined, 1, 2, "\t", " \r\n"), (value, indent) => {
        const compact = JSON.stringify(value);
        expect(compactJson(JSON.stringify(value, null, indent as string | number | undefined))).toBe(compact);
      }),
      { numRuns: 400 },
    );
  });

  it("rejects every proper prefix of a document: a cut-off body is never passed on", () => {
    fc.assert(
      fc.property(container, fc.nat(), (value, cut) => {
        const text = JSON.stringify(value, null, 1);
        const prefix = text.slice(0, cut % text.length);
        expect(() => compactJson(prefix)).toThrow(SyntaxError);
      }),
      { numRuns: 400 },
    );
  });

  it("keeps the digits of ids above 2^53 and the bytes of strings", () => {
    const body = '{ "id": 123456789012345678901, "name": "Tempo \\"run\\" {x} [y]\\\\", "n": 1.50 }\n';
    expect(compactJson(body)).toBe('{"id":123456789012345678901,"name":"Tempo \\"run\\" {x} [y]\\\\","n":1.50}');
  });

  it("returns an already compact body as the same string", () => {
    const body = '{"a":[1,2,{"b":"c d"}]}';
    expect(compactJson(body)).toBe(body);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<html><body>502 Bad Gateway</body></html>"],
    ["an unclosed string", '{"name":"Half a bo'],
    ["mismatched brackets", '{"a":[1,2}'],
    ["a stray closing bracket", '{"a":1}}'],
    ["two documents", '{"a":1}{"b":2}'],
    ["text after the document", '{"a":1} trailing'],
    ["a string after the document", '{"a":1} "b"'],
    ["text before the document", 'x{"a":1}'],
    ["a bare word", "undefined"],
  ])("throws SyntaxError for %s", (_what, body) => {
    expect(() => compactJson(body)).toThrow(SyntaxError);
  });

  it("checks top-level scalars with the full parser", () => {
    expect(compactJson(' "a b" ')).toBe('"a b"');
    expect(compactJson("42\n")).toBe("42");
    expect(() => compactJson('"open')).toThrow(SyntaxError);
  });

  it("closingBracket finds the matching bracket past strings, and gives up on text that never closes", () => {
    expect(closingBracket('{"a":"}]","b":[1,{}]},', 0)).toBe(20);
    expect(() => closingBracket('{"a":"open', 0)).toThrow(SyntaxError);
    expect(() => closingBracket('{"a":[1,2]', 0)).toThrow(SyntaxError);
  });
});
