/**
 * The scripted model behind the coach on intervals.icu (test/host/checks/coach-on-intervals.ts): what a coach that
 * follows the fitness-coaching skill does there, step by step, decided from the request alone (see
 * scripted-model-server.ts and coach-script.ts, whose transcript reading it shares). It tests the plumbing, not
 * judgement, and it holds no figures: every number it says comes from a tool result it received.
 *
 * - "Rename my last run to ...": the skill's SKILL.md, then logging.md beside it (read with the host's `read`, as
 *   the skill says), the 10 newest activities in intervals.icu's terms (`limit`), and the update of the newest run
 *   that is not a Strava stub, with only the name the athlete dictated (the host holds it for their approval).
 * - "Am I overtraining?": SKILL.md, training-load.md, one training-load summary, then wellness.md because the answer
 *   holds `readiness_trend`, and an answer quoting the summary's readiness and load numbers as it returned them.
 */
import type { ModelRequest, ScriptedReply } from "./scripted-model-server.ts";
import { isCoachRequest, otherAgentAlert, readStep, skillLocation, type Step } from "./coach-script.ts";
import type { IntervalsLoadAnswer } from "../../tools/training-load/training-load-answer.ts";

export const intervalsAthleteSays = {
  renameRun: "Rename my last run to Recovery Jog please",
  overtraining: "Am I overtraining? How are my mornings looking?",
} as const;

export const intervalsRunTitle = "Recovery Jog";

/** The fields the skill's step 1 names on intervals.icu. */
export const intervalsListFields = ["id", "name", "type", "start_date", "start_date_local", "distance", "elapsed_time"];

export function intervalsCoachScript(request: ModelRequest): ScriptedReply {
  if (!isCoachRequest(request)) return { text: otherAgentAlert };
  const step = readStep(request.messages);
  const skill = skillLocation(request);
  const beside = (file: string): string => skill.replace(/SKILL\.md$/, file);
  if (step.athlete.includes(intervalsAthleteSays.renameRun)) return renameRun(step, skill, beside);
  if (step.athlete.includes(intervalsAthleteSays.overtraining)) return overtraining(step, skill, beside);
  return { text: `SCRIPT: no step for this message: ${step.athlete.slice(-200)}` };
}

/** The skill's files in the order given, one read each, before anything else; undefined once all are read. */
function readFirst(step: Step, paths: string[]): ScriptedReply | undefined {
  const read = step.results.filter((result) => result.name === "read").length;
  const next = paths[read];
  return next === undefined ? undefined : { toolCalls: [{ name: "read", arguments: { path: next } }] };
}

function renameRun(step: Step, skill: string, beside: (file: string) => string): ScriptedReply {
  const reading = readFirst(step, [skill, beside("logging.md")]);
  if (reading) return reading;
  const last = step.results.at(-1);
  if (last?.name === "read")
    return { toolCalls: [{ name: "fitness_get_activities", arguments: { limit: 10, fields: intervalsListFields } }] };
  if (last?.name === "fitness_get_activities") {
    let listed: Array<{ id: string; type?: string; source?: string }>;
    try {
      listed = JSON.parse(last.text) as typeof listed;
    } catch {
      return { text: `SCRIPT: an unreadable listing: ${last.text.slice(0, 200)}` };
    }
    // Newest first; a Strava stub has no type and cannot be changed on intervals.icu.
    const run = listed.find((activity) => activity.type === "Run" && activity.source !== "STRAVA");
    if (!run) return { text: `SCRIPT: no run among ${listed.map((activity) => activity.type ?? "a stub").join(", ")}` };
    return { toolCalls: [{ name: "fitness_update_activity", arguments: { id: run.id, name: intervalsRunTitle } }] };
  }
  if (last?.name === "fitness_update_activity") {
    const updated = last.text.startsWith("{") && last.text.includes(`"name":"${intervalsRunTitle}"`);
    return {
      text: updated
        ? `Renamed on intervals.icu: "${intervalsRunTitle}".`
        : "The approval was not given, so nothing was changed on intervals.icu.",
    };
  }
  return { text: `SCRIPT: unexpected state after ${step.results.map((result) => result.name).join(", ")}` };
}

function overtraining(step: Step, skill: string, beside: (file: string) => string): ScriptedReply {
  const before = readFirst(step, [skill, beside("training-load.md")]);
  if (before) return before;
  const summary = step.results.find((result) => result.name === "fitness_get_activities" && result.arguments["summary"] === true);
  if (!summary) return { toolCalls: [{ name: "fitness_get_activities", arguments: { summary: true } }] };
  let answer: IntervalsLoadAnswer;
  try {
    answer = JSON.parse(summary.text) as IntervalsLoadAnswer;
  } catch {
    return { text: `SCRIPT: an unreadable summary: ${summary.text.slice(0, 200)}` };
  }
  // The answer has the athlete's mornings: the skill says to read wellness.md before using them.
  if (answer.readiness_trend === undefined) return { text: "SCRIPT: the summary has no readiness_trend" };
  const wellness = readFirst(step, [skill, beside("training-load.md"), beside("wellness.md")]);
  if (wellness) return wellness;
  const { hrv, restingHR, sleepSecs } = answer.readiness_trend;
  return {
    text: [
      "From your intervals.icu training load and mornings:",
      `- HRV 7-day mean ${String(hrv.mean_7d)} ms against your usual ${String(hrv.mean_28d)} (${String(hrv.difference_sd)} standard deviations)`,
      `- resting heart rate 7-day mean ${String(restingHR.mean_7d)} against your usual ${String(restingHR.mean_28d)} (${String(restingHR.difference_sd)})`,
      `- sleep 7-day mean ${String(sleepSecs.mean_7d)} s against ${String(sleepSecs.mean_28d)} s`,
      `- fitness ${String(answer.load.fitness)}, fatigue ${String(answer.load.fatigue)}, ramp rate ${String(answer.load.ramp_rate)}, acute:chronic ratio ${String(answer.load.acute_chronic_ratio)}`,
      "How are you sleeping, and is anything sore? These numbers are rules of thumb, not a diagnosis.",
    ].join("\n"),
  };
}
