/**
 * The plugin manifest's tool entries, generated from the tool tables and the plugin's own tools so that adding
 * a tool never means editing openclaw.plugin.json by hand: `npm run plugin:manifest` rewrites `contracts.tools`
 * (every tool the plugin may register: the host drops a tool its manifest does not list, and the config chooses
 * the log only when the plugin runs; so the tools of both training logs, then the plugin-only ones of
 * plugin/plugin-only-tools.ts) and `toolMetadata` (a write tool optional and side-effecting, a read replay-safe,
 * a plugin-only tool that changes the plugin's state side-effecting), and leaves the rest of the manifest
 * (identity, config schema, hints) as written. The file is formatted as `npm run format` would. test/plugin/manifest.test.ts
 * fails when the committed manifest differs from what this writes.
 */
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import type { ToolDefinition } from "../tools/definition/tool-definition.ts";
import { toolTables } from "../tools/table.ts";
import { hostToolName, isOptionalTool } from "../plugin/host-tool.ts";
import { pluginOnlyTools, type PluginOnlyTool } from "../plugin/plugin-only-tools.ts";

export const manifestPath = fileURLToPath(new URL("../openclaw.plugin.json", import.meta.url));

/** What the host reads of each tool before the plugin runs: its entry in `toolMetadata`. */
export type ToolMetadata = { optional: true; sideEffecting: true } | { sideEffecting: true } | { replaySafe: true };

/**
 * The manifest's tool entries for the tools of `tables`, in order, then the plugin-only tools; a name in
 * several tables (one table per upstream) is listed once, as the host knows a tool by name.
 */
export function pluginToolEntries(
  tables: ReadonlyArray<readonly ToolDefinition[]> = toolTables.map(([, table]) => table),
  pluginOnly: readonly PluginOnlyTool[] = pluginOnlyTools,
): {
  tools: string[];
  toolMetadata: Record<string, ToolMetadata>;
} {
  const toolMetadata: Record<string, ToolMetadata> = {};
  for (const tool of tables.flat()) {
    toolMetadata[hostToolName(tool)] ??= isOptionalTool(tool) ? { optional: true, sideEffecting: true } : { replaySafe: true };
  }
  for (const tool of pluginOnly) toolMetadata[tool.name] ??= tool.sideEffecting ? { sideEffecting: true } : { replaySafe: true };
  return { tools: Object.keys(toolMetadata), toolMetadata };
}

/** `manifestText` (the manifest as it is) with its tool entries made from the table, formatted. */
export async function renderPluginManifest(manifestText: string): Promise<string> {
  const manifest = JSON.parse(manifestText) as Record<string, unknown>;
  const { tools, toolMetadata } = pluginToolEntries();
  manifest["contracts"] = { ...(manifest["contracts"] as object | undefined), tools };
  manifest["toolMetadata"] = toolMetadata;
  // Indented, so Prettier keeps every object on lines of its own as the hand-written parts are.
  return await format(JSON.stringify(manifest, null, 2), { ...(await resolveConfig(manifestPath)), filepath: manifestPath });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const current = await readFile(manifestPath, "utf8");
  const updated = await renderPluginManifest(current);
  if (updated === current) console.log("openclaw.plugin.json's tool entries are up to date.");
  else {
    await writeFile(manifestPath, updated);
    console.log("openclaw.plugin.json's tool entries rewritten from the tool table.");
  }
}
