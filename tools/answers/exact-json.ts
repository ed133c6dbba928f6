/**
 * Parsing Strava's JSON into values that can be reshaped and written back with every number exactly
 * as Strava wrote it.
 *
 * Why: segment-effort ids exceed 2^53, so `JSON.stringify(JSON.parse(body))` silently changes their
 * digits. Node 24's JSON.parse gives a reviver each primitive's source text, and `JSON.rawJSON` lets
 * JSON.stringify write that text back verbatim: a number whose text would not come back the same
 * (a big id, or `1.10`) is kept as its source text; every other value is an ordinary JavaScript value.
 * Strings are decoded and re-encoded by JSON.stringify: the same string, perhaps escaped differently.
 */

/** A number kept as Strava's text (`JSON.rawJSON`); JSON.stringify writes the text unchanged. */
export interface RawJsonNumber {
  readonly rawJSON: string;
}

/** A JSON value as `parseExact` returns it. */
export type ExactJson = null | boolean | number | string | RawJsonNumber | ExactJson[] | { [key: string]: ExactJson };

// Both are in Node 24 (V8 12) but not yet in TypeScript's lib declarations.
type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;
const parseWithContext = JSON.parse as (text: string, reviver: Reviver) => unknown;
const rawJSON = (JSON as unknown as { rawJSON(text: string): RawJsonNumber }).rawJSON;

/** JSON.parse, except that a number whose text JSON.stringify would not reproduce stays as that text. */
export function parseExact(text: string): ExactJson {
  return parseWithContext(text, (_key, value, context) =>
    typeof value === "number" && context?.source !== undefined && String(value) !== context.source ? rawJSON(context.source) : value,
  ) as ExactJson;
}

/** True for an object parsed from JSON (not an array, not a kept number, not null). */
export function isJsonObject(value: ExactJson | undefined): value is { [key: string]: ExactJson } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !isRawJsonNumber(value);
}

export function isRawJsonNumber(value: unknown): value is RawJsonNumber {
  return (JSON as unknown as { isRawJSON(value: unknown): boolean }).isRawJSON(value);
}
