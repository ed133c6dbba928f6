/**
 * A call checked and built ahead of running it: its validated arguments (defaults applied) and the one
 * upstream request they become. A front end that must look at a call before it runs (the plugin's write
 * approval) prepares it once and hands the result to `runTool`, so the call is not validated and built a
 * second time.
 */
import type { RequestContext, ToolDefinition } from "../definition/tool-definition.ts";
import type { UpstreamRequest } from "../../common/upstream/upstream-request.ts";
import { validateArguments } from "../arguments/validate-arguments.ts";

export interface PreparedCall {
  /** The arguments as validated, defaults applied. */
  readonly args: Record<string, unknown>;
  /** The one upstream request they become. */
  readonly request: UpstreamRequest;
}

/** Validates `args` and builds the tool's request; throws `ToolInputError` for arguments the tool refuses. */
export async function prepareCall(tool: ToolDefinition, args: unknown, context: RequestContext): Promise<PreparedCall> {
  const validated = validateArguments(tool.name, tool.parameters, args);
  return { args: validated, request: await tool.request(validated, context) };
}
