/**
 * Each tool's public definition (name, title, description, input schema, annotations) is snapshotted:
 * a change to what clients and models see fails here until its snapshot is updated on purpose
 * (`npx vitest run test/tools/tool-schemas.test.ts -u`) and reviewed in the diff.
 */
import { describe, expect, it } from "vitest";
import { Type } from "@sinclair/typebox";
import { readOnlyTools, toolTable } from "../../tools/table.ts";
import { defineTool, readOnly } from "../../tools/definition/tool-definition.ts";
import { sportTypes, streamKeys } from "../../tools/arguments/parameter-schemas.ts";

describe("tool definitions", () => {
  it("are the 11 tools, in order", () => {
    expect(toolTable.map((tool) => tool.name)).toEqual([
      "get_activities",
      "get_activity_by_id",
      "create_activity",
      "update_activity",
      "get_activity_zones",
      "get_athlete",
      "get_athlete_stats",
      "get_activity_streams",
      "get_club_activities",
      "create_upload",
      "get_upload",
    ]);
  });

  it("have Strava's enumerations", () => {
    expect(sportTypes).toHaveLength(37);
    expect(streamKeys).toHaveLength(11);
  });

  it.each(toolTable.map((tool) => [tool.name, tool] as const))("%s matches its snapshot", async (name, tool) => {
    const publicView = JSON.parse(
      JSON.stringify({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.parameters,
        annotations: tool.annotations,
      }),
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

  it("put defaults only on top-level parameters (argument validation fills in no others)", () => {
    // Every `default` found below a parameter's own schema (items, nested properties...), by path.
    const nestedDefaults = (schema: unknown, path: string): string[] => {
      if (typeof schema !== "object" || schema === null) return [];
      return [
        ...("default" in schema ? [path] : []),
        ...Object.entries(schema).flatMap(([key, value]) => (key === "default" ? [] : nestedDefaults(value, `${path}.${key}`))),
      ];
    };
    for (const tool of toolTable) {
      const found = Object.entries(tool.parameters.properties).flatMap(([name, schema]) =>
        Object.entries(schema as object).flatMap(([key, value]) =>
          key === "default" ? [] : nestedDefaults(value, `${tool.name}.${name}.${key}`),
        ),
      );
      expect(found).toEqual([]);
    }
  });

  it("read-only tools say so and write tools do not; the read-only filter leaves out exactly the writers", () => {
    const writers = toolTable.filter((tool) => !tool.annotations.readOnlyHint).map((tool) => tool.name);
    expect(writers).toEqual(["create_activity", "update_activity", "create_upload"]);
    expect(toolTable.filter((tool) => tool.annotations.destructiveHint).map((tool) => tool.name)).toEqual(["update_activity"]);
    expect(readOnlyTools().map((tool) => tool.name)).toEqual(toolTable.map((tool) => tool.name).filter((name) => !writers.includes(name)));
  });
});

describe("generated documentation and declared upstream operations", () => {
  it("README.md's tool reference is current (npm run docs:tools rewrites it)", async () => {
    const { readFile } = await import("node:fs/promises");
    const { renderToolReference, replaceBlock } = await import("../../scripts/tool-reference.ts");
    const readme = await readFile(new URL("../../README.md", import.meta.url), "utf8");
    expect(replaceBlock(readme, renderToolReference())).toBe(readme);
    // A reader of the table learns that Strava retired the club feed before calling it.
    const clubRow = readme.split("\n").find((line) => line.startsWith("| `get_club_activities` |"));
    expect(clubRow).toContain("retired by Strava since 2026-09-01");
  });

  it("docs/reference/tools.md is current (npm run docs:tools rewrites it)", async () => {
    const { readFile } = await import("node:fs/promises");
    const { renderToolPage } = await import("../../scripts/tool-reference.ts");
    const page = await readFile(new URL("../../docs/reference/tools.md", import.meta.url), "utf8");
    expect(renderToolPage()).toBe(page);
    for (const tool of toolTable) expect(page).toContain(`## \`${tool.name}\``);
  });

  it.each(toolTable.map((tool) => [tool.name, tool] as const))("%s builds the request it declares", async (name, tool) => {
    const { validArguments } = await import("../support/bad-arguments.ts");
    const { validateArguments } = await import("../../tools/arguments/validate-arguments.ts");
    const args = validateArguments(name, tool.parameters, validArguments[name]);
    const request = await tool.request(args, { athleteId: async () => 1 });
    const template = tool.upstream.replace("{id}", "1");
    expect(`${request.method} ${request.path}`).toBe(template);
  });

  it("every write tool carries what its approval shows, reading the current record with a read tool of the table", () => {
    for (const tool of toolTable) {
      expect(tool.writeApproval !== undefined, tool.name).toBe(!tool.annotations.readOnlyHint);
      const current = tool.writeApproval?.current?.tool;
      if (current !== undefined) {
        expect(toolTable, tool.name).toContain(current);
        expect(current.annotations.readOnlyHint, tool.name).toBe(true);
      }
    }
  });

  it("refuses to define a write tool without its approval's summary", () => {
    expect(() =>
      defineTool({
        name: "rename_everything",
        title: "Rename everything",
        description: "A write nobody could approve.",
        parameters: Type.Object({}, { additionalProperties: false }),
        upstream: "PUT /everything",
        annotations: { ...readOnly, readOnlyHint: false },
        request: () => ({ method: "PUT", path: "/everything" }),
      }),
    ).toThrow(
      "The tool rename_everything writes (readOnlyHint is false) but has no writeApproval: give it the summary a host shows before it runs.",
    );
  });
});
