/**
 * Checks a tool's arguments against its schema before anything goes to the network, and explains the
 * first problem in terms a model can fix: the field, what it must be, and what it got.
 *
 * Both front ends call this through `runTool` because the OpenClaw host's direct invoke paths skip
 * schema validation, and MCP clients are free to send anything.
 */
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { Value, type ValueError } from "@sinclair/typebox/value";
import type { TObject, TSchema } from "@sinclair/typebox";

/** Arguments that cannot be sent. Its message goes to the caller as `Error: <message>`. */
export class ToolInputError extends Error {
  override readonly name = "ToolInputError";
}

/** Returns the arguments with defaults applied, or throws `ToolInputError`. */
export function validateArguments(toolName: string, schema: TObject, args: unknown): Record<string, unknown> {
  // No arguments at all is the same as an empty object (MCP clients omit `arguments` for get_athlete).
  const given = args === undefined || args === null ? {} : args;
  if (typeof given !== "object" || Array.isArray(given)) {
    throw new ToolInputError(`Invalid arguments for ${toolName}: expected an object of named parameters, got ${kindOf(given)}.`);
  }
  const withDefaults = withTopLevelDefaults(schema, given as Record<string, unknown>);
  // The compiled check answers the common case (valid arguments) in about a microsecond; the error
  // walk runs only to explain a failure.
  if (compiledCheck(schema).Check(withDefaults)) return withDefaults;
  const first = Value.Errors(schema, withDefaults).First();
  throw new ToolInputError(`Invalid arguments for ${toolName}: ${first ? explain(first, schema) : "they do not match the schema"}`);
}

const compiled = new WeakMap<TObject, TypeCheck<TObject>>();

function compiledCheck(schema: TObject): TypeCheck<TObject> {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

/**
 * A copy of the caller's arguments with each missing top-level parameter's default filled in; the
 * caller's object is never changed. Tool parameters put defaults only at the top level (a test holds
 * every tool to that), so nothing nested needs copying.
 */
function withTopLevelDefaults(schema: TObject, given: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...given };
  for (const key in schema.properties) {
    const fallback: unknown = schema.properties[key]?.default;
    if (fallback !== undefined && copy[key] === undefined) copy[key] = fallback;
  }
  return copy;
}

function explain(error: ValueError, root: TObject): string {
  // The path is a JSON Pointer: "/keys/0", with "/" and "~" in key names escaped as ~1 and ~0.
  const segments = error.path.split("/").slice(1).map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
  const field = segments.join(".") || "(arguments)";
  const topLevel = segments[0] ?? "";
  if (!(topLevel in root.properties) && topLevel !== "") {
    const allowed = Object.keys(root.properties);
    return `unknown parameter "${field}". ${allowed.length > 0 ? `Allowed: ${allowed.join(", ")}.` : "This tool takes no parameters."}`;
  }
  if (error.value === undefined) return `${field} is required: ${expectation(error.schema)}.`;
  return `${field} must be ${expectation(error.schema)}; got ${preview(error.value)}.`;
}

/** Describes what a schema accepts, in words ("an integer from 1 to 200"). */
function expectation(schema: TSchema): string {
  const description = typeof schema.description === "string" ? ` (${schema.description.replace(/\.$/, "")})` : "";
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(", ")}`;
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
      const { minLength, maxLength, pattern } = schema as { minLength?: number; maxLength?: number; pattern?: string };
      const limits: string[] = [];
      if (minLength) limits.push(`non-empty`);
      if (maxLength !== undefined) limits.push(`at most ${maxLength} characters`);
      if (pattern) limits.push("in the format described");
      return `a string${limits.length > 0 ? `, ${limits.join(", ")}` : ""}${description}`;
    }
    case "boolean":
      return "true or false";
    case "array": {
      const items = schema.items as TSchema | undefined;
      const unique = schema.uniqueItems ? ", without repeats" : "";
      const { minItems, maxItems } = schema as { minItems?: number; maxItems?: number };
      const count =
        minItems && maxItems !== undefined ? `, ${minItems} to ${maxItems} of them` : maxItems !== undefined ? `, at most ${maxItems}` : minItems ? `, at least ${minItems}` : "";
      return `a list${items ? ` of ${expectation(items)}` : ""}${unique}${count}`;
    }
    case "object":
      return "an object";
    default:
      return "a valid value";
  }
}

function preview(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value);
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return String(value);
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return "a string";
  return typeof value;
}
