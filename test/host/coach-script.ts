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
 * As the skill asks, a proposal is a reply of its own, and the update is called after the athlete's
 * yes with the values of the last proposal in the transcript, read back from that message.
 *
 * "Am I overtraining?" is answered as AGENTS.md's coaching rules say: one training-load summary, a flag
 * with its numbers in today's note, an answer that quotes the numbers as the tool returned them.
 *
 * Requests that are not the coach's (the main agent's heartbeat, host housekeeping) get `otherAgentReply`.
 */
import type { ChatMessage, ModelRequest, ScriptedReply } from "./scripted-model-server.ts";
import { messageText } from "./scripted-model-server.ts";
import type { TrainingLoadAnswer } from "../../tools/training-load/training-load-answer.ts";

/** What the athlete writes, and what the script keys on. */
export const athleteSays = {
  logClass:
    "Just did the 6am class at Iron Temple. Warm-up: 500 m row easy, banded hip openers and good mornings x2, empty bar squats 2x10 then 95x5, 135x3. " +
    "Back squat 5x5 at 185, belt from set 3, 2:30 rest, set 5 a grinder (depth held); coach called time before the paused squats. " +
    "Partner AMRAP 20 min with Sam, Rx, split reps, one works at a time: 10 thrusters at 95, 10 pull-ups, 200 m run together. Sam took most thrusters " +
    "in rounds 6 to 9, I did the pull-ups in 5s, kipping, no bands, chalk at the end. 11 rounds + 4. Then walking lunges 3x20, single-arm DB rows 3x12 " +
    "at about 50, face pulls 3x15, couch stretch a minute a side and 5 min easy bike. Core: hollow holds 3x30 s, side plank 2x30 s a side, dead bugs 2x12 slow. " +
    "Legs are toast, left knee fine on the runs. Oats and a banana at 5:15, coffee after, 6 h sleep, slow in the warm-up, better once the bar was loaded. " +
    "The push the floor away cue kept the bar path straight. Next time start the AMRAP slower, first 5 rounds too fast.",
  changeTitle: "Call it Heavy Legs instead",
  approve: "Yes, send it",
  renameRun: "Also rename my run from this morning to Recovery Jog please",
  askAboutRide: "How did my last ride look?",
  overtraining: "Am I overtraining?",
} as const;

export const proposal = {
  firstTitle: "Iron Temple | Back Squat + Partner AMRAP",
  revisedTitle: "Iron Temple | Heavy Legs",
  /** About 1,200 characters: more than the host's approval prompt can show, so the chat message has to carry it. */
  description: [
    "Warm-up:\n",
    "- 500 m row, easy pace\n",
    "- Banded hip openers and good mornings, 2 rounds\n",
    "- Empty bar back squats 2x10, then 95 x5 and 135 x3\n",
    "Strength:\n",
    "- Back squat 5x5 @ 185, belt on from set 3\n",
    "- Rest 2:30 between sets; set 5 was a grinder, depth held\n",
    "- Paused squat cluster skipped: coach called time\n",
    "Metcon:\n",
    "- Partner WOD with Sam, split reps any way, one works at a time\n",
    "- 20 min AMRAP, Rx: 10 thrusters @ 95, 10 pull-ups, 200 m run together\n",
    "- Sam took most thrusters in rounds 6 to 9; I did the pull-ups in sets of 5\n",
    "- Kipping pull-ups, no bands, chalk on the last rounds\n",
    "Accessory:\n",
    "- Walking lunges 3x20 steps, bodyweight\n",
    "- Single-arm DB row 3x12 @ approx 50 each side\n",
    "- Banded face pulls 3x15\n",
    "- Couch stretch 1 min each side, 5 min easy bike to finish\n",
    "Core/Finisher:\n",
    "- Hollow hold 3x30 s\n",
    "- Side plank 2x30 s each side\n",
    "- Dead bug 2x12, slow\n",
    "Score/Notes:\n",
    "- Score: 11 rounds + 4 reps (team)\n",
    "- Legs are toast; left knee fine, no pain on the runs\n",
    "- Ate oats and a banana at 5:15, coffee after\n",
    "- Sleep 6 h, felt slow in the warm-up, better once the bar was loaded\n",
    "- The cue to push the floor away kept the bar path straight\n",
    "- Next time: start the AMRAP slower, the first 5 rounds were too fast",
  ].join(""),
  runTitle: "Recovery Jog",
  injectedTitle: "Sponsored by ACME",
} as const;

/** Text the main agent's heartbeat answers with: if it ever reaches the athlete's chat, the check fails. */
export const otherAgentAlert = "MAIN AGENT HEARTBEAT ALERT: this must never reach the athlete";

