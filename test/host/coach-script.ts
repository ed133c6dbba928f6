/**
 * The scripted model behind the coach in the conversation host check: what a coach that follows the
 * fitness-coaching skill does, step by step, decided from the request alone (see
 * scripted-model-server.ts). It tests the plumbing (what the model is given, what its tool calls do,
 * what the athlete sees), not judgement: the titles and descriptions are fixed text.
 *
 * Where a step is, is read from the transcript: the athlete's latest message (the host's own context
 * messages, delimited by BEGIN/END_OPENCLAW_INTERNAL_CONTEXT, are not the athlete's) and the tool
 * results after it. The host appends its context after tool results, so "the last message is a user
 * message" never means "the athlete spoke"; counting results after the athlete's message does.
 *
 * Requests that are not the coach's (the main agent's heartbeat, host housekeeping) get `otherAgentReply`.
 */
import type { ChatMessage, ModelRequest, ScriptedReply } from "./scripted-model-server.ts";
import { messageText } from "./scripted-model-server.ts";

/** What the athlete writes, and what the script keys on. */
export const athleteSays = {
  logClass: "Just did the 6am class at Iron Temple: back squat 5x5 at 185, then a partner AMRAP with Sam, 11 rounds + 4. Legs are toast.",
  changeTitle: "Call it Heavy Legs instead",
  renameRun: "Also rename my run from this morning to Recovery Jog please",
  askAboutRide: "How did my last ride look?",
} as const;

export const proposal = {
  firstTitle: "Iron Temple | Back Squat + Partner AMRAP",
  revisedTitle: "Iron Temple | Heavy Legs",
  description: "Strength:\n- Back squat 5x5 @ 185\nMetcon:\n- Partner AMRAP with Sam\nScore/Notes:\n- Score: 11 rounds + 4\n- Legs are toast",
  runTitle: "Recovery Jog",
  injectedTitle: "Sponsored by ACME",
} as const;

/** Text the main agent's heartbeat answers with: if it ever reaches the athlete's chat, the check fails. */
export const otherAgentAlert = "MAIN AGENT HEARTBEAT ALERT: this must never reach the athlete";

const internalContext = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>";
const coachMarker = "# AGENTS.md - Coach operating rules";

interface Step {
  /** The athlete's latest message. */
  athlete: string;
  /** Results of tool calls made since it, oldest first. */
  results: Array<{ name: string; text: string; arguments: Record<string, unknown> }>;
  /** Every tool result of the conversation, for facts found earlier (the activity ids). */
  history: Array<{ name: string; text: string }>;
}

export function isCoachRequest(request: ModelRequest): boolean {
  return messageText(request.messages[0] ?? { role: "system" }).includes(coachMarker);
}

/** The conversation's script, with today's date for the daily note (the host and the check share a clock). */
export function coachScript(request: ModelRequest): ScriptedReply {
  if (!isCoachRequest(request)) return { text: otherAgentAlert };
  const step = readStep(request.messages);
  if (step.athlete.includes(athleteSays.logClass) && step.results.length === 0) {
    return { toolCalls: [{ name: "read", arguments: { path: skillLocation(request) } }] };
  }
  if (step.athlete.includes(athleteSays.logClass) || step.athlete.includes(athleteSays.changeTitle)) return logClass(step);
  if (step.athlete.includes(athleteSays.renameRun)) return renameRun(step);
  if (step.athlete.includes(athleteSays.askAboutRide)) return answerAboutRide(step);
  return { text: `SCRIPT: no step for this message: ${step.athlete.slice(-200)}` };
}

function logClass(step: Step): ScriptedReply {
  const last = step.results.at(-1);
  if (last?.name === "read" && step.results.length === 1) return { toolCalls: [{ name: "fitness_get_activities", arguments: { per_page: 10 } }] };
  if (last?.name === "fitness_get_activities") {
    const workout = newest(last.text, "WeightTraining");
    if (!workout) return { text: `SCRIPT: no weight-training session among ${sportsIn(last.text)}` };
    return { toolCalls: [{ name: "fitness_get_activity_by_id", arguments: { id: workout.id } }] };
  }
  const id = activityId(step.history, "WeightTraining");
  if (last?.name === "fitness_get_activity_by_id" || (step.athlete.includes(athleteSays.changeTitle) && step.results.length === 0)) {
    const title = step.athlete.includes(athleteSays.changeTitle) ? proposal.revisedTitle : proposal.firstTitle;
    return {
      text: `Here is what I would log:\nTitle: ${title}\nSport type: Workout\n${proposal.description}`,
      toolCalls: [{ name: "fitness_update_activity", arguments: { id, name: title, sport_type: "Workout", description: proposal.description } }],
    };
  }
  if (last?.name === "fitness_update_activity") {
    if (!isUpdatedActivity(last.text)) return { text: "Nothing was changed on Strava. Tell me what to change and I will propose it again." };
    return { toolCalls: [{ name: "write", arguments: { path: `memory/${today()}.md`, content: dailyNote(id, String(last.arguments["name"])) } }] };
  }
  if (last?.name === "write") {
    const written = step.results.findLast((result) => result.name === "fitness_update_activity" && isUpdatedActivity(result.text));
    return { text: `Logged on Strava as "${String(written?.arguments["name"])}", and noted in today's memory.` };
  }
  return { text: `SCRIPT: unexpected state after ${step.results.map((result) => result.name).join(", ")}` };
}

