/**
 * What the host must report about the fitness plugin, shared by the local-path and npm-package checks.
 */
import assert from "node:assert/strict";
import { toolTable } from "../../tools/table.ts";
import { hostToolName, isOptionalTool } from "../../plugin/host-tool.ts";
import { pluginOnlyTools } from "../../plugin/plugin-only-tools.ts";
import type { HostContext, InvokeBody } from "./host-context.ts";

export const expectedTools = toolTable.map(hostToolName);
/** What the plugin registers: the table's tools, then its own (the debrief switch, built per turn for the athlete only). */
export const expectedRegisteredTools = [...expectedTools, ...pluginOnlyTools.map((tool) => tool.name)];
export const expectedOptionalTools = toolTable.filter(isOptionalTool).map(hostToolName);

interface InspectReport {
  plugin?: {
    id: string;
    status: string;
    imported?: boolean;
    source: string;
    error?: string;
    toolNames: string[];
    configJsonSchema?: { additionalProperties?: boolean };
  };
  tools?: Array<{ names: string[]; optional: boolean }>;
  diagnostics?: Array<{ level: string; message: string }>;
}

/**
 * `plugins inspect fitness --runtime --json`: loaded from `sourceEnding`, all 11 tools and the plugin-only ones,
 * write tools optional, no diagnostics.
 */
export async function inspectFitness(context: HostContext, sourceEnding: string): Promise<string> {
  const { result, json } = await context.runJson<InspectReport>(["plugins", "inspect", "fitness", "--runtime", "--json"]);
  assert.equal(result.code, 0, `exit code ${result.code}: ${result.stderr.slice(-1500)}`);
  const plugin = json.plugin;
  assert.ok(plugin, `no plugin in the report: ${result.stdout.slice(0, 500)}`);
  assert.equal(plugin.status, "loaded", `status ${plugin.status}${plugin.error ? `: ${plugin.error}` : ""}`);
  assert.equal(plugin.imported, true, "the runtime was not imported");
  assert.ok(plugin.source.endsWith(sourceEnding), `loaded from ${plugin.source}, expected …${sourceEnding}`);
  assert.deepEqual(plugin.toolNames, expectedRegisteredTools);
  const optional = (json.tools ?? []).filter((tool) => tool.optional).flatMap((tool) => tool.names);
  assert.deepEqual(optional.sort(), [...expectedOptionalTools].sort(), "optional tools");
  assert.equal(plugin.configJsonSchema?.additionalProperties, false, "config schema is not strict");
  assert.deepEqual(json.diagnostics ?? [], [], "diagnostics");
  return `${plugin.toolNames.length} tools (${optional.length} optional) from ${plugin.source} in ${(result.ms / 1000).toFixed(1)} s`;
}

/** The parsed JSON text of a successful /tools/invoke answer, after checking its envelope. */
export function invokeResultJson(answer: { status: number; body: InvokeBody }, tool: string): unknown {
  assert.equal(answer.status, 200, `HTTP ${answer.status}: ${JSON.stringify(answer.body).slice(0, 500)}`);
  assert.equal(answer.body.ok, true);
  const result = answer.body.result;
  assert.ok(result, "no result");
  assert.equal(result.isError, undefined, `error result: ${result.content?.[0]?.text}`);
  assert.deepEqual(result.details, { tool, upstreamStatus: 200 });
  const text = result.content?.[0]?.text;
  assert.equal(typeof text, "string");
  return JSON.parse(text as string);
}
