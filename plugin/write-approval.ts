/**
 * Host-enforced confirmation of the write tools (fitness_update_activity, fitness_create_activity,
 * fitness_create_upload): a `before_tool_call` hook that holds every call of them for the approval
 * of a person, through the host's plugin approvals (openclaw 2026.9: `requireApproval`, shown in the
 * chat the request came from with Allow/Deny buttons or `/approve <id> allow-once|deny`, and in the
 * Control UI). Nothing reaches Strava until that person allows it; a denial, a timeout or a host that
 * has nobody to ask refuses the call, and the host tells the model why.
 *
 * Why: "update only after the athlete's yes" was an instruction to the model, and text the coach reads
 * (an activity description written by another app, a fetched page) can talk a model out of it. An
 * approval the host asks for cannot be given by the model.
 *
 * The host delivers no text the model writes beside a tool call as a chat message (openclaw 2026.9 tags
 * it as commentary: on Telegram it is at most a line of the progress draft, shortened and then deleted),
 * so the proposal is a reply of its own before the call, and the approval, which holds only 512
 * characters, points to it (the skill and `writeToolConfirmationNote` say so to the model).
 *
 * The approval shows what will change (tools/writes/write-change-summary.ts); for an update that needs the activity
 * as it is now, read here with the same core and credentials as the tools (one GET per write). Calls
 * whose arguments the tool would reject are not held: nothing would be written, and the tool's own
 * error tells the model what to fix.
 *
 * Only "allow once" and "deny" are offered: each write is its own yes. With `writeApproval: "chat"` in
 * the plugin config the hook is not registered and the skill's confirmation in chat is the only check.
 */
import { toolTable } from "../tools/table.ts";
import { runTool } from "../tools/runner/run-tool.ts";
import { validateArguments, ToolInputError } from "../tools/arguments/validate-arguments.ts";
import type { ToolDeps } from "../tools/runner/create-tool-deps.ts";
import type { ToolDefinition } from "../tools/definition/tool-definition.ts";
import type { BeforeToolCallEvent, BeforeToolCallResult, ToolHookContext } from "./host-api.ts";
import { hostToolName, isOptionalTool } from "./host-tool.ts";
import type { WriteApprovalMode } from "./plugin-config.ts";
import { summarizeCreate, summarizeUpdate, summarizeUpload, type ChangeSummary, type CurrentActivity } from "../tools/writes/write-change-summary.ts";
import { messageOf } from "../common/named-error.ts";

/** The host-side names of the write tools, the hook's matcher. */
export const writeToolNames: readonly string[] = toolTable.filter(isOptionalTool).map(hostToolName);

const readActivity = requireTool("get_activity_by_id");
const byHostName = new Map(toolTable.map((tool) => [hostToolName(tool), tool]));

export interface WriteApprovalOptions {
  /** The core's dependencies, as the tools get them (built on first use). */
  deps: () => Promise<ToolDeps>;
  timeoutSeconds: number;
}

export function writeApprovalHook(options: WriteApprovalOptions) {
  return async (event: BeforeToolCallEvent, context: ToolHookContext): Promise<BeforeToolCallResult | undefined> => {
    const tool = byHostName.get(event.toolName);
    if (!tool || tool.annotations.readOnlyHint) return undefined;
    let args: Record<string, unknown>;
    try {
      args = validateArguments(tool.name, tool.parameters, event.params);
      // An update with nothing to change is refused by the tool itself, like any invalid call.
      await tool.request(args, { athleteId: () => Promise.resolve(0) });
    } catch (error) {
      if (error instanceof ToolInputError) return undefined;
      throw error;
    }
    const summary = await summarize(tool, args, options.deps, context.abortSignal);
    return {
      requireApproval: {
        title: summary.title,
        description: summary.description,
        severity: "warning",
        allowedDecisions: ["allow-once", "deny"],
        timeoutMs: options.timeoutSeconds * 1000,
      },
    };
  };
}

/**
 * The sentence the write tools' descriptions end with, so the model knows which confirmation applies
 * in this install (the skill explains both).
 */
export function writeToolConfirmationNote(mode: WriteApprovalMode): string {
  return mode === "host"
    ? "Confirmation in this host: the host holds this call and asks the athlete to Allow or Deny it, with a short summary " +
        "of the change; nothing is written until they allow it. Text you write beside the call does not reach the athlete " +
        "as a message, so first send the full proposal as a reply of its own, and call this only after the athlete says yes " +
        "to it (or when their own message states every value you send and you send no description). Do not ask again in " +
        "chat after the call. A denied or expired approval writes nothing."
    : "Confirmation in this host: nothing holds this call. Show the athlete the exact proposal and call this only after " +
        "they say yes to it.";
}

async function summarize(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  deps: () => Promise<ToolDeps>,
  signal: AbortSignal | undefined,
): Promise<ChangeSummary> {
  if (tool.name === "create_activity") return summarizeCreate(args);
  if (tool.name === "create_upload") return summarizeUpload(args);
  return summarizeUpdate(args, await currentActivity(args["id"], deps, signal));
}

async function currentActivity(
  id: unknown,
  deps: () => Promise<ToolDeps>,
  signal: AbortSignal | undefined,
): Promise<CurrentActivity | { unreadable: string }> {
  let result;
  try {
    result = await runTool(readActivity, { id }, await deps(), signal);
  } catch (error) {
    return { unreadable: messageOf(error) };
  }
  const text = result.content[0]?.text ?? "";
  if (result.isError) return { unreadable: text.replace(/^Error: /, "") };
  try {
    // Only display fields are used; the big segment-effort ids elsewhere in the body do not matter here.
    return JSON.parse(text) as CurrentActivity;
  } catch {
    return { unreadable: "the answer was not JSON" };
  }
}

function requireTool(name: string): ToolDefinition {
  const tool = toolTable.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`the tool table has no ${name}`);
  return tool;
}
