/**
 * The intervals.icu tools as clients and models see them: each public definition snapshotted beside Strava's
 * (`__toolsnaps__/intervals.icu/`, rewritten with `-u` and reviewed in the diff), every description saying it reads
 * intervals.icu, the same names and intent as Strava's where intervals.icu has a counterpart, `get_wellness` on
 * intervals.icu only, every write held for approval as on Strava, and the generated reference current.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { intervalsToolTable } from "../../../tools/intervals-icu/table.ts";
import { toolTable, toolTableFor, toolTables } from "../../../tools/table.ts";

describe("the intervals.icu tool table", () => {
  it("offers Strava's tools that intervals.icu has a counterpart for, in Strava's order, and get_wellness", () => {
    expect(intervalsToolTable.map((tool) => tool.name)).toEqual([
      "get_activities",
      "get_activity_by_id",
      "create_activity",
      "update_activity",
      "get_activity_zones",
      "get_athlete",
      "get_activity_streams",
      "create_upload",
      "get_wellness",
    ]);
    const stravaNames = toolTable.map((tool) => tool.name);
    expect(stravaNames).not.toContain("get_wellness");
    expect(stravaNames.filter((name) => !intervalsToolTable.some((tool) => tool.name === name))).toEqual([
      "get_athlete_stats",
      "get_club_activities",
      "get_upload",
    ]);
    expect(toolTableFor("intervals.icu")).toBe(intervalsToolTable);
    expect(toolTableFor("strava")).toBe(toolTable);
    expect(toolTables.map(([log]) => log)).toEqual(["strava", "intervals.icu"]);
  });

  it.each(intervalsToolTable.map((tool) => [tool.name, tool] as const))("%s matches its snapshot", async (name, tool) => {
    const publicView = JSON.parse(
      JSON.stringify({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.parameters,
        annotations: tool.annotations,
      }),
    ) as { inputSchema: { type: string; required: unknown } };
    expect(publicView.inputSchema.type).toBe("object");
    expect(Array.isArray(publicView.inputSchema.required)).toBe(true);
    await expect(`${JSON.stringify(publicView, null, 2)}\n`).toMatchFileSnapshot(`../__toolsnaps__/intervals.icu/${name}.snap.json`);
  });

  it("every description says it reads intervals.icu, and none speaks of Strava's requests", () => {
    for (const tool of intervalsToolTable) {
      expect(tool.description, tool.name).toMatch(/intervals\.icu/);
      expect(tool.description, tool.name).not.toMatch(/Strava's (API|answer|order|names)|Strava processes|per_page|sport_type/);
    }
  });

  it("keeps each shared tool's intent: the same title, the same read or write", () => {
    for (const tool of intervalsToolTable) {
      const strava = toolTable.find((candidate) => candidate.name === tool.name);
      if (strava === undefined) continue;
      expect(tool.title, tool.name).toBe(strava.title);
      expect(tool.annotations, tool.name).toEqual(strava.annotations);
    }
  });

  it("holds every write for approval, as on Strava: an update reads the activity as it is with a read tool of its own table", () => {
    for (const tool of intervalsToolTable) {
      expect(tool.writeApproval !== undefined, tool.name).toBe(!tool.annotations.readOnlyHint);
      const current = tool.writeApproval?.current?.tool;
      if (current !== undefined) expect(intervalsToolTable).toContain(current);
    }
    expect(intervalsToolTable.filter((tool) => !tool.annotations.readOnlyHint).map((tool) => tool.name)).toEqual([
      "create_activity",
      "update_activity",
      "create_upload",
    ]);
  });

  it("offers the training-load summary on intervals.icu (get_activities' summary, a plan of requests) and names the views Strava's tools name", () => {
    const list = intervalsToolTable.find((tool) => tool.name === "get_activities")!;
    expect(Object.keys(list.parameters.properties)).toEqual(["oldest", "newest", "limit", "fields", "summary"]);
    expect(list.plan).toBeTypeOf("function");
    for (const tool of intervalsToolTable) {
      const strava = toolTable.find((candidate) => candidate.name === tool.name);
      expect(tool.view, tool.name).toBe(strava?.view);
    }
  });

  it("docs/reference/tools-intervals-icu.md is current (npm run docs:tools rewrites it)", async () => {
    const { renderToolPage } = await import("../../../scripts/tool-reference.ts");
    const page = await readFile(new URL("../../../docs/reference/tools-intervals-icu.md", import.meta.url), "utf8");
    expect(renderToolPage("intervals.icu")).toBe(page);
    for (const tool of intervalsToolTable) expect(page).toContain(`## \`${tool.name}\``);
  });
});
