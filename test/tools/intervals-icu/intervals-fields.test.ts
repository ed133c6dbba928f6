/**
 * The names the intervals.icu tools check before anything is sent, against intervals.icu's own API description:
 * the fields of its Activity and Wellness models (`fields`) and its activity types (`type` of a write). Without
 * the description these tests are skipped, with one notice for the run saying how to get it; with CI set they fail.
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { intervalsActivityModel, intervalsWellnessModel } from "../../../tools/intervals-icu/intervals-fields.ts";
import { intervalsActivityTypes } from "../../../intervals/activity-types.ts";
import { locateIntervalsSpec, missingSpecText } from "../../support/intervals-openapi.ts";

const spec = locateIntervalsSpec();
const skip = !spec.found && !process.env["CI"];

describe.skipIf(skip)(
  `the intervals.icu tools' names match intervals.icu's API description${skip ? " (SKIPPED: the description is missing; see the notice)" : ""}`,
  () => {
    const schemas = (): Record<string, { properties: Record<string, { enum?: string[] }> }> => {
      if (!spec.found) throw new Error(missingSpecText(spec, true));
      return (JSON.parse(readFileSync(spec.path, "utf8")) as { components: { schemas: ReturnType<typeof schemas> } }).components.schemas;
    };

    test("fields of an activity are the Activity model's properties, in its order", () => {
      expect(intervalsActivityModel.described).toEqual(Object.keys(schemas()["Activity"]!.properties));
      expect([...intervalsActivityModel.fields]).toEqual(intervalsActivityModel.described);
    });

    test("fields of a day's wellness are the Wellness model's properties, in its order", () => {
      expect(intervalsWellnessModel.described).toEqual(Object.keys(schemas()["Wellness"]!.properties));
    });

    test("activity types are SportInfo.type's values", () => {
      expect([...intervalsActivityTypes]).toEqual(schemas()["SportInfo"]!.properties["type"]!.enum);
    });
  },
);
