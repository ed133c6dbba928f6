// The setup report as terminal text: files created and kept, the config diff, notes, and the
// weekly consolidation command.
import { formatChanges, show } from "./config-diff.ts";
import type { CoachSetupReport } from "./setup.ts";
import { shellCommand } from "./weekly-consolidation.ts";

/** What the setup did (or would do), for a person reading a terminal. */
export function formatSetupReport(report: CoachSetupReport, openclawBin = "openclaw"): string {
  const would = report.dryRun ? "would " : "";
  const lines: string[] = [`Coach setup for agent "${report.agentId}"${report.dryRun ? " (dry run: nothing written)" : ""}`, ""];

  lines.push(`Workspace ${report.workspaceDir}`);
  for (const file of report.workspace.created) lines.push(`  ${would}create  ${file}`);
  for (const file of report.workspace.kept) lines.push(`  kept    ${file} (already there, left as it is)`);

  const { config } = report;
  lines.push("", `Config ${report.configFile}${config.existed ? "" : ` (${would}create)`}`);
  if (config.changes.length === 0) {
    lines.push("  no changes: the coach is already configured");
  } else {
    if (config.backup) lines.push(`  backup  ${config.backup}`);
    lines.push(`  ${report.dryRun ? "would change" : "changed"}:`);
    for (const line of formatChanges(config.changes)) lines.push(`    ${line}`);
  }
  for (const note of config.notes) lines.push(`  note: ${note}`);
  for (const kept of config.kept) {
    lines.push(`  kept ${kept.path} = ${show(kept.path, kept.existing)} (suggested ${show(kept.path, kept.suggested)}): ${kept.reason}`);
  }
  if (config.json5FormattingLost) lines.push("  note: comments and JSON5 formatting were not preserved; the original is in the backup.");

  lines.push("", "Weekly memory consolidation");
  const scheduled = report.consolidation.scheduled;
  if (scheduled?.ok) {
    lines.push("  scheduled on the Gateway (idempotent: a rerun updates the same job)");
  } else {
    if (scheduled) lines.push(`  scheduling FAILED: ${scheduled.error}`);
    lines.push(
      "  OpenClaw keeps scheduled jobs in the Gateway, not in openclaw.json, so this is not part of the config merge.",
      "  With the Gateway running, run once (safe to repeat), or rerun setup with --schedule:",
      `    ${shellCommand(openclawBin, report.consolidation.args)}`,
    );
  }

  lines.push(
    "",
    "Next",
    `  1. Give the Gateway the coach's Telegram bot token in ${report.secretEnvVars.join(", ")} (or point the SecretRef at another secret source).`,
    "  2. Fill in USER.md in the workspace (goals, injuries, venues, units).",
    "  3. openclaw config validate, then restart the Gateway.",
  );
  return lines.join("\n");
}
