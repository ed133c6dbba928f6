/**
 * The scripted coach of the debriefs host check (test/host/checks/coach-debriefs.ts): what a coach that
 * follows AGENTS.md and the skill's debriefs.md does when the fitness plugin wakes it, decided from the
 * request alone (see scripted-model-server.ts). It holds no activity names and no numbers: the debrief is
 * built only from the tool results it received (the activities as read, the training-load summary), so the
 * check can compare what the athlete got with what the tools answered.
 *
 * A turn starts at the athlete's latest message or at the host's heartbeat prompt (a wake); a wake whose
 * context carries a `[fitness debrief]` event (the host repeats it after each round of tool results) is a
 * debrief turn: read debriefs.md and each activity the event names at once, read the summary once, answer. The athlete's own turns: a greeting, and the request to stop
 * the debriefs (`fitness_debriefs` with `{"debriefs": "off"}`).
 */
import type { ChatMessage, ModelRequest, ScriptedReply } from "./scripted-model-server.ts";
import { messageText } from "./scripted-model-server.ts";
import type { TrainingLoadAnswer } from "../../tools/training-load/training-load-answer.ts";

export const athleteSaysToCoach = {
  hello: "Hello coach, I am back in training",
  stop: "Please stop the workout debriefs for now",
} as const;

/** Fixed words of the script (no activity data): the check finds a debrief by them. */
export const debriefWords = {
  heading: "New workout",
  offer: "Tell me how it went and I will write it up.",
  suggestion: "Suggestion: keep the next session easy and sleep well.",
} as const;

const internalContext = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>";
const heartbeatPrompt = "Follow the heartbeat monitor scratch context";
const eventMarker = "[fitness debrief]";
/** The fields debriefs.md asks for. */
export const debriefActivityFields = ["id", "name", "sport_type", "start_date_local", "distance", "moving_time", "description"];

interface Turn {
  /** The athlete's message, or undefined in a wake. */
  athlete: string | undefined;
  /** The `[fitness debrief]` event of a wake, if it carries one. */
  event: string | undefined;
  results: Array<{ name: string; text: string; arguments: Record<string, unknown> }>;
}

export function debriefScript(request: ModelRequest): ScriptedReply {
  const turn = readTurn(request.messages);
  if (turn.athlete === undefined && turn.event !== undefined) return debrief(turn, request);
  if (turn.athlete?.includes(athleteSaysToCoach.hello)) return { text: "Welcome back. Tell me about your sessions any time." };
  if (turn.athlete?.includes(athleteSaysToCoach.stop)) {
    const last = turn.results.at(-1);
    if (!last) return { toolCalls: [{ name: "fitness_debriefs", arguments: { debriefs: "off" } }] };
    const state = JSON.parse(last.text) as { debriefs?: string };
    return { text: `Done: workout debriefs are ${state.debriefs ?? "unchanged"}. Ask me any time to turn them on again.` };
  }
  if (turn.athlete === undefined) return { text: "NO_REPLY" };
  return { text: `SCRIPT: no step for this message: ${turn.athlete.slice(-200)}` };
}

function debrief(turn: Turn, request: ModelRequest): ScriptedReply {
  const event = turn.event ?? "";
  if (event.includes("could not check")) return { text: "Workout debriefs are paused: I cannot read your training log right now." };
  const named = /activit(?:y|ies) ([\d, ]+?)(?: and (\d+) more not named here)?\./.exec(event);
  const ids = (named?.[1] ?? "").split(/[ ,]+/).filter((id) => id !== "");
  if (ids.length === 0) return { text: `SCRIPT: no activity ids in the event: ${event.slice(0, 300)}` };
  const last = turn.results.at(-1);
  // The procedure and every activity named, at once.
  if (!last) {
    return {
      toolCalls: [
        { name: "read", arguments: { path: debriefsFile(request) } },
        ...ids.map((id) => ({ name: "fitness_get_activity_by_id", arguments: { id: Number(id), fields: debriefActivityFields } })),
      ],
    };
  }
  const procedure = turn.results.find((result) => result.name === "read");
  if (!procedure?.text.startsWith("# Debriefs")) return { text: `SCRIPT: debriefs.md could not be read: ${procedure?.text.slice(0, 200)}` };
  if (last.name === "fitness_get_activity_by_id") return { toolCalls: [{ name: "fitness_get_activities", arguments: { summary: true } }] };
  if (last.name === "fitness_get_activities") {
    const summary = JSON.parse(last.text) as TrainingLoadAnswer;
    const activities = turn.results
      .filter((result) => result.name === "fitness_get_activity_by_id")
      .map((result) => JSON.parse(result.text) as ReadActivity);
    return { text: debriefMessage(activities, Number(named?.[2] ?? 0), summary) };
  }
  return { text: `SCRIPT: unexpected state after ${turn.results.map((result) => result.name).join(", ")}` };
}

