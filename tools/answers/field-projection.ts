/**
 * `fields`: keep only the named top-level fields of each activity in Strava's answer. A model picking
 * one activity out of ten needs six fields of each, not sixty; the full answer stays the default.
 *
 * Names are checked against the model's field list before anything is sent (an unknown name is an
 * error naming it). The answer is parsed with `parseExact`, so ids above 2^53 (segment efforts in a
 * projected `segment_efforts`) keep Strava's exact digits.
 */
import { Type } from "@sinclair/typebox";
import type { FieldModel } from "./activity-fields.ts";
import { isJsonObject, parseExact, type ExactJson } from "./exact-json.ts";
import { ToolInputError } from "../arguments/validate-arguments.ts";

/**
 * The `fields` parameter of a tool answering `model` objects; `example` is a list worth copying, `names` whose
 * names they are and what each object is (Strava's activities by default).
 */
export function FieldsParameter(
  example: readonly string[],
  names: { upstream: string; item: string } = { upstream: "Strava", item: "activity" },
) {
  return Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
    minItems: 1,
    maxItems: 100,
    uniqueItems: true,
    description:
      `Keep only these top-level fields of each ${names.item} (${names.upstream}'s names), e.g. ${JSON.stringify(example)}. ` +
      "Default: every field. An unknown name is an error that lists the valid ones.",
  });
}

/** Throws `ToolInputError` naming every requested field the model does not have. */
export function checkFields(model: FieldModel, fields: readonly string[] | undefined): void {
  if (fields === undefined) return;
  const unknown = fields.filter((field) => !model.fields.has(field));
  if (unknown.length === 0) return;
  const nested = unknown.some((field) => field.includes(".")) ? ' Fields are top-level names only ("map", not "map.polyline").' : "";
  throw new ToolInputError(
    `fields: ${unknown.map((field) => JSON.stringify(field)).join(", ")} ${unknown.length === 1 ? "is not a field" : "are not fields"} ` +
      `of ${model.upstream ?? "Strava"}'s ${model.name}.${nested} Valid names: ${[...model.fields].sort().join(", ")}.`,
  );
}

/** Strava's answer (one object, or a list of them) with only `fields` kept in each object, compact. */
export function projectFields(bodyText: string, fields: readonly string[]): string {
  const keep = new Set(fields);
  const answer = parseExact(bodyText);
  const project = (item: ExactJson): ExactJson => {
    if (!isJsonObject(item)) return item;
    // Strava's own order, not the request's: the projection is a filter.
    return Object.fromEntries(Object.entries(item).filter(([key]) => keep.has(key)));
  };
  return JSON.stringify(Array.isArray(answer) ? answer.map(project) : project(answer));
}
