/**
 * Generators of malformed tool arguments for property-based tests, with what the error must name.
 * Each case starts from arguments that are valid for the tool and breaks exactly one thing: the whole
 * value, one unknown key, one parameter's type or range, or one required parameter left out.
 */
import fc from "fast-check";
import type { TSchema } from "@sinclair/typebox";
import { toolTable } from "../../tools/table.ts";
import type { ToolDefinition } from "../../tools/definition/tool-definition.ts";

/** Arguments each tool accepts (the ids need not exist: validation runs before the network). */
export const validArguments: Record<string, Record<string, unknown>> = {
  get_activities: { per_page: 10, page: 1 },
  get_activity_by_id: { id: 1 },
  create_activity: { name: "Run", sport_type: "Run", start_date_local: "2026-11-21T10:00:00", elapsed_time: 600 },
  update_activity: { id: 1, name: "New title" },
  get_activity_zones: { id: 1 },
  get_athlete: {},
  get_athlete_stats: { id: 1 },
  get_activity_streams: { id: 1, keys: ["time"] },
  get_club_activities: { id: 1 },
  create_upload: { file: "AAEC", data_type: "fit" },
  get_upload: { id: 1 },
};

export interface BadCase {
  tool: ToolDefinition;
  args: unknown;
  /** A word the error message must contain (the field, or "object" for a non-object). */
  mustMention: string;
}

const notAnObject = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.array(fc.anything(), { maxLength: 3 }));

/** A value that the given schema rejects. */
function wrongValueFor(schema: TSchema): fc.Arbitrary<unknown> {
  const others = fc.oneof(fc.constant(null), fc.object({ maxDepth: 1 }), fc.array(fc.integer(), { maxLength: 3 }));
  if (Array.isArray(schema.enum)) {
    const allowed = new Set(schema.enum as unknown[]);
    return fc.oneof(
      fc.string().filter((value) => !allowed.has(value)),
      fc.integer(),
      fc.boolean(),
      others,
    );
  }
  switch (schema.type) {
    case "integer": {
      const { minimum = -Infinity, maximum = Infinity } = schema as { minimum?: number; maximum?: number };
      return fc.oneof(
        fc.string(),
        fc.boolean(),
        fc.double({ noNaN: false }).filter((value) => !Number.isInteger(value)),
        Number.isFinite(minimum) ? fc.integer({ min: -1e9, max: minimum - 1 }) : fc.constant("x"),
        Number.isFinite(maximum) ? fc.double({ min: maximum + 1, max: maximum * 4 + 10, noNaN: true }) : fc.constant("x"),
        others,
      );
    }
    case "number": {
      const { minimum = -Infinity } = schema as { minimum?: number };
      return fc.oneof(
        fc.string(),
        fc.boolean(),
        Number.isFinite(minimum) ? fc.double({ max: minimum - 0.5, noNaN: true }) : fc.constant("x"),
        others,
      );
    }
    case "string": {
      const { minLength = 0 } = schema as { minLength?: number };
      return fc.oneof(fc.integer(), fc.boolean(), minLength > 0 ? fc.constant("") : fc.constant(7), others);
    }
    case "boolean":
      return fc.oneof(fc.string(), fc.integer(), fc.constant("true"), others);
    case "array":
      return fc.oneof(fc.string(), fc.integer(), fc.constant([["nested"]]), fc.constant(["not-a-stream"]), fc.constant({}));
    default:
      return others;
  }
}

/** One malformed call to any tool of the table. */
export function badCall(): fc.Arbitrary<BadCase> {
  return fc.constantFrom(...toolTable).chain((tool) => {
    const valid = validArguments[tool.name] ?? {};
    const properties = tool.parameters.properties as Record<string, TSchema>;
    const names = Object.keys(properties);
    const required = (tool.parameters.required as string[] | undefined) ?? [];
    const strategies: Array<fc.Arbitrary<BadCase>> = [
      notAnObject.map((args) => ({ tool, args, mustMention: "object" })),
      fc
        .string({ minLength: 1, maxLength: 12 })
        .filter((key) => !names.includes(key) && !["__proto__", "constructor", "prototype"].includes(key))
        .map((key) => ({ tool, args: { ...valid, [key]: 1 }, mustMention: key })),
    ];
    if (names.length > 0) {
      strategies.push(
        fc
          .constantFrom(...names)
          .chain((name) =>
            wrongValueFor(properties[name] as TSchema).map((value) => ({ tool, args: { ...valid, [name]: value }, mustMention: name })),
          ),
      );
    }
    if (required.length > 0) {
      strategies.push(
        fc.constantFrom(...required).map((name) => {
          const args: Record<string, unknown> = { ...valid };
          delete args[name];
          return { tool, args, mustMention: name };
        }),
      );
    }
    return fc.oneof(...strategies);
  });
}
