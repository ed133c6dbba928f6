/**
 * What the entry registers with the host, checked on a recording host API: the 11 tools with their
 * `fitness_` names, labels, schemas and optional flags, the write-approval hook (unless the config
 * says `writeApproval: "chat"`), and nothing touched before the first call.
 */
import { describe, expect, it } from "vitest";
import { toolTable } from "../../tools/table.ts";
import { PluginConfigError } from "../../plugin/plugin-config.ts";
import { writeToolConfirmationNote } from "../../plugin/write-approval.ts";
import { registerPlugin } from "./recording-host-api.ts";

describe("register(api)", () => {
  it("registers every table entry as fitness_<name> with the table's label, description and schema, kept model-visible", () => {
    const host = registerPlugin({});
    expect([...host.tools.keys()]).toEqual(toolTable.map((tool) => `fitness_${tool.name}`));
    for (const definition of toolTable) {
      const recorded = host.tools.get(`fitness_${definition.name}`);
      const description = definition.annotations.readOnlyHint
        ? definition.description
        : `${definition.description} ${writeToolConfirmationNote("host")}`;
      expect(recorded?.tool).toMatchObject({ label: definition.title, description, catalogMode: "direct-only" });
      expect(recorded?.tool.parameters).toBe(definition.parameters);
      expect(recorded?.options).toEqual({ optional: !definition.annotations.readOnlyHint });
    }
  });

  it("holds the three write tools for approval by default, and tells the model so in their descriptions", () => {
    const host = registerPlugin({});
    expect(host.hooks.map(({ hookName, options }) => ({ hookName, options }))).toEqual([
      {
        hookName: "before_tool_call",
        options: { matcher: ["fitness_create_activity", "fitness_update_activity", "fitness_create_upload"] },
      },
    ]);
    expect(host.tools.get("fitness_update_activity")?.tool.description).toMatch(
      /the host holds this call and asks the athlete to Allow or Deny it.*first send the full proposal as a reply of its own/,
    );
  });

  it("registers no hook with writeApproval chat, and the write tools then say to ask in chat first", () => {
    const host = registerPlugin({ writeApproval: "chat" });
    expect(host.hooks).toEqual([]);
    for (const name of ["fitness_create_activity", "fitness_update_activity", "fitness_create_upload"]) {
      expect(host.tools.get(name)?.tool.description, name).toMatch(
        /nothing holds this call\. Show the athlete the exact proposal and call this only after they say yes to it\.$/,
      );
    }
    expect(host.tools.get("fitness_get_activities")?.tool.description).toBe(toolTable[0]?.description);
  });

  it("gives every tool a JSON Schema object with properties, required and no extra keys", () => {
    const host = registerPlugin({});
    for (const { tool } of host.tools.values()) {
      const schema = JSON.parse(JSON.stringify(tool.parameters)) as {
        type: string;
        properties: object;
        required: unknown[];
        additionalProperties: boolean;
      };
      expect(schema.type, tool.name).toBe("object");
      expect(typeof schema.properties, tool.name).toBe("object");
      expect(Array.isArray(schema.required), tool.name).toBe(true);
      expect(schema.additionalProperties, tool.name).toBe(false);
    }
  });

  it("does no I/O and logs nothing while registering", () => {
    const host = registerPlugin({ secretName: "does-not-exist", cloudRegion: "eu-west-1" });
    expect(host.tools.size).toBe(11);
    expect(host.logs).toEqual([]);
  });

  it("stops on a bad config value with a message naming it", () => {
    expect(() => registerPlugin({ cloudRegion: "mars" })).toThrow(PluginConfigError);
    expect(() => registerPlugin({ cloudRegion: "mars" })).toThrow(/plugins\.entries\.fitness\.config\.cloudRegion/);
  });

  it("reports a malformed STRAVA_API_BASE as the tool's error result, not a crash", async () => {
    const saved = process.env["STRAVA_API_BASE"];
    process.env["STRAVA_API_BASE"] = "not a url";
    try {
      const host = registerPlugin({});
      const result = await host.invoke("fitness_get_athlete");
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(/^Error: STRAVA_API_BASE must be an absolute http\(s\) URL/);
      expect(result.details).toEqual({ tool: "fitness_get_athlete", isError: true, ok: false });
    } finally {
      if (saved === undefined) delete process.env["STRAVA_API_BASE"];
      else process.env["STRAVA_API_BASE"] = saved;
    }
  });
});
