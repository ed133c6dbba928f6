/**
 * The weekly memory consolidation job. OpenClaw 2026.9 keeps scheduled jobs in the Gateway's
 * database, not in openclaw.json (the `cron` config block only holds scheduler settings and
 * rejects a job list), so the job is created through the Gateway with `openclaw cron add`.
 * The declaration key makes that command idempotent: running it again updates the same job. `--schedule`
 * runs that command against the running Gateway; without it, the report prints the command to run.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { shellQuote } from "../../common/shell-quote.ts";
import { hostToolName } from "../../plugin/host-tool.ts";
import { getActivities } from "../../tools/get-activities.ts";

export const consolidationSchedule = "0 18 * * 0"; // Sundays 18:00, Gateway host time

export function consolidationDeclarationKey(agentId: string): string {
  return `${agentId}-weekly-memory-consolidation`;
}

/** The one fitness tool the scheduled run may call, and only with `{"summary": true}`: the training load. */
export const consolidationFitnessTool = hostToolName(getActivities);

export const consolidationMessage = [
  "Weekly memory consolidation (scheduled, no athlete in this conversation).",
  "Follow the Weekly consolidation section of AGENTS.md: read MEMORY.md and every daily note in memory/ since its Last consolidated date",
  "(skip the template memory/YYYY-MM-DD.md), fold recurring training, recovery, nutrition and injury patterns, new benchmarks and open flags",
  "into the matching MEMORY.md sections, remove entries that are no longer true, and set Last consolidated to today's date.",
  `Read the training load once: call ${consolidationFitnessTool} with {"summary": true}; note the last full week's load against the weeks before,`,
  "and flag, with the numbers and today's date, an acute:chronic ratio above about 1.5, a week's load more than 10 to 30 percent above the week before,",
  "or monotony above about 2 (rules of thumb, not a diagnosis).",
  "Write only MEMORY.md. Call no other fitness tool and do not message anyone. Reply with a two-line summary of what changed.",
].join(" ");

/** Arguments for `openclaw` that create (or update) the job for `agentId`. */
export function consolidationCronArgs(agentId: string): string[] {
  return [
    "cron",
    "add",
    "--name",
    `${agentId} weekly memory consolidation`,
    "--declaration-key",
    consolidationDeclarationKey(agentId),
    "--cron",
    consolidationSchedule,
    "--agent",
    agentId,
    "--session",
    "isolated",
    "--no-deliver",
    "--tools",
    `read,write,${consolidationFitnessTool}`,
    "--timeout-seconds",
    "600",
    "--message",
    consolidationMessage,
  ];
}

/** The same command as one line a person can paste into a POSIX shell. */
export function shellCommand(program: string, args: readonly string[]): string {
  return [program, ...args].map(shellQuote).join(" ");
}

export type ScheduleOutcome = { ok: true; output: string } | { ok: false; error: string };

/** Runs `<openclawBin> cron add ...` against the running Gateway; a failure says why (not found, or openclaw's own words). */
export async function scheduleConsolidation(
  openclawBin: string,
  args: string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<ScheduleOutcome> {
  try {
    const { stdout } = await promisify(execFile)(openclawBin, args, { env: { ...env }, timeout: 60_000 });
    return { ok: true, output: stdout.trim() };
  } catch (error) {
    const detail = error as NodeJS.ErrnoException & { stderr?: string };
    const reason = detail.code === "ENOENT" ? `${openclawBin} was not found` : detail.stderr?.trim() || detail.message;
    return { ok: false, error: reason };
  }
}
