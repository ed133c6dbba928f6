/**
 * Validators for Strava's response schemas, built from the official Swagger 2.0 description.
 *
 * Swagger 2.0 schemas are draft-04 JSON Schema plus a few extra keywords: `example`, `x-*` and
 * `discriminator` are stripped, Swagger's number formats (int64, float, double) are checked as formats.
 * Bodies are parsed with JSON.parse: ids above 2^53 lose digits that way but stay integers, which is all
 * a schema can check; the exact digits are checked separately on the raw text (see the tests).
 *
 * Two deliberate adjustments, both listed here:
 * - Nulls. Swagger 2.0 cannot say "nullable", yet Strava sends null for some fields (the API description's own
 *   examples show most of them). `nullableAsStravaSends` lists each (definition, property) the sandbox
 *   sends as null, and why; nothing else may be null.
 * - Completeness. Strava's API description has no `required` at all, so an empty object would pass. `validatorFor`
 *   can require every property a definition declares (minus named exceptions), to prove the sandbox's
 *   answers are complete, not merely well-typed.
 */
import { readFileSync } from "node:fs";
import ajvDraft04 from "ajv-draft-04";
import type { ValidateFunction } from "ajv";
import ajvFormats from "ajv-formats";

// Both are CommonJS modules with `exports.default`: the class and plugin sit on `.default` under
// Node's ESM loader, and may be the default import itself under a bundler's interop.
type AjvClass = typeof ajvDraft04.default;
type FormatsPlugin = typeof ajvFormats.default;
const Ajv: AjvClass = (ajvDraft04 as { default?: AjvClass }).default ?? (ajvDraft04 as unknown as AjvClass);
const addFormats: FormatsPlugin = (ajvFormats as { default?: FormatsPlugin }).default ?? (ajvFormats as unknown as FormatsPlugin);

type Schema = Record<string, unknown>;

export const nullableAsStravaSends: Record<string, Record<string, string>> = {
  SummaryActivity: {
    external_id: "null for manual activities (spec example of POST /activities)",
    upload_id: "null for manual activities (spec example of POST /activities)",
    workout_type: "null for sports without workout types (spec examples)",
    start_latlng: "null without GPS (spec example of GET /athlete/activities)",
    end_latlng: "null without GPS (spec example of GET /athlete/activities)",
    gear_id: "null when the activity has no gear (Strava's answers for gym sessions, swims, yoga)",
  },
  DetailedSegmentEffort: {
    kom_rank: "null outside the top 10 (spec examples)",
    pr_rank: "null when not a personal record (spec examples)",
  },
  PhotosSummary: {
    primary: "null when the activity has no photo (Strava's answers)",
  },
  Upload: {
    error: "null until processing fails (Strava's upload answers)",
    activity_id: "null until processing succeeds (Strava's upload answers)",
  },
  ClubActivity: {
    workout_type: "null for sports without workout types (spec example of GET /clubs/{id}/activities)",
  },
  SummaryClub: {
    cover_photo: "null when the club has no cover photo (Strava's answers)",
    cover_photo_small: "null when the club has no cover photo (Strava's answers)",
  },
};

export interface StravaSchemas {
  spec: Schema;
  /** The declared response schema of an operation, e.g. ("get", "/athlete/activities", "200"). */
  responseValidator(method: string, path: string, status: string): ValidateFunction;
  /** A definition's schema, optionally requiring every declared property except `optional`. */
  validatorFor(definition: string, options?: { complete?: boolean; optional?: string[] }): ValidateFunction;
  declaredProperties(definition: string): string[];
  /** Any other schema, able to $ref "strava.json#/definitions/X". */
  compile(schema: Schema): ValidateFunction;
}

export function loadStravaSchemas(swaggerPath: string): StravaSchemas {
  const spec = JSON.parse(readFileSync(swaggerPath, "utf8")) as Schema;
  const definitions = clean(spec["definitions"]) as Record<string, Schema>;
  for (const [definition, properties] of Object.entries(nullableAsStravaSends)) {
    const def = definitions[definition];
    if (!def) throw new Error(`Strava's API description has no definition ${definition}`);
    for (const property of Object.keys(properties)) allowNull(def, property, definition);
  }
  // Unknown keywords are errors (strictSchema); Swagger omits `type: "object"` beside `properties`, so strictTypes is off.
  const ajv = new Ajv({
    allErrors: true,
    strictSchema: true,
    strictNumbers: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
  });
  addFormats(ajv);
  ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat("int32", { type: "number", validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
  ajv.addFormat("float", { type: "number", validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat("double", { type: "number", validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat("binary", true);
  ajv.addSchema({ id: "strava.json", definitions }, "strava.json");

  const declared = (name: string): string[] => {
    const out = new Set<string>();
    const visit = (schema: Schema): void => {
      const ref = schema["$ref"];
      if (typeof ref === "string") return visit(definitions[ref.replace("#/definitions/", "")]!);
      for (const key of Object.keys((schema["properties"] as Schema | undefined) ?? {})) out.add(key);
      for (const part of (schema["allOf"] as Schema[] | undefined) ?? []) visit(part);
    };
    visit(definitions[name] ?? {});
    return [...out];
  };

  return {
    spec,
    responseValidator(method, path, status) {
      const paths = spec["paths"] as Record<string, Record<string, { responses: Record<string, { schema: Schema }> }>>;
      const response = paths[path]?.[method]?.responses[status];
      if (!response) throw new Error(`Strava's API description has no ${status} response for ${method.toUpperCase()} ${path}`);
      return ajv.compile(retarget(clean(response.schema)) as Schema);
    },
    validatorFor(definition, options = {}) {
      if (!definitions[definition]) throw new Error(`Strava's API description has no definition ${definition}`);
      const schema: Schema = { $ref: `strava.json#/definitions/${definition}` };
      if (!options.complete) return ajv.compile(schema);
      const required = declared(definition).filter((p) => !(options.optional ?? []).includes(p));
      return ajv.compile({ allOf: [schema, { required }] });
    },
    declaredProperties: declared,
    compile: (schema) => ajv.compile(schema),
  };
}

/** Drops what is not draft-04 JSON Schema: examples, vendor extensions, discriminators. */
function clean(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clean);
  if (typeof value !== "object" || value === null) return value;
  const out: Schema = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === "example" || key === "examples" || key === "discriminator" || key.startsWith("x-")) continue;
    out[key] = key === "properties" || key === "definitions" ? cleanMap(item as Schema) : clean(item);
  }
  return out;
}

function cleanMap(map: Schema): Schema {
  const out: Schema = {};
  for (const [name, schema] of Object.entries(map)) out[name] = clean(schema);
  return out;
}

/** "#/definitions/X" inside an operation's schema points into the registered definitions. */
function retarget(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(retarget);
  if (typeof value !== "object" || value === null) return value;
  const out: Schema = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = key === "$ref" && typeof item === "string" ? item.replace(/^#\//, "strava.json#/") : retarget(item);
  }
  return out;
}

function allowNull(def: Schema, property: string, definition: string): void {
  const holders = [def, ...((def["allOf"] as Schema[] | undefined) ?? [])];
  for (const holder of holders) {
    const properties = holder["properties"] as Record<string, Schema> | undefined;
    if (properties && properties[property]) {
      properties[property] = { anyOf: [properties[property], { type: "null" }] };
      return;
    }
  }
  throw new Error(`Strava's API description's ${definition} declares no property ${property}`);
}
