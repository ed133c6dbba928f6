/**
 * Each tool's public definition (name, title, description, input schema, annotations) is snapshotted:
 * a change to what clients and models see fails here until its snapshot is updated on purpose
 * (`npx vitest run test/core/tool-schemas.test.ts -u`) and reviewed in the diff.
 */
import { describe, expect, it } from "vitest";
import { toolTable } from "../../tools/table.ts";
import { sportTypes, streamKeys } from "../../tools/parameters.ts";

describe("tool definitions", () => {
  it("are the spec's 11 tools, in order", () => {
    expect(toolTable.map((tool) => tool.name)).toEqual([
      "get_activities", "get_activity_by_id", "create_activity", "update_activity", "get_activity_zones", "get_athlete",
      "get_athlete_stats", "get_activity_streams", "get_club_activities", "create_upload", "get_upload",
    ]);
  });

  it("have the spec's enumerations", () => {
    expect(sportTypes).toHaveLength(37);
    expect(streamKeys).toHaveLength(11);
  });

  it.each(toolTable.map((tool) => [tool.name, tool] as const))("%s matches its snapshot", async (name, tool) => {
    const publicView = JSON.parse(
      JSON.stringify({ name: tool.name, title: tool.title, description: tool.description, inputSchema: tool.parameters, annotations: tool.annotations }),
    ) as { inputSchema: { type: string; properties: object; required: unknown } };
    expect(publicView.inputSchema.type).toBe("object");
    expect(Array.isArray(publicView.inputSchema.required)).toBe(true);
    await expect(`${JSON.stringify(publicView, null, 2)}\n`).toMatchFileSnapshot(`__toolsnaps__/${name}.snap.json`);
  });

  it("every parameter has a description written for a model", () => {
    for (const tool of toolTable) {
      for (const [parameter, schema] of Object.entries(tool.parameters.properties)) {
        expect(typeof (schema as { description?: unknown }).description, `${tool.name}.${parameter}`).toBe("string");
      }
    }
  });

  it("read-only tools say so and write tools do not", () => {
    const writers = toolTable.filter((tool) => !tool.annotations.readOnlyHint).map((tool) => tool.name);
    expect(writers).toEqual(["create_activity", "update_activity", "create_upload"]);
    expect(toolTable.filter((tool) => tool.annotations.destructiveHint).map((tool) => tool.name)).toEqual(["update_activity"]);
  });
});