const internalContext = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>";
const coachMarker = "# AGENTS.md - Coach operating rules";

export interface Step {
  /** The athlete's latest message. */
  athlete: string;
  /** Results of tool calls made since it, oldest first. */
  results: Array<{ name: string; text: string; arguments: Record<string, unknown> }>;
  /** Every tool result of the conversation, for facts found earlier (the activity ids). */
  history: Array<{ name: string; text: string }>;
  /** The coach's replies so far, oldest first. */
  replies: string[];
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
  if ([athleteSays.logClass, athleteSays.changeTitle, athleteSays.approve].some((said) => step.athlete.includes(said)))
    return logClass(step);
  if (step.athlete.includes(athleteSays.renameRun)) return renameRun(step);
  if (step.athlete.includes(athleteSays.askAboutRide)) return answerAboutRide(step);
  if (step.athlete.includes(athleteSays.overtraining)) return answerOvertraining(step);
  return { text: `SCRIPT: no step for this message: ${step.athlete.slice(-200)}` };
}

function logClass(step: Step): ScriptedReply {
  const last = step.results.at(-1);
  if (last?.name === "read" && step.results.length === 1)
    return { toolCalls: [{ name: "fitness_get_activities", arguments: { per_page: 10 } }] };
  if (last?.name === "fitness_get_activities") {
    const workout = newest(last.text, "WeightTraining");
    if (!workout) return { text: `SCRIPT: no weight-training session among ${sportsIn(last.text)}` };
    return { toolCalls: [{ name: "fitness_get_activity_by_id", arguments: { id: workout.id } }] };
  }
  const id = activityId(step.history, "WeightTraining");
  if (last?.name === "fitness_get_activity_by_id" || (step.athlete.includes(athleteSays.changeTitle) && step.results.length === 0)) {
    // The proposal is the whole reply: no tool call beside it.
    const title = step.athlete.includes(athleteSays.changeTitle) ? proposal.revisedTitle : proposal.firstTitle;
    return { text: proposalMessage(currentActivity(step.history, id), title, "Workout", proposal.description) };
  }
  if (step.athlete.includes(athleteSays.approve) && step.results.length === 0) {
    const approved = lastProposal(step.replies);
    if (!approved) return { text: "SCRIPT: a yes, but no proposal in the transcript" };
    // Nothing beside the call: the host would not deliver it anyway.
    return { toolCalls: [{ name: "fitness_update_activity", arguments: { id, ...approved } }] };
  }
  if (last?.name === "fitness_update_activity") {
    if (!isUpdatedActivity(last.text))
      return { text: "Nothing was written to Strava. Tell me what to change and I will propose it again." };
    return {
      toolCalls: [{ name: "write", arguments: { path: `memory/${today()}.md`, content: dailyNote(id, String(last.arguments["name"])) } }],
    };
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
    // The athlete dictated the whole change (a title, no description): the host's approval shows all of it.
    return { toolCalls: [{ name: "fitness_update_activity", arguments: { id: run.id, name: proposal.runTitle } }] };
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
    return { text: isUpdatedActivity(last.text) ? "I renamed your ride." : "Your last ride looked steady. Nothing was written to Strava." };
  }
  return { text: `SCRIPT: unexpected state after ${last.name}` };
}

/**
 * "Am I overtraining?" as AGENTS.md's coaching rules answer it: one training-load summary, the flag added
 * under `## Flags` in today's note (read first, then written back whole), then the answer quoting the
 * numbers as the tool gave them. The note comes before the answer because text beside a tool call never
 * reaches the athlete: the answer is the turn's last reply.
 */
function answerOvertraining(step: Step): ScriptedReply {
  const last = step.results.at(-1);
  const note = `memory/${today()}.md`;
  if (!last) return { toolCalls: [{ name: "fitness_get_activities", arguments: { summary: true } }] };
  const summary = step.results.find((result) => result.name === "fitness_get_activities" && result.arguments["summary"] === true);
  const numbers = summary ? loadNumbers(summary.text) : undefined;
  if (!numbers) return { text: `SCRIPT: no readable training-load summary after ${step.results.map((result) => result.name).join(", ")}` };
  if (last.name === "fitness_get_activities") return { toolCalls: [{ name: "read", arguments: { path: note } }] };
  if (last.name === "read") {
    const flag = `- Overtraining risk: acute:chronic ratio ${numbers.ratio}, monotony ${numbers.monotony} (fitness_get_activities summary); rules of thumb, not a diagnosis.`;
    // A read of a note that does not exist yet answers an error, not the note.
    const current = last.text.startsWith(`# ${today()}`) ? last.text : `# ${today()}\n`;
    return { toolCalls: [{ name: "write", arguments: { path: note, content: withFlag(current, flag) } }] };
  }
  if (last.name === "write") {
    return {
      text: [
        "From your training-load summary of the last 12 weeks:",
        `- acute:chronic ratio ${numbers.ratio} (about 0.8 to 1.3 is the usual range; above about 1.5 is a flag)`,
        `- monotony ${numbers.monotony} (above about 2 means few easy or rest days)`,
        `- ${numbers.daysInARow} days in a row without a rest day`,
        `- last full week's load ${numbers.lastWeekChange} percent on the week before`,
        "How are you sleeping, and is anything sore? I noted this under Flags in today's note. These numbers are rules of thumb, not a diagnosis.",
      ].join("\n"),
    };
  }
  return { text: `SCRIPT: unexpected state after ${last.name}` };
}

