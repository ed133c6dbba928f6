/**
 * The options of `npm run setup:coach`: its usage text, and the arguments read into the choices a run is made with.
 * A mistake is a `SetupUsageError` naming it, which the command prints above the usage text and exits 2 for.
 */
import { parseArgs } from "node:util";
import { defaultTokenFileText } from "../../common/settings/credential-variables.ts";
import { credentialsOption, credentialStoreKinds, type CredentialsChoice } from "./credentials-in-config.ts";
import { debriefsOption } from "./debriefs-in-config.ts";
import { sandboxKinds, sshChoice, type SandboxChoice, type SandboxKind } from "./sandbox-choice.ts";

export const usage = `Usage: npm run setup:coach -- --workspace DIR --config FILE [options]

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

/** A mistake in the arguments; the message says which. */
export class SetupUsageError extends Error {}

/** What a run of the command is asked to do. */
export interface SetupCommandOptions {
  workspace: string;
  configFile: string;
  agentId: string;
  /** The --sandbox choice, if given. */
  sandbox: SandboxChoice | undefined;
  skipSandboxCheck: boolean;
  telegramUserId: string | undefined;
  credentials: CredentialsChoice | undefined;
  debriefs: string | undefined;
  dryRun: boolean;
  /** The openclaw executable, when --schedule asks for the weekly job to be created. */
  schedule: { openclawBin: string } | undefined;
  openclawBin: string;
}

/** The run's options, or "help"; a `SetupUsageError` for a mistake, a `CoachSetupError` for a bad --credentials or --debriefs value. */
export function parseSetupOptions(argv: readonly string[]): SetupCommandOptions | "help" {
  const values = parsedArguments(argv);
  if (values.help) return "help";
  if (!values.workspace || !values.config) throw new SetupUsageError("Both --workspace and --config are required.");
  const kind = values.sandbox;
  if (kind !== undefined && !(sandboxKinds as readonly string[]).includes(kind)) {
    throw new SetupUsageError(`--sandbox must be one of ${sandboxKinds.join(", ")}; got "${kind}".`);
  }
  const sshOptionGiven = ["ssh-target", "ssh-identity-file", "ssh-known-hosts-file", "ssh-workspace-root"].some(
    (name) => values[name as "ssh-target"] !== undefined,
  );
  if (sshOptionGiven && kind !== "ssh") throw new SetupUsageError("The --ssh-* options only apply with --sandbox ssh.");
  const store = values.credentials;
  if (store !== undefined && !(credentialStoreKinds as readonly string[]).includes(store)) {
    throw new SetupUsageError(`--credentials must be one of ${credentialStoreKinds.join(", ")}; got "${store}".`);
  }
  if (values["token-file"] !== undefined && store !== "token-file") {
    throw new SetupUsageError("--token-file only applies with --credentials token-file.");
  }
  return {
    workspace: values.workspace,
    configFile: values.config,
    agentId: values["agent-id"],
    skipSandboxCheck: values["skip-sandbox-check"],
    telegramUserId: values["telegram-user-id"],
    dryRun: values["dry-run"],
    schedule: values.schedule ? { openclawBin: values["openclaw-bin"] } : undefined,
    openclawBin: values["openclaw-bin"],
    // Checked in this order, as the command always has: a bad SSH target before a bad store or debriefs value.
    sandbox: kind === undefined ? undefined : choose(kind as SandboxKind, values),
    credentials: store === undefined ? undefined : credentialsOption(store, values["token-file"]),
    debriefs: values.debriefs === undefined ? undefined : debriefsOption(values.debriefs),
  };
}

function parsedArguments(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
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
    }).values;
  } catch (error) {
    throw new SetupUsageError((error as Error).message);
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
