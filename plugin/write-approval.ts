/**
 * Host-enforced confirmation of the write tools (every tool whose definition carries a `writeApproval`):
 * a `before_tool_call` hook that holds every call of them for the approval of a person, through the host's plugin approvals (openclaw 2026.9: `requireApproval`, shown in the
 * chat the request came from with Allow/Deny buttons or `/approve <id> allow-once|deny`, and in the
 * Control UI). Nothing reaches the training log until that person allows it; a denial, a timeout or a host that
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
 * The approval shows what will change: each write tool's definition says how (`writeApproval`: its summary,
 * and for a write that changes an existing record, the read tool that answers the record now, run here with
 * the same core and credentials as the tools: one GET per update). The hook loops over the table and knows
 * no tool by name. Calls whose arguments the tool would reject are not held: nothing would be written, and
 * the tool's own error tells the model what to fix.
 *
 * The hook validates and builds the call once, and leaves it for the tool's execute (prepared-calls.ts),
 * which sends it as built when the host runs the same call after the approval.
 *
 * Only "allow once" and "deny" are offered: each write is its own yes. With `writeApproval: "chat"` in
 * the plugin config the hook is not registered and the skill's confirmation in chat is the only check.
 */
import { toolTable } from "../tools/table.ts";
import { runTool } from "../tools/runner/run-tool.ts";
import { prepareCall, type PreparedCall } from "../tools/runner/prepared-call.ts";
import { ToolInputError } from "../tools/arguments/validate-arguments.ts";
import { requestContextOf, type ToolDeps } from "../tools/runner/tool-deps.ts";
import type { ChangeSummary, CurrentRecord, ToolDefinition, WriteApproval } from "../tools/definition/tool-definition.ts";
import type { BeforeToolCallEvent, BeforeToolCallResult, ToolHookContext } from "./host-api.ts";
import { hostToolName } from "./host-tool.ts";
import type { PreparedCalls } from "./prepared-calls.ts";
import type { WriteApprovalMode } from "./plugin-config.ts";
import { messageOf } from "../common/named-error.ts";

/** The host-side names of the tools whose calls are held (every write tool carries a `writeApproval`), the hook's matcher. */
export function writeToolNames(table: readonly ToolDefinition[] = toolTable): string[] {
  return table.filter((tool) => tool.writeApproval !== undefined).map(hostToolName);
}

export interface WriteApprovalOptions {
  /** The core's dependencies, as the tools get them (built on first use). */
  deps: () => Promise<ToolDeps>;
  timeoutSeconds: number;
  /** Where each held call is left, validated and built, for the tool's execute. */
  preparedCalls?: PreparedCalls;
  /** The tools registered (the plugin's table by default). */
  table?: readonly ToolDefinition[];
}

export function writeApprovalHook(options: WriteApprovalOptions) {
  const held = new Map((options.table ?? toolTable).flatMap((tool) => (tool.writeApproval ? [[hostToolName(tool), tool] as const] : [])));
  return async (event: BeforeToolCallEvent, context: ToolHookContext): Promise<BeforeToolCallResult | undefined> => {
    const tool = held.get(event.toolName);
    if (tool?.writeApproval === undefined) return undefined;
    let prepared: PreparedCall;
    try {
      // An update with nothing to change is refused by the tool itself, like any invalid call.
      // What a tool asks while its request is built; the core is built only if it asks.
      prepared = await prepareCall(tool, event.params, requestContextOf(options.deps, context.abortSignal));
    } catch (error) {
      if (error instanceof ToolInputError) return undefined;
      throw error;
    }
    const summary = await summarize(tool.writeApproval, prepared.args, options.deps, context.abortSignal);
    if (event.toolCallId !== undefined) options.preparedCalls?.keep(event.toolCallId, tool.name, event.params, prepared);
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
  approval: WriteApproval,
  args: Record<string, unknown>,
  deps: () => Promise<ToolDeps>,
  signal: AbortSignal | undefined,
): Promise<ChangeSummary> {
  if (approval.current === undefined) return approval.summary(args);
  const { tool, arguments: readArguments } = approval.current;
  return approval.summary(args, await currentRecord(tool, readArguments(args), deps, signal));
}

/** The record as the read tool answers it now, or why it could not be read (the approval says so). */
async function currentRecord(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  deps: () => Promise<ToolDeps>,
  signal: AbortSignal | undefined,
): Promise<CurrentRecord> {
  let result;
  try {
    result = await runTool(tool, args, await deps(), signal);
  } catch (error) {
    return { unreadable: messageOf(error) };
  }
  const text = result.content[0]?.text ?? "";
  if (result.isError) return { unreadable: text.replace(/^Error: /, "") };
  try {
    const record: unknown = JSON.parse(text);
    return typeof record === "object" && record !== null && !Array.isArray(record)
      ? (record as Record<string, unknown>)
      : { unreadable: "the answer was not a JSON object" };
  } catch {
    return { unreadable: "the answer was not JSON" };
  }
}
