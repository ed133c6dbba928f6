/**
 * `fitness_debriefs`: the athlete turns the coach's debriefs off and on by telling the coach, or asks whether
 * they are on. A plugin-only tool (the MCP server has no debriefs, and its tool list does not change),
 * built per turn by a factory so that only the bound athlete's own turns get it (plugin/debriefs/bound-athlete.ts):
 * a debrief wake, another agent's turn or another sender sees no such tool, so nothing the coach reads in an
 * activity can switch debriefs. The choice is kept in the debriefs' record and wins until the operator writes
 * a different `debriefs` setting (plugin/debriefs/debrief-choice.ts).
 */
import { Type } from "@sinclair/typebox";
import { StringEnum } from "../../common/schema-check.ts";
import { validateArguments, ToolInputError } from "../../tools/arguments/validate-arguments.ts";
import type { HostTool, HostToolContext, HostToolFactory, HostToolResult } from "../host-api.ts";
import { toolNamePrefix } from "../host-tool.ts";
import type { DebriefPlan } from "./debrief-choice.ts";
import type { DebriefWatch } from "./debrief-watch.ts";
import { checkBoundAthlete } from "./bound-athlete.ts";

export const debriefSwitchToolName = `${toolNamePrefix}debriefs`;

const parameters = Type.Object(
  {
    debriefs: Type.Optional(
      StringEnum(["on", "off"], {
        description: 'The athlete\'s choice: "on" or "off". Leave it out to only read whether debriefs are on.',
      }),
    ),
  },
  { additionalProperties: false },
);

export interface DebriefSwitchDeps {
  watch: DebriefWatch;
  agentId: string;
  /** After a change: plan the next check now (a new baseline when turned on). */
  changed(): void;
  /** Why a turn got no switch (logged at debug level). */
  refused(reason: string): void;
}

export function debriefSwitchTool(deps: DebriefSwitchDeps): HostToolFactory {
  return (context: HostToolContext): HostTool | null => {
    const athlete = checkBoundAthlete(context, deps.agentId);
    if (!athlete.ok) {
      deps.refused(athlete.reason);
      return null;
    }
    return {
      name: debriefSwitchToolName,
      label: "Workout debriefs",
      description:
        "Turn the coach's short debriefs of new workouts off or on when the athlete asks for it in this chat, or read whether " +
        "they are on (no argument). Answers the state: on or off, how often the log is checked, the quiet hours and their time zone.",
      parameters,
      catalogMode: "direct-only",
      async execute(_toolCallId, params) {
        let args: { debriefs?: "on" | "off" };
        try {
          args = validateArguments(debriefSwitchToolName, parameters, params) as { debriefs?: "on" | "off" };
        } catch (error) {
          if (error instanceof ToolInputError) return failed(error.message);
          throw error;
        }
        const plan = args.debriefs === undefined ? await deps.watch.plan() : await deps.watch.choose(args.debriefs === "on");
        if (args.debriefs !== undefined) deps.changed();
        return answer(plan, deps.watch);
      },
    };
  };
}

async function answer(plan: DebriefPlan, watch: DebriefWatch): Promise<HostToolResult> {
  const minutes = Math.round(plan.intervalMs / 60_000);
  const state = {
    debriefs: plan.on ? "on" : "off",
    checks_every: plan.intervalMs < 60_000 ? `${plan.intervalMs / 1000} s` : minutes % 60 === 0 ? `${minutes / 60} h` : `${minutes} min`,
    quiet_hours: watch.quietHours?.text ?? "none",
    time_zone: await watch.timeZone(),
    decided_by: plan.decidedBy === "athlete" ? "the athlete, in chat" : "the plugin setting",
  };
  return { content: [{ type: "text", text: JSON.stringify(state) }], details: { tool: debriefSwitchToolName } };
}

function failed(message: string): HostToolResult {
  return {
    content: [{ type: "text", text: `Error: ${message}` }],
    details: { tool: debriefSwitchToolName, isError: true, ok: false },
    isError: true,
  };
}
