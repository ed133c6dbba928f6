/**
 * intervals.icu's OpenAPI description for the contract tests, and validators built from it. The description is
 * not part of this repository (it is intervals.icu's, kept beside the project): it is read from
 * INTERVALS_OPENAPI_SPEC (the file or its folder), else from ../shared/intervals-openapi/ beside the repository's
 * main checkout. Without it the tests that need it are skipped, and one notice for the whole run
 * (test/support/intervals-openapi-notice.ts, vitest's global setup) says which and how to get the file; with CI set,
 * its absence fails them instead.
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
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ajvModule, { type ValidateFunction } from "ajv";
import ajvFormats from "ajv-formats";

type AjvClass = typeof ajvModule.default;
type FormatsPlugin = typeof ajvFormats.default;
const Ajv: AjvClass = (ajvModule as { default?: AjvClass }).default ?? (ajvModule as unknown as AjvClass);
const addFormats: FormatsPlugin = (ajvFormats as { default?: FormatsPlugin }).default ?? (ajvFormats as unknown as FormatsPlugin);

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const specFileName = "intervals-openapi.json";

/** The test files that need the description, for the notice. */
export const specDependentTests = ["test/sandbox/intervals-contract.test.ts", "test/tools/intervals-icu/intervals-fields.test.ts"];

export type SpecLocation = { found: true; path: string } | { found: false; looked: string[] };

export function locateIntervalsSpec(env: NodeJS.ProcessEnv = process.env): SpecLocation {
  const candidates: string[] = [];
  const configured = env["INTERVALS_OPENAPI_SPEC"];
  if (configured) {
    const path = resolve(configured);
    candidates.push(existsSync(path) && statSync(path).isDirectory() ? join(path, specFileName) : path);
  } else {
    candidates.push(join(repoRoot, "..", "shared", "intervals-openapi", specFileName));
    // A git worktree sits elsewhere: its repository's main checkout is beside ../shared.
    try {
      const common = execFileSync("git", ["rev-parse", "--path-format=absolute", "--git-common-dir"], {
        cwd: repoRoot,
        encoding: "utf8",
      }).trim();
      candidates.push(join(dirname(common), "..", "shared", "intervals-openapi", specFileName));
    } catch {
      // Not a git checkout (a packed tarball): only the first place counts.
    }
  }
  const found = candidates.find((path) => existsSync(path));
  return found ? { found: true, path: found } : { found: false, looked: [...new Set(candidates)] };
}

/** What the notice says (and, with CI set, the failure). */
export function missingSpecText(location: Extract<SpecLocation, { found: false }>, ci = false): string {
  return (
    `${ci ? "FAILED" : "SKIPPED"}: intervals.icu's OpenAPI description was not found (looked at ${location.looked.join(", ")}), so the ` +
    `intervals.icu contract tests (${specDependentTests.join(", ")}) ${ci ? "fail (CI is set)" : "did not run"}. Get it from https://intervals.icu/api/v1/docs (save it as ` +
    `${specFileName} in ../shared/intervals-openapi/ beside the repository, where its README says where it came from), or set ` +
    "INTERVALS_OPENAPI_SPEC to the file."
  );
}

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
