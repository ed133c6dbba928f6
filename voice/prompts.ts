/**
 * System prompts, one per mode. Each tells the model the current instant and the reference time zone (it has
 * no clock of its own), and the exact JSON object to answer with.
 */
import type { CaptureMode } from "./capture-request.ts";
import { actionForMode, responseFields } from "./response-schema.ts";
import { offsetMinutesAt, toIsoUtc } from "../common/time-zone.ts";

const modeInstructions: Record<CaptureMode, string> = {
  note: [
    "Turn the dictated text into a clean note. Fix dictation errors and punctuation, keep the speaker's meaning and voice,",
    "and structure it with Markdown (short paragraphs, bullet lists where the text lists things).",
    "title: a short title (at most 8 words). tags: 1 to 5 short lowercase topical labels.",
  ].join(" "),
  reminder: [
    'The text asks to be reminded of something. title: the thing to do, as a short imperative ("Call Sam").',
    "dueISO: when the text says when, that moment as UTC; otherwise null. markdown: one or two lines restating the reminder.",
    "notes: any extra detail from the text, else null. tags: 0 to 3 short lowercase labels.",
  ].join(" "),
  event: [
    "The text describes a calendar event. title: a short event name. startISO and endISO: start and end as UTC",
    "(if the text gives no end or length, one hour after the start). location and url: only when the text gives them, else null.",
    "notes: other details from the text, else null. markdown: a short summary of the event. tags: 0 to 3 short lowercase labels.",
  ].join(" "),
  research: [
    "The text is a question or topic to research. Answer it thoroughly in markdown: a one-paragraph answer first,",
    "then sections with headings, lists where useful, and the caveats that matter. Say when you are unsure; do not invent sources.",
    "title: the question as a short title. notes: null unless there is a follow-up worth noting. tags: 1 to 5 short lowercase labels.",
  ].join(" "),
  deepthink: [
    "The text asks for careful analysis. Think it through, then write markdown with: a summary of the conclusion,",
    "the key considerations and trade-offs, the reasoning that connects them, and concrete next steps.",
    "title: a short title for the analysis. notes: open questions, else null. tags: 1 to 5 short lowercase labels.",
  ].join(" "),
};

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

function localTimeDescription(now: Date, timeZone: string): string {
  const local = new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(now);
  return `${local} (${formatOffset(offsetMinutesAt(now.getTime(), timeZone))})`;
}

/** The system prompt for one capture. */
export function systemPromptFor(mode: CaptureMode, now: Date, timeZone: string): string {
  const action = actionForMode[mode];
  return [
    "You turn a dictated text into one item for the speaker's notes, reminders or calendar.",
    `Current instant: ${toIsoUtc(now.getTime())} (UTC).`,
    `Reference time zone: ${timeZone}; the local time there is ${localTimeDescription(now, timeZone)}.`,
    "Read relative dates and times in the text (tomorrow, next Monday, at 3pm) in the reference time zone,",
    "and write every timestamp as ISO 8601 in UTC ending in Z (e.g. 2026-03-08T16:00:00Z).",
    "",
    `Mode: ${mode}. ${modeInstructions[mode]}`,
    "",
    "Answer with one JSON object and nothing else (no code fence, no text before or after it), with exactly these keys:",
    `${responseFields.join(", ")}.`,
    `"action" must be "${action}". markdown and title are non-empty strings; tags is an array of strings;`,
    "dueISO, startISO, endISO, location, url and notes are strings or null. Use null for anything that does not apply.",
  ].join("\n");
}

/** Appended on the single retry after an answer that did not fit the response object. */
export function retryInstruction(problem: string): string {
  return `\n\nYour previous answer could not be used (${problem}). Answer again with only the JSON object described above.`;
}
