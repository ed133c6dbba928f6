// npm run setup:coach -- --workspace DIR --config FILE [--sandbox docker|ssh|off ...] [--telegram-user-id ID]
//                        [--credentials secrets-manager|token-file [--token-file PATH]] [--debriefs 15m|off]
//                        [--agent-id coach] [--dry-run] [--schedule [--openclaw-bin PATH]]
//
// First checks that this machine can run the sandbox the coach would get (the --sandbox choice, else
// the one the config already gives it, else Docker), and says what will and will not work before
// anything is written. Then installs the coach agent's workspace files and
// memory templates (never overwriting a file), merges the coach's host config fragment into an
// OpenClaw config file (backup first, only when something changes; a second run changes nothing),
// and prints what it did and what is left to do, with where the plugin reads the Strava credentials
// (a token file named there is checked: it exists, mode 0600).
import { parseArgs } from "node:util";
import { CoachSetupError } from "./setup-coach/setup-error.ts";
import { formatSandboxCheck, formatSetupReport } from "./setup-coach/setup-report.ts";
import { planCoachSandbox, runCoachSetup } from "./setup-coach/setup.ts";
import { checkSandbox, sandboxKinds, sshChoice, type SandboxChoice, type SandboxKind } from "./setup-coach/sandbox-choice.ts";
import { credentialsOption, credentialStoreKinds } from "./setup-coach/credentials-in-config.ts";
import { debriefsOption } from "./setup-coach/debriefs-in-config.ts";
import { defaultTokenFileText } from "../common/settings/credential-variables.ts";

const USAGE = `Usage: npm run setup:coach -- --workspace DIR --config FILE [options]

  --workspace DIR            the coach agent's workspace (created if missing)
  --config FILE              the OpenClaw config file to merge into (usually ~/.openclaw/openclaw.json)
  --sandbox docker|ssh|off   where the coach's tools run; it replaces the config's sandbox for the coach. Without it
                             the config's own is kept; a config without one gets docker when a Docker engine
                             answers here, otherwise setup stops and explains the three choices
  --ssh-target USER@HOST[:PORT], --ssh-identity-file FILE, --ssh-known-hosts-file FILE, --ssh-workspace-root DIR
                             the SSH sandbox (with --sandbox ssh)
  --skip-sandbox-check       write the config even though the chosen (or kept) sandbox cannot run here yet
  --telegram-user-id ID      the athlete's numeric Telegram id: only they may message the coach (no pairing),
                             and they approve its Strava writes
  --credentials secrets-manager|token-file
                             where the fitness plugin reads the Strava credentials: the AWS Secrets Manager
                             secret (the plugin's default), or a token file on this host (no AWS account needed).
                             Without it the config's own choice is kept
  --token-file PATH          the token file (with --credentials token-file; absolute or ~/...; default: the one
                             already in the config, else ${defaultTokenFileText}). Setup
                             checks it exists with mode 0600; npm run authorize -- --store file --token-file PATH
                             writes it
  --debriefs 15m|off         the coach's short debrief after each new workout, without being asked: how often to
                             check the training log (5m to 24h), or off. Without it the config's choice is kept;
                             a config without one gets 15m. The athlete can also turn it off and on in chat
  --agent-id ID              agent id (default: coach)
  --dry-run                  check and show what would change, write nothing
  --schedule                 also create the weekly memory consolidation job on the running Gateway
  --openclaw-bin PATH        openclaw executable used by --schedule (default: openclaw)
  -h, --help                 this text`;

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        workspace: { type: "string" },
        config: { type: "string" },
        sandbox: { type: "string" },
        "ssh-target": { type: "string" },
        "ssh-identity-file": { type: "string" },
        "ssh-known-hosts-file": { type: "string" },
        "ssh-workspace-root": { type: "string" },
        "skip-sandbox-check": { type: "boolean", default: false },
        "telegram-user-id": { type: "string" },
        credentials: { type: "string" },
        "token-file": { type: "string" },
        debriefs: { type: "string" },
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
  const kind = values.sandbox;
  if (kind !== undefined && !(sandboxKinds as readonly string[]).includes(kind)) {
    console.error(`--sandbox must be one of ${sandboxKinds.join(", ")}; got "${kind}".\n\n${USAGE}`);
    return 2;
  }
  const sshOptionGiven = ["ssh-target", "ssh-identity-file", "ssh-known-hosts-file", "ssh-workspace-root"].some(
    (name) => values[name as "ssh-target"] !== undefined,
  );
  if (sshOptionGiven && kind !== "ssh") {
    console.error(`The --ssh-* options only apply with --sandbox ssh.\n\n${USAGE}`);
    return 2;
  }
  const store = values.credentials;
  if (store !== undefined && !(credentialStoreKinds as readonly string[]).includes(store)) {
    console.error(`--credentials must be one of ${credentialStoreKinds.join(", ")}; got "${store}".\n\n${USAGE}`);
    return 2;
  }
  if (values["token-file"] !== undefined && store !== "token-file") {
    console.error(`--token-file only applies with --credentials token-file.\n\n${USAGE}`);
    return 2;
  }

  try {
    // Before anything is written: can this machine run the sandbox the coach would get?
    const explicit = kind === undefined ? undefined : choose(kind as SandboxKind, values);
    const credentials = store === undefined ? undefined : credentialsOption(store, values["token-file"]);
    const debriefs = values.debriefs === undefined ? undefined : debriefsOption(values.debriefs);
    const plan = await planCoachSandbox(values.config, values["agent-id"], explicit);
    const check = plan.choice ? await checkSandbox(plan.choice, process.env) : undefined;
    // Skipping the check needs a sandbox someone chose: with --sandbox, or the one the config already has.
    const chosen = plan.explicit || plan.action === "keep";
    const proceed = !check || check.runsHere || (chosen && values["skip-sandbox-check"]);
    console.log(formatSandboxCheck(plan, check, { agentId: values["agent-id"], proceeding: proceed }));
    if (!proceed) return 1;

    const report = await runCoachSetup({
      workspace: values.workspace,
      configFile: values.config,
      agentId: values["agent-id"],
      ...(explicit === undefined ? {} : { sandbox: explicit }),
      ...(values["telegram-user-id"] === undefined ? {} : { telegramUserId: values["telegram-user-id"] }),
      ...(credentials === undefined ? {} : { credentials }),
      ...(debriefs === undefined ? {} : { debriefs }),
      dryRun: values["dry-run"],
      env: process.env,
      ...(values.schedule ? { schedule: { openclawBin: values["openclaw-bin"] } } : {}),
    });
    console.log(formatSetupReport(report, values["openclaw-bin"]));
    return report.consolidation.scheduled?.ok === false ? 1 : 0;
  } catch (error) {
    if (error instanceof CoachSetupError) {
      console.error(`Coach setup stopped: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

function choose(kind: SandboxKind, values: Record<string, string | boolean | undefined>): SandboxChoice {
  const text = (name: string): string | undefined => (typeof values[name] === "string" ? (values[name] as string) : undefined);
  switch (kind) {
    case "ssh": {
      const identityFile = text("ssh-identity-file");
      const knownHostsFile = text("ssh-known-hosts-file");
      const workspaceRoot = text("ssh-workspace-root");
      return sshChoice({
        target: text("ssh-target") ?? "",
        ...(identityFile ? { identityFile } : {}),
        ...(knownHostsFile ? { knownHostsFile } : {}),
        ...(workspaceRoot ? { workspaceRoot } : {}),
      });
    }
    case "off":
      return { kind: "off" };
    case "docker":
      return { kind: "docker" };
  }
}

process.exitCode = await main(process.argv.slice(2));
