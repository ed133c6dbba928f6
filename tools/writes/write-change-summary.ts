/**
 * What a write tool call will change, as the text of the host's approval prompt: for an update, the
 * current and proposed title and sport type and a line diff of the description; for a new activity or
 * an upload, what will be created. The athlete reads it on a phone before tapping Allow or Deny, so it
 * is short plain text. Each write tool names its summary on its definition (`writeApproval`); the plugin's
 * approval hook (plugin/write-approval.ts) shows it.
 *
 * The host refuses an approval whose title is over 80 or whose description is over 512 characters
 * (counted after it escapes invisible characters), and a refused request blocks the call. So tabs and
 * other invisible characters are replaced here, and when the diff does not fit, the lines that do are
 * kept and the rest counted ("… 4 more changed lines"). Whenever something is left out or shortened,
 * the prompt says where the whole text is: the coach's proposal, a chat message of its own sent before
 * the call (the skill asks for it), and that without one the athlete should deny.
 *
 * Chat channels render the text as Markdown (Telegram turned "+ line" and "- line" into bullets, so
 * added and removed lines looked alike): the diff lines go in a fenced block, shown as written.
 */
import { diffArrays } from "diff";
import type { ChangeSummary } from "../definition/tool-definition.ts";

/** The host's limits for `requireApproval.title` and `.description` (openclaw 2026.9, plugin.approval.request). */
export const approvalTitleLimit = 80;
export const approvalDescriptionLimit = 512;

/** The fields of an activity the summary shows (from GET /activities/{id} on Strava, GET /activity/{id} on intervals.icu). */
export interface CurrentActivity {
  name?: string;
  sport_type?: string;
  /** intervals.icu's sport. */
  type?: string;
  description?: string | null;
  start_date_local?: string;
  trainer?: boolean;
  commute?: boolean;
  gear_id?: string | null;
}

/**
 * Which training log a summary speaks of: its name in the titles, and the field that holds an activity's sport
 * (Strava's `sport_type`, intervals.icu's `type`). Strava's when not given.
 */
export interface SummaryTerms {
  log: string;
  sportField: string;
}

const stravaTerms: SummaryTerms = { log: "Strava", sportField: "sport_type" };

const closing = "To change it, tap Deny and say what.";
/** Ends the line that says what is not shown here. */
const whereInFull = "The whole text is in the coach's proposal just above; if there is none, tap Deny.";
const fence = "```";
/** Quoted values (titles, external ids) longer than this are shortened on their line. */
const quoteLimit = 100;

/** `current` is the activity as the log has it now, or why it could not be read. */
export function summarizeUpdate(
  args: Record<string, unknown>,
  current: CurrentActivity | { unreadable: string },
  terms: SummaryTerms = stravaTerms,
): ChangeSummary {
  const head: string[] = [];
  const now = "unreadable" in current ? undefined : current;
  head.push(`Activity ${String(args["id"])}${now?.start_date_local ? `, ${localStartLabel(now.start_date_local)}` : ""}`);
  if (!now) head.push(`Current values could not be read (${oneLine("unreadable" in current ? current.unreadable : "", 120)}).`);
  head.push(fieldLine("Title", now?.name, args["name"], now !== undefined));
  head.push(fieldLine("Sport type", now?.[terms.sportField as "sport_type"], args[terms.sportField], now !== undefined));
  for (const [key, label] of [
    ["trainer", "Trainer"],
    ["commute", "Commute"],
    ["gear_id", "Gear"],
  ] as const) {
    if (args[key] !== undefined) head.push(fieldLine(label, now?.[key] ?? undefined, args[key], now !== undefined));
  }
  const shortened = [args["name"], now?.name].some(isShortened);
  const proposed = args["description"];
  if (typeof proposed !== "string") {
    head.push("Description: unchanged");
    return fit(`Update ${terms.log} activity`, head, [], shortened);
  }
  const before = now?.description ?? "";
  if (now && before === proposed) {
    head.push("Description: unchanged");
    return fit(`Update ${terms.log} activity`, head, [], shortened);
  }
  const oldLines = splitLines(before);
  const newLines = splitLines(proposed);
  const changes = diffArrays(oldLines, newLines);
  const kept = changes.filter((part) => !part.added && !part.removed).reduce((sum, part) => sum + part.value.length, 0);
  const lines = changes.flatMap((part) =>
    part.added ? part.value.map((line) => `+ ${line}`) : part.removed ? part.value.map((line) => `- ${line}`) : [],
  );
  const was = !now
    ? "current text unknown"
    : oldLines.length === 0
      ? "was empty"
      : kept > 0
        ? `${kept} line${kept === 1 ? "" : "s"} kept`
        : "replaced";
  head.push(newLines.length === 0 ? `Description: cleared (${was})` : `Description (${was}):`);
  return fit(`Update ${terms.log} activity`, head, lines, shortened);
}

export function summarizeCreate(args: Record<string, unknown>): ChangeSummary {
  return summarizeCreateIn(args, stravaTerms);
}

