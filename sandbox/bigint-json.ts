/**
 * JSON serialisation that writes bigint values as exact digits.
 *
 * Strava's segment-effort ids exceed 2^53: a JavaScript number cannot hold them, and JSON.stringify
 * refuses bigint. The sandbox stores such ids as bigint and writes their digits into the body unchanged
 * (`JSON.rawJSON`), as Strava does, so that clients which corrupt big ids are caught by our tests.
 */
export type JsonValue =
  null | boolean | number | string | bigint | readonly JsonValue[] | { readonly [key: string]: JsonValue | undefined };

// In Node 24 (V8 12) but not yet in TypeScript's lib declarations.
const rawJSON = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

export function serializeJson(value: JsonValue): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? rawJSON(item.toString()) : item));
}