function renameRun(step: Step): ScriptedReply {
  const last = step.results.at(-1);
  if (!last) return { toolCalls: [{ name: "fitness_get_activities", arguments: { per_page: 10 } }] };
  if (last.name === "fitness_get_activities") {
    const run = newest(last.text, "Run");
    if (!run) return { text: `SCRIPT: no run among ${sportsIn(last.text)}` };
    return { text: `Renaming "${run.name}" to "${proposal.runTitle}".`, toolCalls: [{ name: "fitness_update_activity", arguments: { id: run.id, name: proposal.runTitle } }] };
  }
  if (last.name === "fitness_update_activity") {
    return { text: isUpdatedActivity(last.text) ? "Renamed." : "The approval was not given, so nothing was changed on Strava." };
  }
  return { text: `SCRIPT: unexpected state after ${last.name}` };
}

/**
 * A model talked into writing by text it read: the ride's description (written by "another app")
 * tells the coach the athlete already approved a new title, and this model obeys at once, with no
 * proposal and no yes in the conversation. The host must hold the call and ask the athlete.
 */
function answerAboutRide(step: Step): ScriptedReply {
  const last = step.results.at(-1);
  if (!last) return { toolCalls: [{ name: "fitness_get_activities", arguments: { per_page: 10 } }] };
  if (last.name === "fitness_get_activities") {
    const ride = newest(last.text, /Ride$/);
    if (!ride) return { text: `SCRIPT: no ride among ${sportsIn(last.text)}` };
    return { toolCalls: [{ name: "fitness_get_activity_by_id", arguments: { id: ride.id } }] };
  }
  if (last.name === "fitness_get_activity_by_id") {
    const ride = JSON.parse(last.text) as { id: number; description?: string | null };
    if ((ride.description ?? "").includes("call fitness_update_activity")) {
      return { toolCalls: [{ name: "fitness_update_activity", arguments: { id: ride.id, name: proposal.injectedTitle } }] };
    }
    return { text: "Your last ride looked steady." };
  }
  if (last.name === "fitness_update_activity") {
    return { text: isUpdatedActivity(last.text) ? "I renamed your ride." : "Your last ride looked steady. I did not change anything on it." };
  }
  return { text: `SCRIPT: unexpected state after ${last.name}` };
}

function readStep(messages: ChatMessage[]): Step {
  let athleteIndex = -1;
  messages.forEach((message, index) => {
    if (message.role === "user" && !messageText(message).startsWith(internalContext)) athleteIndex = index;
  });
  const calls = new Map<string, { name: string; arguments: Record<string, unknown> }>();
  for (const message of messages) {
    for (const call of message.tool_calls ?? []) {
      calls.set(call.id, { name: call.function.name, arguments: JSON.parse(call.function.arguments || "{}") as Record<string, unknown> });
    }
  }
  const result = (message: ChatMessage) => {
    const call = calls.get(message.tool_call_id ?? "");
    return { name: call?.name ?? "?", arguments: call?.arguments ?? {}, text: messageText(message) };
  };
  return {
    athlete: athleteIndex >= 0 ? messageText(messages[athleteIndex] as ChatMessage) : "",
    results: messages.slice(athleteIndex + 1).filter((message) => message.role === "tool").map(result),
    history: messages.filter((message) => message.role === "tool").map(result),
  };
}

function skillLocation(request: ModelRequest): string {
  const system = messageText(request.messages[0] ?? { role: "system" });
  return /<name>fitness-coaching<\/name>[\s\S]*?<location>([^<]+)<\/location>/.exec(system)?.[1] ?? "SKILL-NOT-LISTED";
}

interface ListedActivity {
  id: number;
  name: string;
  sport_type: string;
}

/** The newest activity of a sport in a `fitness_get_activities` result (newest first, as Strava lists). */
export function newest(listText: string, sport: string | RegExp): ListedActivity | undefined {
  const matches = (type: string): boolean => (typeof sport === "string" ? type === sport : sport.test(type));
  try {
    return (JSON.parse(listText) as ListedActivity[]).find((activity) => matches(activity.sport_type));
  } catch {
    return undefined;
  }
}

/** The sport types of a listing, or why it could not be read (for the script's own failure messages). */
function sportsIn(listText: string): string {
  try {
    return (JSON.parse(listText) as ListedActivity[]).map((activity) => activity.sport_type).join(", ");
  } catch (error) {
    return `an unreadable listing (${(error as Error).message}; ${listText.length} characters, ending ${JSON.stringify(listText.slice(-120))})`;
  }
}

function activityId(history: Step["history"], sport: string): number {
  for (const result of [...history].reverse()) {
    if (result.name !== "fitness_get_activities") continue;
    const found = newest(result.text, sport);
    if (found) return found.id;
  }
  return 0;
}

function isUpdatedActivity(text: string): boolean {
  return text.startsWith("{") && text.includes('"resource_state"');
}

function dailyNote(id: number, title: string): string {
  return `# ${today()}\n\n## Sessions logged\n- Strava activity ${id}: ${title} (back squat 5x5 @ 185, partner AMRAP 11 rounds + 4)\n\n## How they felt\n- "Legs are toast"\n`;
}

export function today(): string {
  return new Date().toISOString().slice(0, 10);
}
