/**
 * Checks a tool's arguments against its schema before anything goes to the network, and explains the
 * first problem in terms a model can fix: the field, what it must be, and what it got.
 *
 * Both front ends call this through `runTool` because the OpenClaw host's direct invoke paths skip
 * schema validation, and MCP clients are free to send anything.
 */
import type { TObject } from "@sinclair/typebox";
import { describeValue, schemaViolations, type SchemaViolation } from "../../common/schema-check.ts";
import { NamedError } from "../../common/named-error.ts";

/** Arguments that cannot be sent. Its message goes to the caller as `Error: <message>`. */
export class ToolInputError extends NamedError {}

/** Returns the arguments with defaults applied, or throws `ToolInputError`. */
export function validateArguments(toolName: string, schema: TObject, args: unknown): Record<string, unknown> {
  // No arguments at all is the same as an empty object (MCP clients omit `arguments` for get_athlete).
  const given = args === undefined || args === null ? {} : args;
  if (typeof given !== "object" || Array.isArray(given)) {
    throw new ToolInputError(`Invalid arguments for ${toolName}: expected an object of named parameters, got ${kindOf(given)}.`);
  }
  const withDefaults = withTopLevelDefaults(schema, given as Record<string, unknown>);
  const [problem] = schemaViolations(schema, withDefaults, 1);
  if (problem === undefined) return withDefaults;
  throw new ToolInputError(`Invalid arguments for ${toolName}: ${explain(problem, schema)}`);
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

function explain(problem: SchemaViolation, root: TObject): string {
  const field = problem.field || "(arguments)";
  const topLevel = problem.path[0];
  if (topLevel !== undefined && !(topLevel in root.properties)) {
    const allowed = Object.keys(root.properties);
    return `unknown parameter "${field}". ${allowed.length > 0 ? `Allowed: ${allowed.join(", ")}.` : "This tool takes no parameters."}`;
  }
  if (problem.missing) return `${field} is required: ${problem.expected}.`;
  return `${field} must be ${problem.expected}; got ${describeValue(problem.value)}.`;
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return "a string";
  return typeof value;
}
