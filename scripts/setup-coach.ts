// npm run setup:coach -- --workspace DIR --config FILE [--agent-id coach] [--dry-run] [--schedule [--openclaw-bin PATH]]
//
// Installs the coach agent's workspace files and memory templates (never overwriting a file),
// merges the coach's host config fragment into an OpenClaw config file (backup first, only when
// something changes; a second run changes nothing), and prints what it did.
import { parseArgs } from "node:util";
import { formatChanges, show } from "../agents/coach/config-diff.ts";
import { CoachSetupError } from "../agents/coach/setup-error.ts";
import { runCoachSetup, type CoachSetupReport } from "../agents/coach/setup.ts";
import { shellCommand } from "../agents/coach/weekly-consolidation.ts";

const USAGE = `Usage: npm run setup:coach -- --workspace DIR --config FILE [options]

  --workspace DIR      the coach agent's workspace (created if missing)
  --config FILE        the OpenClaw config file to merge into (usually ~/.openclaw/openclaw.json)
  --agent-id ID        agent id (default: coach)
  --dry-run            show what would change, write nothing
  --schedule           also create the weekly memory consolidation job on the running Gateway
  --openclaw-bin PATH  openclaw executable used by --schedule (default: openclaw)
  -h, --help           this text`;

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        workspace: { type: "string" },
        config: { type: "string" },
        "agent-id": { type: "string", default: "coach" },
        "dry-run": { type: "boolean", default: false },
        schedule: { type: "boolean", default: false },
        "openclaw-bin": { type: "string", default: "openclaw" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.workspace || !values.config) {
    console.error(`Both --workspace and --config are required.\n\n${USAGE}`);
    return 2;
  }

  try {
    const report = await runCoachSetup({
      workspace: values.workspace,
      configFile: values.config,
      agentId: values["agent-id"],
      dryRun: values["dry-run"],
      env: process.env,
      ...(values.schedule ? { schedule: { openclawBin: values["openclaw-bin"] } } : {}),
    });
    console.log(render(report, values["openclaw-bin"]));
    return report.consolidation.scheduled?.ok === false ? 1 : 0;
  } catch (error) {
    if (error instanceof CoachSetupError) {
      console.error(`Coach setup stopped: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

function render(report: CoachSetupReport, openclawBin: string): string {
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

process.exitCode = await main(process.argv.slice(2));