interface ReadActivity {
  id: number;
  name: string;
  sport_type: string;
  start_date_local: string;
  distance?: number;
  moving_time: number;
  description?: string | null;
}

/** The debrief as debriefs.md asks for it, every value taken from the tool results. */
export function debriefMessage(activities: ReadActivity[], more: number, summary: TrainingLoadAnswer): string {
  const lines = activities.map((activity) => {
    const minutes = Math.round(activity.moving_time / 60);
    const duration = `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, "0")} h`;
    const distance = activity.distance ? `, ${(activity.distance / 1000).toFixed(1)} km` : "";
    return `${debriefWords.heading}: ${activity.name}: ${activity.sport_type}, ${duration}${distance}. Load ${String(dayLoad(summary, activity.start_date_local))} on ${activity.start_date_local.slice(0, 10)}.`;
  });
  if (more > 0) lines.push(`And ${more} more.`);
  const week = summary.weeks.at(-1);
  const lastWeek = summary.weeks.at(-2);
  lines.push(`This week: load ${String(week?.total.load)} against ${String(lastWeek?.total.load)} last week.`);
  lines.push(debriefWords.suggestion);
  if (activities.some((activity) => !activity.description || /^(Morning|Lunch|Afternoon|Evening|Night) /.test(activity.name))) {
    lines.push(debriefWords.offer);
  }
  return lines.join("\n");
}

/** The summary's load for the local date of `startDateLocal` ("2026-11-21T14:05:00Z" is local time). */
export function dayLoad(summary: TrainingLoadAnswer, startDateLocal: string): number | undefined {
  const index = Math.round(
    (Date.parse(`${startDateLocal.slice(0, 10)}T00:00:00Z`) - Date.parse(`${summary.days.first}T00:00:00Z`)) / 86_400_000,
  );
  return summary.days.loads[index];
}

function readTurn(messages: ChatMessage[]): Turn {
  let start = -1;
  let athlete: string | undefined;
  messages.forEach((message, index) => {
    if (message.role !== "user") return;
    const text = messageText(message);
    if (text.startsWith(internalContext)) return;
    start = index;
    athlete = text.startsWith(heartbeatPrompt) ? undefined : text;
  });
  const after = messages.slice(start + 1);
  // The event comes in the host's context (a user message), never from a tool result (debriefs.md names the marker too).
  const event =
    athlete === undefined
      ? after
          .filter((message) => message.role === "user")
          .map(messageText)
          .find((text) => text.includes(eventMarker))
      : undefined;
  const calls = new Map<string, { name: string; arguments: Record<string, unknown> }>();
  for (const message of messages) {
    for (const call of message.tool_calls ?? []) {
      calls.set(call.id, { name: call.function.name, arguments: JSON.parse(call.function.arguments || "{}") as Record<string, unknown> });
    }
  }
  const results = after
    .filter((message) => message.role === "tool")
    .map((message) => {
      const call = calls.get(message.tool_call_id ?? "");
      return { name: call?.name ?? "?", arguments: call?.arguments ?? {}, text: messageText(message) };
    });
  return { athlete, event: event === undefined ? undefined : event.slice(event.indexOf(eventMarker)), results };
}

/** debriefs.md, beside SKILL.md in the skill's folder as the system prompt lists it. */
function debriefsFile(request: ModelRequest): string {
  const system = messageText(request.messages[0] ?? { role: "system" });
  const skill = /<name>fitness-coaching<\/name>[\s\S]*?<location>([^<]+)<\/location>/.exec(system)?.[1] ?? "SKILL-NOT-LISTED";
  return skill.replace(/SKILL\.md$/, "debriefs.md");
}
