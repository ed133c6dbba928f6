/**
 * The setup report as terminal text: the sandbox check (printed before anything is written), files
 * created and kept, the config diff, notes, the sandbox and the credentials store as the config holds
 * them (with the token file's check), the weekly consolidation command, and what is left to do.
 */
import { fileURLToPath } from "node:url";
import { formatChanges, show } from "./config-diff.ts";
import { choicesHelp, defaultSshWorkspaceRoot, describeChoice, type SandboxCheck } from "./sandbox-choice.ts";
import { sandboxPath, type SandboxPlan } from "./sandbox-in-config.ts";
import type { CoachSetupReport } from "./setup.ts";
import { shellCommand } from "./weekly-consolidation.ts";
import { authorizeCommand, pluginConfigPath } from "./credentials-in-config.ts";
import { debriefsSection } from "./debriefs-in-config.ts";
import { shellQuote } from "../../common/shell-quote.ts";

/** The checkout this setup runs from: the plugin's folder when it is loaded from a local path. */
const checkoutRoot = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

/**
 * The sandbox this run leaves in the config, what the check found and what it means, for the operator,
 * before setup writes anything. `check` is absent for a kept block this setup does not write (it is not
 * checked). `proceeding`: setup goes on.
 */
export function formatSandboxCheck(
  plan: SandboxPlan,
  check: SandboxCheck | undefined,
  context: { agentId: string; proceeding: boolean },
): string {
  const path = sandboxPath(context.agentId).join(".");
  if (!check) {
    return [
      `Sandbox (as configured): ${path} = ${show(path, plan.previous ?? null)}`,
      "  check: none: this setup does not write this form, so it keeps it as it is and does not check it",
      "  (run setup with --sandbox docker, ssh or off to replace it with one of its own)",
    ].join("\n");
  }
  const lines = [`Sandbox (${check.choice.kind}): ${describeChoice(check.choice)}`, `  check: ${check.finding}`, `  ${origin(plan, path)}`];
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
    plan.explicit
      ? "  Fix it and run setup again, or choose another sandbox:"
      : plan.action === "keep"
        ? "  Fix it and run setup again, keep it as it is anyway with --skip-sandbox-check, or change it with one of:"
        : "  Choose how the coach runs and run setup again with one of:",
    ...choicesHelp().map((line) => `    ${line}`),
    "Nothing was written.",
  );
  return lines.join("\n");
}

/** Where the run's sandbox comes from, in one line. */
function origin(plan: SandboxPlan, path: string): string {
  const asked = plan.choice ? `--sandbox ${plan.choice.kind}` : "";
  switch (plan.action) {
    case "add":
      return plan.explicit ? `chosen with ${asked}` : `the default: no --sandbox given and no ${path} in the config`;
    case "keep":
      return plan.explicit
        ? `chosen with ${asked}, which ${path} already is`
        : `kept from the config (${path}); run setup with --sandbox to change it`;
    case "replace":
      return `chosen with ${asked}: it replaces ${path} = ${show(path, plan.previous ?? null)}`;
  }
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

  lines.push("", ...sandboxSection(report));
  lines.push("", ...credentialsSection(report));
  lines.push("", ...debriefsSection(report.debriefs, report.dryRun));

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
            "or openclaw plugins install the package (docs/operators/plugin.md).",
        ]),
    `Create the coach's own Telegram bot (message @BotFather, /newbot) and give the Gateway its token in ${report.secretEnvVars.join(", ")}\n` +
      "(or point the SecretRef at another secret source).",
    ...athleteAccessSteps(report),
    ...sandboxSteps(report),
    ...credentialsSteps(report),
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
        'Strava write the coach proposes (Allow/Deny in the chat; plugin config writeApproval, default "host").',
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

/** The coach's sandbox block as the config now holds it, and what this run did to it. */
function sandboxSection(report: CoachSetupReport): string[] {
  const path = sandboxPath(report.agentId).join(".");
  const { plan, inConfig } = report.sandbox;
  const held = inConfig.kind === "none" ? "(none)" : show(path, inConfig.block);
  const would = report.dryRun ? "would be " : "";
  const asked = plan.choice ? `--sandbox ${plan.choice.kind}` : "";
  const what =
    plan.action === "add"
      ? plan.explicit
        ? `${would}added, as ${asked} asked`
        : `${would}added: the default (no --sandbox given, none in the config)`
      : plan.action === "replace"
        ? `${would}changed from ${show(path, plan.previous ?? null)}, as ${asked} asked`
        : plan.explicit
          ? `kept: it already is what ${asked} asks`
          : "kept: already in the config (run setup with --sandbox docker, ssh or off to change it)";
  return [`Sandbox ${path} = ${held}`, `  ${what}`];
}

