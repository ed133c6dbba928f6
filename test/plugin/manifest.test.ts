/**
 * The manifest is read by the host before any plugin code runs, so it must agree with what the code
 * registers: every tool in `contracts.tools` (the host drops undeclared tools), the same optional
 * flags, a strict config schema whose defaults are the code's defaults, and a package.json that points
 * the host at the entry. Its tool entries are generated from the tool table (`npm run plugin:manifest`):
 * the committed file must be exactly what the generator writes.
 */
import { readFileSync, existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { toolTable } from "../../tools/table.ts";
import { intervalsToolTable } from "../../tools/intervals-icu/table.ts";
import { defaultPluginSettings, resolvePluginSettings, writeApprovalModes, writeApprovalTimeoutRange } from "../../plugin/plugin-config.ts";
import { hostToolName, isOptionalTool } from "../../plugin/host-tool.ts";
import plugin from "../../index.ts";
import { renderPluginManifest } from "../../scripts/plugin-manifest.ts";
import { pluginOnlyTools } from "../../plugin/plugin-only-tools.ts";
import { registerPlugin } from "./recording-host-api.ts";

const root = new URL("../../", import.meta.url);
const manifestText = readFileSync(new URL("openclaw.plugin.json", root), "utf8");
const manifest = JSON.parse(manifestText) as {
  id: string;
  name: string;
  description: string;
  version: string;
  configSchema: {
    type: string;
    additionalProperties: boolean;
    properties: Record<
      string,
      { type: string; default: string | number; pattern?: string; enum?: string[]; minimum?: number; maximum?: number }
    >;
  };
  uiHints: Record<string, { label?: string; placeholder?: string | number; help?: string }>;
  skills: string[];
  activation: { onStartup: boolean };
  contracts: { tools: string[] };
  toolMetadata: Record<string, { optional?: boolean; sideEffecting?: boolean; replaySafe?: boolean }>;
};
const packageJson = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as {
  version: string;
  files: string[];
  main: string;
  scripts: Record<string, string>;
  openclaw: { extensions: string[]; runtimeExtensions?: string[] };
};

describe("openclaw.plugin.json", () => {
  it("has the plugin's identity, the same as the entry's", () => {
    expect(manifest.id).toBe("fitness");
    expect(plugin.id).toBe(manifest.id);
    expect(manifest.name).toBe(plugin.name);
    expect(manifest.description.length).toBeGreaterThan(20);
    expect(manifest.version).toBe(packageJson.version);
  });

  it("is exactly what npm run plugin:manifest writes from the tool table (run it after adding a tool)", async () => {
    expect(manifestText).toBe(await renderPluginManifest(manifestText));
  });

  it("declares every tool of both training logs, each once: Strava's 11, then intervals.icu's that Strava has not (the config chooses the log at run time), then the plugin-only tools", () => {
    const both = [...new Set([...toolTable, ...intervalsToolTable].map(hostToolName))];
    expect(manifest.contracts.tools).toEqual([...both, ...pluginOnlyTools.map((tool) => tool.name)]);
    expect(manifest.contracts.tools).toEqual([...toolTable.map(hostToolName), "fitness_get_wellness", "fitness_debriefs"]);
    expect(manifest.contracts.tools.every((name) => name.startsWith("fitness_"))).toBe(true);
    for (const tool of intervalsToolTable) {
      const metadata = manifest.toolMetadata[hostToolName(tool)];
      expect(metadata?.optional === true, `${tool.name} optional on intervals.icu`).toBe(isOptionalTool(tool));
    }
  });

  it.each(["strava", "intervals.icu"])("declares every tool the plugin registers on %s, the per-turn ones included", (upstream) => {
    const host = registerPlugin(
      { upstream },
      {
        system: { enqueueSystemEvent: () => true, requestHeartbeat: () => undefined },
        state: { resolveStateDir: () => "/nonexistent" },
      },
    );
    const registered = [...host.tools.keys(), ...host.factories.keys()];
    const table = upstream === "strava" ? toolTable : intervalsToolTable;
    expect(registered.sort()).toEqual([...table.map(hostToolName), ...pluginOnlyTools.map((tool) => tool.name)].sort());
    for (const name of registered) expect(manifest.contracts.tools).toContain(name);
  });

  it("marks a plugin-only tool that changes the plugin's state side-effecting, never optional or replay-safe", () => {
    for (const tool of pluginOnlyTools) expect(manifest.toolMetadata[tool.name]).toEqual({ sideEffecting: true });
  });

  it("marks exactly the write tools optional and side-effecting, the reads replay-safe", () => {
    expect(Object.keys(manifest.toolMetadata).sort()).toEqual([...manifest.contracts.tools].sort());
    for (const tool of toolTable) {
      const metadata = manifest.toolMetadata[hostToolName(tool)];
      expect(metadata?.optional === true, `${tool.name} optional`).toBe(isOptionalTool(tool));
      expect(metadata?.sideEffecting === true, `${tool.name} sideEffecting`).toBe(!tool.annotations.readOnlyHint);
      expect(metadata?.replaySafe === true, `${tool.name} replaySafe`).toBe(tool.annotations.readOnlyHint);
    }
    const optional = toolTable.filter(isOptionalTool).map((tool) => tool.name);
    expect(optional).toEqual(["create_activity", "update_activity", "create_upload"]);
  });

  it("has a strict config schema whose defaults are the code's defaults", () => {
    const schema = manifest.configSchema;
    expect(schema.type).toBe("object");
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(defaultPluginSettings).sort());
    expect(schema.properties["secretName"]?.default).toBe(defaultPluginSettings.secretName);
    expect(schema.properties["cloudRegion"]?.default).toBe(defaultPluginSettings.cloudRegion);
    expect(schema.properties["writeApproval"]?.default).toBe(defaultPluginSettings.writeApproval);
    expect(schema.properties["writeApproval"]?.enum).toEqual([...writeApprovalModes]);
    expect(schema.properties["writeApprovalTimeoutSeconds"]).toMatchObject({
      type: "integer",
      default: defaultPluginSettings.writeApprovalTimeoutSeconds,
      minimum: writeApprovalTimeoutRange.min,
      maximum: writeApprovalTimeoutRange.max,
    });
  });

  // `openclaw config validate` checks the manifest's schema; the plugin checks its own at register, where a
  // refusal takes every tool away. What one accepts the other must too.
  it.each([
    ["cloudRegion", ["us-west-2", "eu-central-1", "us-gov-west-1", "ap-southeast-4", "US-WEST-2", "uswest2", "us-west", ""]],
    [
      "secretName",
      [
        "fitness-credentials",
        "team/athlete_1+coach=x.y@z",
        "arn:aws:secretsmanager:us-west-2:123456789012:secret:fitness-credentials-AbCdEf",
        "my secret",
        "",
        "x".repeat(512),
        "x".repeat(513),
        "arn:aws:s3:::bucket",
      ],
    ],
  ] as const)("uses the same %s pattern as the code", (key, values) => {
    const pattern = new RegExp(manifest.configSchema.properties[key]?.pattern ?? "", "u");
    for (const value of values) {
      let codeAccepts = true;
      try {
        resolvePluginSettings({ [key]: value });
      } catch {
        codeAccepts = false;
      }
      expect(pattern.test(value), value).toBe(codeAccepts);
    }
  });

  it("gives every config key a label, a placeholder and help", () => {
    expect(Object.keys(manifest.uiHints).sort()).toEqual(Object.keys(manifest.configSchema.properties).sort());
    for (const [key, hint] of Object.entries(manifest.uiHints)) {
      expect(hint.label, key).toBeTruthy();
      expect(hint.placeholder, key).toBe(manifest.configSchema.properties[key]?.default);
      expect(hint.help, key).toBeTruthy();
    }
  });

  it("bundles the fitness-coaching skill and loads lazily", () => {
    expect(manifest.skills).toEqual(["./skills"]);
    expect(existsSync(new URL("skills/fitness-coaching/SKILL.md", root))).toBe(true);
    expect(manifest.activation.onStartup).toBe(false);
  });
});

describe("package.json for the host", () => {
  it("points a local path at the TypeScript entry and ships compiled JavaScript in the package", () => {
    expect(packageJson.openclaw.extensions).toEqual(["./index.ts"]);
    // A declared runtime entry would make a local path without dist/ unloadable: the host infers
    // dist/index.js for installed packages instead (checked by npm run test:host).
    expect(packageJson.openclaw.runtimeExtensions).toBeUndefined();
    expect(packageJson.main).toBe("./dist/index.js");
    expect(packageJson.files).toEqual(expect.arrayContaining(["dist", "openclaw.plugin.json", "skills"]));
    expect(packageJson.scripts["prepack"]).toBe("npm run build");
    expect(packageJson.scripts["build"]).toContain("tsc -p tsconfig.build.json");
    // dist/index.js is then one bundled module: the host's npm overrides cannot swap its dependencies.
    expect(packageJson.scripts["build"]).toContain("build/plugin.ts");
  });
});