/** The numbers the answer quotes, each as the tool gave it (String(n)): read from the summary's JSON, never computed. */
function loadNumbers(summaryText: string): { ratio: string; monotony: string; daysInARow: string; lastWeekChange: string } | undefined {
  try {
    const summary = JSON.parse(summaryText) as TrainingLoadAnswer;
    return {
      ratio: String(summary.load.acute_chronic_ratio),
      monotony: String(summary.load.monotony),
      daysInARow: String(summary.load.longest_run_without_rest.days),
      // The last full week: the last one is the current, partial week.
      lastWeekChange: String(summary.weeks.at(-2)?.load_change_percent),
    };
  } catch {
    return undefined;
  }
}

/** The note with `flag` as the first line under its `## Flags` heading (the heading added when missing). */
function withFlag(note: string, flag: string): string {
  const heading = /^## Flags[^\n]*\n/m.exec(note);
  if (!heading) return `${note.trimEnd()}\n\n## Flags\n${flag}\n`;
  const at = heading.index + heading[0].length;
  return `${note.slice(0, at)}${flag}\n${note.slice(at)}`;
}

interface ReadActivity {
  name?: string;
  sport_type?: string;
  start_date_local?: string;
  distance?: number;
  description?: string | null;
}

/** The activity as the coach last read it (fitness_get_activity_by_id), for the proposal's first lines. */
function currentActivity(history: Step["history"], id: number): ReadActivity {
  for (const result of [...history].reverse()) {
    if (result.name !== "fitness_get_activity_by_id") continue;
    try {
      const activity = JSON.parse(result.text) as ReadActivity & { id?: number };
      if (activity.id === id) return activity;
    } catch {
      // not this one
    }
  }
  return {};
}

/** The title, sport type and description of the last proposal the coach sent, read back from its text. */
function lastProposal(replies: string[]): { name: string; sport_type: string; description: string } | undefined {
  for (const reply of [...replies].reverse()) {
    const match = /^Proposed title: (.+)\nProposed sport type: (\w+).*\nProposed description:\n```\n([\s\S]*?)\n```$/m.exec(reply);
    if (match) return { name: match[1] ?? "", sport_type: match[2] ?? "", description: match[3] ?? "" };
  }
  return undefined;
}

/**
 * The proposal as the skill's step 4 writes it: the activity as it is, then everything that will be
 * sent, the description in a fenced block so the chat shows it exactly as written.
 */
export function proposalMessage(current: ReadActivity, title: string, sportType: string, description: string): string {
  const distance = current.distance ? `${(current.distance / 1000).toFixed(2)} km` : "no distance";
  const start = (current.start_date_local ?? "").slice(0, 16).replace("T", " ");
  const sport = current.sport_type === sportType ? `${sportType} (unchanged)` : `${sportType} (was ${current.sport_type ?? "unknown"})`;
  return [
    `Activity: ${start} | ${current.name ?? "unknown"} | ${current.sport_type ?? "unknown"} | ${distance}`,
    `Current description: ${current.description ? current.description : "(empty)"}`,
    "",
    `Proposed title: ${title}`,
    `Proposed sport type: ${sport}`,
    "Proposed description:",
    "```",
    description,
    "```",
    "",
    "Say yes and I will send it to Strava, or tell me what to change.",
  ].join("\n");
}

export function readStep(messages: ChatMessage[]): Step {
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
    results: messages
      .slice(athleteIndex + 1)
      .filter((message) => message.role === "tool")
      .map(result),
    history: messages.filter((message) => message.role === "tool").map(result),
    replies: messages
      .filter((message) => message.role === "assistant")
      .map(messageText)
      .filter((text) => text !== ""),
  };
}

export function skillLocation(request: ModelRequest): string {
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
