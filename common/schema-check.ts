/**
 * Checks a value against a TypeBox schema and says what is wrong in words a caller can act on: the field,
 * what it must be, and the value given. The core's tool arguments and the voice API's request body and
 * model answer are checked this way; each caller writes its own sentence around these pieces.
 */
import { FormatRegistry, Kind, Type, TypeRegistry, type SchemaOptions, type TSchema, type TUnsafe } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { isValidTimeZone } from "./time-zone.ts";

/**
 * A string limited to a list, written as a plain JSON Schema `enum` (what MCP clients and the OpenClaw host
 * show best, where TypeBox's own form is a union of literals) and checked through this registered kind.
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, [Kind]: "StringEnum", type: "string", enum: [...values] });
}

TypeRegistry.Set("StringEnum", (schema: { enum: readonly string[] }, value) => typeof value === "string" && schema.enum.includes(value));

/** String formats our schemas use (`Type.String({ format })`), with the words that describe each in an error. */
const FORMAT_WORDS = new Map<string, string>();

function defineFormat(name: string, words: string, check: (value: string) => boolean): void {
  FormatRegistry.Set(name, check);
  FORMAT_WORDS.set(name, words);
}

defineFormat("not-blank", "that is not blank", (value) => value.trim() !== "");
defineFormat("iana-time-zone", "naming an IANA time zone such as Europe/Berlin", isValidTimeZone);

/** One way a value breaks its schema. */
export interface SchemaViolation {
  /** Path to the offending value (["keys", "0"]); empty for the value as a whole. */
  path: string[];
  /** The path joined with dots ("keys.0"), as messages name a field. */
  field: string;
  /** A required property is absent. */
  missing: boolean;
  /** What the schema accepts there, in words ("an integer from 1 to 200"). */
  expected: string;
  /** The value given; undefined when missing. */
  value: unknown;
}

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

function compiledCheck(schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

/** The ways `value` breaks `schema`, in schema order, at most `limit` of them; [] when it conforms. */
export function schemaViolations(schema: TSchema, value: unknown, limit = Number.POSITIVE_INFINITY): SchemaViolation[] {
  // The compiled check answers the common case (a valid value); the slower error walk runs only to explain
  // a failure.
  const check = compiledCheck(schema);
  if (check.Check(value)) return [];
  const found: SchemaViolation[] = [];
  for (const error of check.Errors(value)) {
    if (found.length >= limit) break;
    // The path is a JSON Pointer: "/keys/0", with "/" and "~" in key names escaped as ~1 and ~0.
    const path = error.path
      .split("/")
      .slice(1)
      .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
    found.push({
      path,
      field: path.join("."),
      missing: error.value === undefined,
      expected: expectation(error.schema),
      value: error.value,
    });
  }
  if (found.length === 0) found.push({ path: [], field: "", missing: false, expected: "a value that matches the schema", value });
  return found;
}

/** Describes what a schema accepts, in words ("an integer from 1 to 200", "0 (off) or an integer from 1024 to 24000"). */
function expectation(schema: TSchema): string {
  const description = typeof schema.description === "string" ? ` (${schema.description.replace(/\.$/, "")})` : "";
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(", ")}`;
  if (schema.const !== undefined) return `${JSON.stringify(schema.const)}${description}`;
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as TSchema[]).map(expectation).join(" or ");
  switch (schema.type) {
    case "integer":
    case "number": {
      const noun = schema.type === "integer" ? "an integer" : "a number";
      const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
      if (minimum !== undefined && maximum !== undefined) return `${noun} from ${minimum} to ${maximum}${description}`;
      if (minimum !== undefined) return `${noun} of at least ${minimum}${description}`;
      return `${noun}${description}`;
    }
    case "string": {
      const { minLength, maxLength, pattern, format } = schema as {
        minLength?: number;
        maxLength?: number;
        pattern?: string;
        format?: string;
      };
      const formatWords = format === undefined ? "" : ` ${FORMAT_WORDS.get(format) ?? `in the ${format} format`}`;
      const limits: string[] = [];
      if (minLength) limits.push(`non-empty`);
      if (maxLength !== undefined) limits.push(`at most ${maxLength} characters`);
      if (pattern) limits.push("in the format described");
      return `a string${formatWords}${limits.length > 0 ? `, ${limits.join(", ")}` : ""}${description}`;
    }
    case "boolean":
      return "true or false";
    case "null":
      return "null";
    case "array": {
      const items = schema.items as TSchema | undefined;
      const unique = schema.uniqueItems ? ", without repeats" : "";
      const { minItems, maxItems } = schema as { minItems?: number; maxItems?: number };
      const count =
        minItems && maxItems !== undefined
          ? `, ${minItems} to ${maxItems} of them`
          : maxItems !== undefined
            ? `, at most ${maxItems}`
            : minItems
              ? `, at least ${minItems}`
              : "";
      return `a list${items ? ` (each item ${expectation(items)})` : ""}${unique}${count}`;
    }
    case "object":
      return "an object";
    default:
      return "a valid value";
  }
}

/** A value as an error message shows it: strings quoted and cut at 60 characters, a short list whole, a longer one by its length. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value);
  if (Array.isArray(value)) {
    const whole = JSON.stringify(value);
    return whole.length <= 80 ? whole : `a list of ${value.length}`;
  }
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return String(value);
}
