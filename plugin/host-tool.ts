/**
 * One table entry as an OpenClaw tool: the `fitness_` name, the core's label, description and TypeBox
 * schema, and an `execute` that runs the core (which validates the arguments itself: the host's direct
 * invoke paths, `POST /tools/invoke` and RPC `tools.invoke`, skip schema validation).
 *
 * Results keep the one shape of the tools (`content` with one text item; failures `Error: ...` and
 * `isError: true`). `details` carries what the host may use: the tool name, the upstream status, and
 * for failures `isError: true` plus `ok: false`. The host grades a call from the reserved `details`
 * keys (status, ok, success, error, timedOut, exitCode) and ignores a top-level `isError`, so
 * `ok: false` is how a failed call is reported as failed (no "mutation committed" for an update that
 * Strava refused). No other reserved key is used.
 */
import type { ToolDefinition } from "../tools/definition/tool-definition.ts";
import type { ToolDeps } from "../tools/runner/tool-deps.ts";
import { runTool } from "../tools/runner/run-tool.ts";
import { errorResult, type ToolResult } from "../tools/runner/tool-result.ts";
import type { HostTool, HostToolResult } from "./host-api.ts";
import { messageOf } from "../common/named-error.ts";
import type { PreparedCalls } from "./prepared-calls.ts";

export const toolNamePrefix = "fitness_";

export function hostToolName(tool: ToolDefinition): string {
  return `${toolNamePrefix}${tool.name}`;
}

/**
 * The write tools (their `readOnlyHint` is false) are optional: they change the
 * athlete's public training log, so only agents whose tool policy names the tool or the `fitness`
 * plugin get them. Read tools are required (present whenever the plugin is enabled).
 * The manifest's `toolMetadata.<tool>.optional` says the same; a unit test keeps the two in step.
 */
export function isOptionalTool(tool: ToolDefinition): boolean {
  return !tool.annotations.readOnlyHint;
}

export interface HostToolBuildOptions {
  /** Ends a write tool's description with how confirmation works in this install (plugin/write-approval.ts). */
  confirmationNote?: string;
  /** The calls the write-approval hook validated and built: a call found there is sent as built. */
  preparedCalls?: PreparedCalls;
  /** Told of each call before and after it runs (the debriefs note what the coach made: plugin/debriefs/). */
  observer?: ToolCallObserver;
}

export interface ToolCallObserver {
  started(tool: ToolDefinition): void;
  /** Awaited before the result goes back to the host; must not throw. */
  finished(tool: ToolDefinition, result: ToolResult): Promise<void>;
}

/**
 *
 * Every tool is `direct-only`: with the host's Tool Search on (its default), plugin tools otherwise
 * reach the model only as a directory entry with the description cut to 180 characters, to be called
 * through `tool_call`, while the skill names them and relies on their argument rules. openclaw 2026.9.6
 * has no per-agent Tool Search setting (`tools.toolSearch` is global), so the plugin keeps its own 11
 * tools visible wherever they are allowed and leaves the operator's Tool Search choice alone.
 */
export function hostTool(tool: ToolDefinition, deps: () => Promise<ToolDeps>, options: HostToolBuildOptions = {}): HostTool {
  const name = hostToolName(tool);
  const { confirmationNote, preparedCalls, observer } = options;
  return {
    name,
    label: tool.title,
    description: confirmationNote && !tool.annotations.readOnlyHint ? `${tool.description} ${confirmationNote}` : tool.description,
    parameters: tool.parameters,
    catalogMode: "direct-only",
    async execute(toolCallId, params, signal) {
      const prepared = preparedCalls?.take(toolCallId, tool.name, params);
      let result: ToolResult;
      observer?.started(tool);
      try {
        result = await runTool(tool, params, await deps(), signal, prepared);
      } catch (error) {
        // Only building the dependencies can throw (runTool turns its own failures into results).
        result = errorResult(messageOf(error));
      }
      await observer?.finished(tool, result);
      return hostResult(name, result);
    },
  };
}

export function hostResult(name: string, result: ToolResult): HostToolResult {
  const details: Record<string, unknown> = { tool: name };
  if (result.upstreamStatus !== undefined) details["upstreamStatus"] = result.upstreamStatus;
  if (result.isError) {
    details["isError"] = true;
    details["ok"] = false;
    return { content: result.content, details, isError: true };
  }
  return { content: result.content, details };
}
