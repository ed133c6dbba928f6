/**
 * The `fields` projection: names checked against Strava's models (its published API description plus
 * the fields its answers carry beyond it), and answers projected with ids above 2^53 kept exact.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  activityFieldsBeyondDescription,
  clubActivityModel,
  clubFieldsBeyondDescription,
  detailedActivityModel,
  detailFieldsBeyondDescription,
  summaryActivityModel,
} from "../../tools/answers/activity-fields.ts";
import { checkFields, projectFields } from "../../tools/answers/field-projection.ts";
import { ToolInputError } from "../../tools/arguments/validate-arguments.ts";
import { stravaSwaggerPath } from "../sandbox/strava-spec.ts";
import { loadStravaSchemas } from "../sandbox/strava-schemas.ts";
import { openSession } from "../sandbox/sandbox-client.ts";
import { manualClock, testNow } from "../support/test-clock.ts";

// Without the description the run says once what it skipped (test/sandbox/strava-spec-notice.ts); the lists
// themselves live in tools/answers/activity-fields.ts and serve without it.
describe.skipIf(stravaSwaggerPath === undefined)("field names against Strava's API description", () => {
  const schemas = stravaSwaggerPath === undefined ? undefined : loadStravaSchemas(stravaSwaggerPath);

  it.each([
    [summaryActivityModel, [...activityFieldsBeyondDescription]],
    [detailedActivityModel, [...activityFieldsBeyondDescription, ...detailFieldsBeyondDescription]],
    [clubActivityModel, [...clubFieldsBeyondDescription]],
  ] as const)("%s: every declared property, plus exactly the named extras that the description lacks", (model, extras) => {
    const declared = schemas!.declaredProperties(model.name);
    expect([...model.described].sort()).toEqual([...declared].sort());
    expect([...model.fields].sort()).toEqual([...new Set([...declared, ...extras])].sort());
    for (const extra of extras) expect(declared, `${extra} is really beyond the description`).not.toContain(extra);
  });
});

describe("field names against what Strava (the sandbox) sends", () => {
  it("every field of a list item, a detail and a club item can be asked for", async () => {
    const session = await openSession({ clock: manualClock(testNow).now });
    try {
      const list = session.json<Array<Record<string, unknown>>>(await session.get("/athlete/activities?per_page=200"));
      for (const item of list) for (const key of Object.keys(item)) expect(summaryActivityModel.fields, key).toContain(key);
      for (const item of list.slice(0, 40)) {
        const detail = session.json<Record<string, unknown>>(
          await session.get(`/activities/${String(item["id"])}?include_all_efforts=true`),
        );
        for (const key of Object.keys(detail)) expect(detailedActivityModel.fields, key).toContain(key);
      }
      const club = session.json<Array<Record<string, unknown>>>(await session.get("/clubs/231407/activities?per_page=50"));
      for (const item of club) for (const key of Object.keys(item)) expect(clubActivityModel.fields, key).toContain(key);
    } finally {
      await session.sandbox.close();
    }
  });
});

describe("checkFields", () => {
  it("accepts known names and names every unknown one, with the valid list", () => {
    expect(() => checkFields(summaryActivityModel, ["id", "average_heartrate"])).not.toThrow();
    expect(() => checkFields(summaryActivityModel, undefined)).not.toThrow();
    expect(() => checkFields(summaryActivityModel, ["id", "calories", "hr"])).toThrow(ToolInputError);
    expect(() => checkFields(summaryActivityModel, ["id", "calories", "hr"])).toThrow(
      /^fields: "calories", "hr" are not fields of Strava's SummaryActivity\. Valid names: .*average_heartrate/,
    );
    expect(() => checkFields(detailedActivityModel, ["map.polyline"])).toThrow(/top-level names only/);
  });
});

describe("projectFields", () => {
  /** A JSON integer text above 2^53 that a double cannot hold. */
  const bigId = fc
    .bigInt({ min: 2n ** 53n + 1n, max: 2n ** 63n - 1n })
    .filter((n) => BigInt(Number(n)) !== n)
    .map(String);

  it("keeps only the named fields, in Strava's order, every number exactly as written", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: bigId, name: fc.string(), effort: bigId, speed: fc.constantFrom("1.10", "2e3", "7", "-0.5") }), {
          minLength: 1,
          maxLength: 5,
        }),
        (items) => {
          const body = `[${items.map((item) => `{"name":${JSON.stringify(item.name)},"id":${item.id},"speed":${item.speed},"segment_efforts":[{"id":${item.effort},"hidden":false}]}`).join(",")}]`;
          const projected = projectFields(body, ["segment_efforts", "id", "speed"]);
          expect(projected).toBe(
            `[${items.map((item) => `{"id":${item.id},"speed":${item.speed},"segment_efforts":[{"id":${item.effort},"hidden":false}]}`).join(",")}]`,
          );
        },
      ),
    );
  });

  it("projects one object, leaves non-objects in a list alone, and refuses a body that is not JSON", () => {
    expect(projectFields('{"a":1,"b":{"c":2}}', ["b"])).toBe('{"b":{"c":2}}');
    expect(projectFields('[{"a":1},null,3]', ["a"])).toBe('[{"a":1},null,3]');
    expect(() => projectFields('{"a":1', ["a"])).toThrow(SyntaxError);
  });
});
