/**
 * JSON serialisation that writes bigint values as exact digits.
 *
 * Strava's segment-effort ids exceed 2^53: a JavaScript number cannot hold them, and JSON.stringify
 * refuses bigint. The sandbox stores such ids as bigint and this writer puts their digits into the body
 * unchanged, as Strava does, so that clients which corrupt big ids are caught by our tests.
 */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | bigint
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue | undefined };

export function serializeJson(value: JsonValue): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return value.toString();
    case "object":
      if (value === null) return "null";
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ",";
          out += serializeJson(value[i] as JsonValue);
        }
        return out + "]";
      }
      return serializeObject(value as { readonly [key: string]: JsonValue | undefined });
    default:
      throw new TypeError(`serializeJson: unsupported value of type ${typeof value}`);
  }
}

function serializeObject(value: { readonly [key: string]: JsonValue | undefined }): string {
  let out = "{";
  let first = true;
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item === undefined) continue;
    if (!first) out += ",";
    first = false;
    out += JSON.stringify(key) + ":" + serializeJson(item);
  }
  return out + "}";
}
