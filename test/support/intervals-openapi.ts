/**
 * intervals.icu's OpenAPI description for the contract tests, and validators built from it. The description is
 * not part of this repository (it is intervals.icu's, kept beside the project): it is found by the rule every
 * upstream's description follows (test/support/api-descriptions.ts: INTERVALS_OPENAPI_SPEC, else
 * ../shared/intervals-openapi/ beside the checkout). Without it the tests that need it are skipped, and the run
 * says so once.
 *
 * How the OpenAPI 3.0 schemas are read, and the three adjustments made, all deliberate:
 * - Nulls. The description marks nothing `nullable`, yet intervals.icu's answers carry nulls for values they
 *   lack (its own `fields` parameter "also excludes null values"). Every property may be null; nothing else
 *   may (an answer, an array item).
 * - Closed objects. No schema forbids extra properties; here every object does, so an invented field name fails.
 * - `oneOf` is read as `anyOf`: GET /activity/{id} answers `oneOf [Activity, ActivityWithIntervals, Hidden]`, and
 *   ActivityWithIntervals is Activity plus two fields, so an activity matches both and a strict oneOf fails.
 * - Where the description is plainly not what intervals.icu sends, `overrides` says so and what is checked
 *   instead: a stream's samples are described as an object but sent as an array (FACTS.md; every public client
 *   reads them as lists).
 * Its formats: int32 and int64 are integers in range, float and double numbers, byte base64, date-time ISO 8601.
 */
import { readFileSync } from "node:fs";
import ajvModule, { type ValidateFunction } from "ajv";
import ajvFormats from "ajv-formats";
import { locateDescription, type ApiDescription } from "./api-descriptions.ts";

type AjvClass = typeof ajvModule.default;
type FormatsPlugin = typeof ajvFormats.default;
const Ajv: AjvClass = (ajvModule as { default?: AjvClass }).default ?? (ajvModule as unknown as AjvClass);
const addFormats: FormatsPlugin = (ajvFormats as { default?: FormatsPlugin }).default ?? (ajvFormats as unknown as FormatsPlugin);

export const intervalsDescription: ApiDescription = {
  title: "intervals.icu's API description",
  variable: "INTERVALS_OPENAPI_SPEC",
  folder: "intervals-openapi",
  file: "intervals-openapi.json",
  about:
    "intervals.icu's own OpenAPI description, served at https://intervals.icu/api/v1/docs; its README beside it says where the copy came from",
  tests: [
    {
      file: "test/sandbox/intervals-contract.test.ts",
      checks: "the sandbox's intervals.icu answers and the client's request bodies against its schemas",
    },
    { file: "test/tools/intervals-icu/intervals-fields.test.ts", checks: "the intervals.icu tools' field names against its models" },
  ],
};

/** Where the description is (test/support/api-descriptions.ts), or undefined when there is none (the tests skip). */
export const intervalsSpecPath: string | undefined = ((location) => (location.found ? location.path : undefined))(
  locateDescription(intervalsDescription),
);

export interface IntervalsSchemas {
  /** The declared answer of `method path` (the path as the description writes it, below /api/v1) for `status`. */
  response(method: string, path: string, status?: string): ValidateFunction;
  /** The declared JSON request body of `method path`. */
  requestBody(method: string, path: string): ValidateFunction;
  /** A component schema by name. */
  schema(name: string): ValidateFunction;
}

type Schema = Record<string, unknown>;

/** Properties the description gets wrong, and what intervals.icu sends there (see the header). */
export const overrides: Record<string, Record<string, Schema>> = {
  ActivityStream: {
    data: { type: "array", items: { type: "number" } },
    data2: { type: "array", items: { type: "number" } },
  },
};

export function loadIntervalsSchemas(path: string): IntervalsSchemas {
  const spec = JSON.parse(readFileSync(path, "utf8")) as {
    paths: Record<string, Record<string, Schema>>;
    components: { schemas: Record<string, Schema> };
  };
  const components: Record<string, Schema> = {};
  for (const [name, schema] of Object.entries(spec.components.schemas)) {
    const properties = { ...(schema["properties"] as Schema | undefined), ...overrides[name] };
    components[name] = adjusted({ ...schema, ...(schema["properties"] ? { properties } : {}) }, false) as Schema;
  }
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv, ["date-time", "date"]);
  ajv.addFormat("int32", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat("float", { type: "number", validate: () => true });
  ajv.addFormat("double", { type: "number", validate: () => true });
  ajv.addFormat("byte", /^[A-Za-z0-9+/]*={0,2}$/);
  ajv.addFormat("binary", () => true);
  ajv.addSchema({ $id: "intervals", components: { schemas: components } });
  const compile = (schema: Schema): ValidateFunction => ajv.compile(rebased(schema));
  const operation = (method: string, path: string): Schema => {
    const found = spec.paths[`/api/v1${path}`]?.[method.toLowerCase()];
    if (!found) throw new Error(`intervals.icu's API description has no ${method} ${path}`);
    return found;
  };
  return {
    response(method, path, status = "200") {
      const responses = operation(method, path)["responses"] as Record<string, { content?: Record<string, { schema: Schema }> }>;
      const answer = responses[status] ?? responses["default"];
      const schema = answer?.content?.["*/*"]?.schema ?? answer?.content?.["application/json"]?.schema;
      if (!schema) throw new Error(`intervals.icu's API description declares no ${status} body for ${method} ${path}`);
      return compile(adjusted(schema, false) as Schema);
    },
    requestBody(method, path) {
      const body = operation(method, path)["requestBody"] as { content?: Record<string, { schema?: Schema }> } | undefined;
      const schema = body?.content?.["application/json"]?.schema;
      if (!schema) throw new Error(`intervals.icu's API description declares no JSON body for ${method} ${path}`);
      return compile(adjusted(schema, false) as Schema);
    },
    schema(name) {
      return compile({ $ref: `#/components/schemas/${name}` });
    },
  };
}

/** `$ref`s into the components, pointed at the schema added under the id "intervals". */
function rebased(value: unknown): Schema {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', '"intervals#/components/schemas/')) as Schema;
}

/** The adjustments above, applied throughout; `nullable` says whether this schema is a property's. */
function adjusted(value: unknown, nullable: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => adjusted(item, false));
  if (typeof value !== "object" || value === null) return value;
  const schema: Schema = {};
  for (const [key, item] of Object.entries(value as Schema)) {
    if (key === "properties") {
      schema[key] = Object.fromEntries(Object.entries(item as Schema).map(([name, property]) => [name, adjusted(property, true)]));
    } else if (key === "oneOf") {
      schema["anyOf"] = adjusted(item, false);
    } else if (key === "example" || key === "description") {
      continue;
    } else {
      schema[key] = adjusted(item, false);
    }
  }
  if (schema["type"] === "object" && schema["properties"] !== undefined && schema["additionalProperties"] === undefined) {
    schema["additionalProperties"] = false;
  }
  if (!nullable) return schema;
  if (typeof schema["type"] === "string") {
    schema["type"] = [schema["type"], "null"];
    if (Array.isArray(schema["enum"])) schema["enum"] = [...(schema["enum"] as unknown[]), null];
    return schema;
  }
  return { anyOf: [schema, { type: "null" }] };
}
