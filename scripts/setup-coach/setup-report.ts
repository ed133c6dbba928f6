// The setup report as terminal text: the sandbox check (printed before anything is written), files
// created and kept, the config diff, notes, the weekly consolidation command, and what is left to do.
import { fileURLToPath } from "node:url";
import { formatChanges, show } from "./config-diff.ts";
import { choicesHelp, defaultSshWorkspaceRoot, describeChoice, type SandboxCheck } from "./sandbox-choice.ts";
import type { CoachSetupReport } from "./setup.ts";
import { shellCommand } from "./weekly-consolidation.ts";

/** The checkout this setup runs from: the plugin's folder when it is loaded from a local path. */
const checkoutRoot = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

/**
 * What the sandbox check found and what it means, for the operator, before setup writes anything.
 * `explicit`: the operator chose the sandbox (else it is the default, Docker). `proceeding`: setup goes on.
 */
export function formatSandboxCheck(check: SandboxCheck, context: { explicit: boolean; proceeding: boolean }): string {
  const lines = [`Sandbox (${check.choice.kind}): ${describeChoice(check.choice)}`, `  check: ${check.finding}`];
  if (check.runsHere) return lines.join("\n");
  lines.push(
    "  That cannot run here now: every coach turn would fail with a sandbox error, and the athlete would read",
    '  "Something went wrong while processing your request".',
  );
  if (context.proceeding) {
    lines.push("  Writing the config anyway (--skip-sandbox-check): fix the above before the athlete writes to the coach.");
    return lines.join("\n");
  }
  lines.push(
    context.explicit ? "  Fix it and run setup again, or choose another sandbox:" : "  Choose how the coach runs and run setup again with one of:",
    ...choicesHelp().map((line) => `    ${line}`),
    "Nothing was written.",
  );
  return lines.join("\n");
}

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

  const next = [
    ...(report.pluginLoadedFromPath
      ? []
      : [
          "If the fitness plugin is not installed yet (openclaw plugins list shows it when it is): this setup configures it but does\n" +
            `not install it. Add this checkout to plugins.load.paths (${checkoutRoot}) and "fitness" to plugins.allow,\n` +
            'or openclaw plugins install the package (README, "OpenClaw plugin").',
        ]),
    `Create the coach's own Telegram bot (message @BotFather, /newbot) and give the Gateway its token in ${report.secretEnvVars.join(", ")}\n` +
      "(or point the SecretRef at another secret source).",
    ...athleteAccessSteps(report),
    ...sandboxSteps(report),
    "Fill in USER.md in the workspace (goals, injuries, venues, units).",
    "openclaw config validate, then restart the Gateway.",
  ];
  lines.push("", "Next", ...next.map((step, index) => `  ${index + 1}. ${step.split("\n").join("\n     ")}`));
  return lines.join("\n");
}

function athleteAccessSteps(report: CoachSetupReport): string[] {
  const account = `channels.telegram.accounts.${report.agentId}`;
  if (report.telegramUserId !== undefined) {
    return [
      `Only Telegram user ${report.telegramUserId} may message the coach (${account}.dmPolicy "allowlist"), and they approve each\n` +
        "Strava write the coach proposes (Allow/Deny in the chat; plugin config writeApproval, default \"host\").",
    ];
  }
  return [
    "The athlete's first message to the coach's bot gets a pairing code. Approve it with:\n" +
      `  openclaw pairing approve telegram <CODE> --account ${report.agentId}\n` +
      "CAREFUL: when no command owner is configured (commands.ownerAllowFrom), that command makes the athlete\n" +
      "the owner of the whole Gateway (owner-only commands, exec approvals, the main agent's heartbeat alerts).\n" +
      "Set yourself as owner first, or skip pairing: run this setup again with --telegram-user-id <athlete's id>\n" +
      "(openclaw pairing list telegram shows it).",
    "Strava writes are held until a Telegram approver allows them. Run this setup again with\n" +
      "--telegram-user-id <athlete's id> so the athlete is that approver; until then the approval goes to the\n" +
      "Gateway's command owner, and without one every write is refused.",
  ];
}

function sandboxSteps(report: CoachSetupReport): string[] {
  const sandbox = report.sandbox;
  switch (sandbox.kind) {
    case "docker":
      return ["Keep Docker running on this host: the coach's every tool call runs in its container."];
    case "ssh":
      return [
        `The coach's workspace of record is now the copy on ${sandbox.target} under ${sandbox.workspaceRoot ?? defaultSshWorkspaceRoot}:\n` +
          `the host seeds it once from ${report.workspaceDir}, and daily notes and MEMORY.md changes are written there,\n` +
          "not here (openclaw sandbox recreate --agent " + report.agentId + " re-seeds it and discards them).",
      ];
    case "off":
      return [
        "The coach runs WITHOUT a sandbox (you chose --sandbox off): its read and write act on this host as the\n" +
          "Gateway's user, inside its workspace only. To sandbox it later, replace agents.entries." + report.agentId + ".sandbox\n" +
          "(this setup keeps an existing sandbox block as it is).",
      ];
  }
}