/** Where the plugin reads the Strava credentials, as the config now holds it, what this run did, and the token file's check. */
function credentialsSection(report: CoachSetupReport): string[] {
  const path = pluginConfigPath.join(".");
  const { plan, inConfig, effective, tokenFile } = report.credentials;
  const would = report.dryRun ? "would be " : "";
  const asked = plan.choice ? `--credentials ${plan.choice.kind}` : "";
  const previous = plan.previous
    ? Object.entries(plan.previous)
        .map(([key, value]) => `${key} ${show(key, value ?? null)}`)
        .join(", ")
    : "";
  const what =
    plan.action === "add"
      ? `${would}added, as ${asked} asked`
      : plan.action === "replace"
        ? `${would}changed from ${previous}, as ${asked} asked`
        : plan.action === "default"
          ? "not set: the plugin's default (run setup with --credentials token-file to use a local token file instead)"
          : plan.explicit
            ? `kept: it already is what ${asked} asks`
            : "kept: already in the config (run setup with --credentials secrets-manager or token-file to change it)";
  const lines = [`Credentials ${path} = ${inConfig.block === undefined ? "(none)" : show(path, inConfig.block)}`];
  switch (effective.kind) {
    case "token-file":
      lines.push(
        `  the plugin reads the Strava credentials from the token file ${effective.tokenFile}${inConfig.tokenFile === undefined ? " (tokenFile not set: the plugin's default)" : ""}`,
      );
      break;
    case "secrets-manager":
      lines.push(
        `  the plugin reads the Strava credentials from the AWS Secrets Manager secret ${show("secretName", effective.secretName)} in ${effective.cloudRegion}` +
          (inConfig.credentialStore === undefined ? " (credentialStore not set: the plugin's default)" : ""),
      );
      break;
    case "invalid":
      lines.push(
        `  WARNING credentialStore ${show("credentialStore", effective.credentialStore)} is not one the plugin accepts (secrets-manager or token-file): run setup with --credentials to set it`,
      );
      break;
  }
  lines.push(`  ${what}`);
  if (tokenFile)
    lines.push(tokenFile.ok ? `  check: ${tokenFile.finding}` : `  WARNING ${tokenFile.finding}. Fix it with:\n    ${tokenFile.fix ?? ""}`);
  return lines;
}

/** What the credentials store the config now holds asks of the operator. */
function credentialsSteps(report: CoachSetupReport): string[] {
  const { effective, tokenFile } = report.credentials;
  switch (effective.kind) {
    case "token-file":
      return tokenFile?.ok
        ? []
        : [
            `Before the athlete writes to the coach, make the token file ready (as the user the Gateway runs as):\n  ${tokenFile?.fix ?? authorizeCommand(effective.tokenFile)}\n` +
              "(npm run authorize reads the Strava application's client id and secret from STRAVA_CLIENT_ID and STRAVA_CLIENT_SECRET).",
          ];
    case "secrets-manager":
      return [
        `Store the athlete's Strava authorization in the secret, if it is not there yet:\n` +
          `  npm run authorize -- --store secrets-manager --secret-name ${shellQuote(effective.secretName)} --region ${effective.cloudRegion}\n` +
          "and give the Gateway AWS credentials that may read and update it. No AWS account on this host? Run this setup\n" +
          "again with --credentials token-file.",
      ];
    case "invalid":
      return [];
  }
}

/** What the sandbox the config now holds asks of the operator. */
function sandboxSteps(report: CoachSetupReport): string[] {
  const { plan, inConfig } = report.sandbox;
  if (inConfig.kind !== "choice") {
    return [
      `The coach's sandbox block is a form this setup does not write: it was kept as it is and not checked.\n` +
        `Make sure this host can run it (openclaw sandbox explain --agent ${report.agentId}).`,
    ];
  }
  const sandbox = inConfig.choice;
  switch (sandbox.kind) {
    case "docker":
      return ["Keep Docker running on this host: the coach's every tool call runs in its container."];
    case "ssh":
      return [
        `The coach's workspace of record is now the copy on ${sandbox.target} under ${sandbox.workspaceRoot ?? defaultSshWorkspaceRoot}:\n` +
          `the host seeds it once from ${report.workspaceDir}, and daily notes and MEMORY.md changes are written there,\n` +
          "not here (openclaw sandbox recreate --agent " +
          report.agentId +
          " re-seeds it and discards them).",
      ];
    case "off":
      return [
        `The coach runs WITHOUT a sandbox (${plan.explicit ? "you chose --sandbox off" : "as the config already had it"}): its read and write act on this host as the\n` +
          "Gateway's user, inside its workspace only. To sandbox it later, run this setup again with --sandbox docker or\n" +
          "--sandbox ssh.",
      ];
  }
}