export function summarizeCreateIn(args: Record<string, unknown>, terms: SummaryTerms): ChangeSummary {
  const head = [
    `New activity: ${quote(args["name"])}`,
    `Sport type: ${String(args[terms.sportField])}`,
    `Start (local): ${localStartLabel(String(args["start_date_local"]))}`,
    `Duration: ${duration(Number(args["elapsed_time"]))}`,
  ];
  if (args["distance"] !== undefined) head.push(`Distance: ${String(args["distance"])} m`);
  if (args["trainer"] !== undefined) head.push(`Trainer: ${String(args["trainer"])}`);
  if (args["commute"] !== undefined) head.push(`Commute: ${String(args["commute"])}`);
  const description = typeof args["description"] === "string" ? splitLines(args["description"]) : [];
  if (description.length > 0) head.push("Description:");
  return fit(
    `Create ${terms.log} activity`,
    head,
    description.map((line) => `+ ${line}`),
    isShortened(args["name"]),
  );
}

export function summarizeUpload(args: Record<string, unknown>): ChangeSummary {
  return summarizeUploadIn(args, stravaTerms);
}

export function summarizeUploadIn(args: Record<string, unknown>, terms: SummaryTerms): ChangeSummary {
  const base64 = String(args["file"] ?? "").replace(/\s+/g, "");
  const bytes = Math.floor((base64.length * 3) / 4) - (base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0);
  const head = [`New activity from a ${String(args["data_type"]).toUpperCase()} file (${bytes.toLocaleString("en-US")} bytes)`];
  if (args["name"] !== undefined) head.push(`Title: ${quote(args["name"])}`);
  if (args["trainer"] !== undefined) head.push(`Trainer: ${String(args["trainer"])}`);
  if (args["commute"] !== undefined) head.push(`Commute: ${String(args["commute"])}`);
  if (args["external_id"] !== undefined) head.push(`External id: ${oneLine(String(args["external_id"]), 60)}`);
  const description = typeof args["description"] === "string" ? splitLines(args["description"]) : [];
  if (description.length > 0) head.push("Description:");
  return fit(
    `Upload an activity file to ${terms.log}`,
    head,
    description.map((line) => `+ ${line}`),
    isShortened(args["name"]),
  );
}

function fieldLine(label: string, current: unknown, proposed: unknown, known: boolean): string {
  if (proposed === undefined) return known ? `${label}: ${show(current)} (unchanged)` : `${label}: unchanged`;
  if (!known) return `${label}: → ${show(proposed)}`;
  return current === proposed ? `${label}: ${show(current)} (unchanged)` : `${label}: ${show(current)} → ${show(proposed)}`;
}

function show(value: unknown): string {
  if (value === undefined || value === null || value === "") return "(none)";
  return typeof value === "string" ? quote(value) : String(value);
}

function quote(value: unknown): string {
  return `"${oneLine(String(value), quoteLimit)}"`;
}

/** Whether a quoted value is too long to be shown whole on its line. */
function isShortened(value: unknown): boolean {
  return typeof value === "string" && [...value.replace(/\s+/g, " ").trim()].length > quoteLimit;
}

/**
 * The whole summary within the host's limits: every head line, then as many diff lines as fit, and
 * where the whole text is when some of it is not here (`shortened`: a quoted value was cut).
 */
function fit(title: string, head: string[], diffLines: string[], shortened: boolean): ChangeSummary {
  const lines = head.map((line) => clean(line));
  const body = diffLines.map((line) => clean(line));
  const length = (parts: string[]): number => [...parts.join("\n")].length;
  let shown = body.length;
  const compose = (count: number): string[] => {
    const omitted = body.length - count;
    const block = count > 0 ? [fence, ...body.slice(0, count), fence] : [];
    const pointer =
      omitted > 0
        ? [`… ${omitted} more changed line${omitted === 1 ? "" : "s"}. ${whereInFull}`]
        : shortened
          ? [`Shortened here. ${whereInFull}`]
          : [];
    return [...lines, ...block, ...pointer, closing];
  };
  while (shown > 0 && length(compose(shown)) > approvalDescriptionLimit) shown -= 1;
  let description = compose(shown).join("\n");
  if ([...description].length > approvalDescriptionLimit) {
    // Only very long titles can get here: cut the head itself, and keep the pointer to the whole text.
    const tail = `\n… Shortened here. ${whereInFull}`;
    description = `${[...description].slice(0, approvalDescriptionLimit - [...tail].length).join("")}${tail}`;
  }
  return { title: [...title].slice(0, approvalTitleLimit).join(""), description };
}

/** Lines of a description; a trailing newline does not make an extra empty line. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  return text.replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n");
}

/**
 * Replaces what the host would show as an escape sequence (tabs, zero-width and other invisible or
 * control characters, unusual spaces) so the approval reads as the athlete will see the text.
 */
function clean(line: string): string {
  // Backticks in the text could end the fenced block early.
  return line
    .replace(/`/g, "'")
    .replace(/\t/g, "  ")
    .replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u115F\u1160\u3164\uFFA0]/gu, " ");
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return [...flat].length > max ? `${[...flat].slice(0, max - 1).join("")}…` : flat;
}

/** "Sun 22 Nov 14:35" from Strava's start_date_local, which is wall-clock time despite its "Z". */
function localStartLabel(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!match) return oneLine(value, 40);
  const [, year, month, day, hour, minute] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const weekday = date.toLocaleDateString("en-GB", { weekday: "short", timeZone: "UTC" });
  const monthName = date.toLocaleDateString("en-GB", { month: "short", timeZone: "UTC" });
  return `${weekday} ${Number(day)} ${monthName} ${hour}:${minute}`;
}

function duration(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  return `${hours}:${String(minutes).padStart(2, "0")}:${String(rest).padStart(2, "0")}`;
}
