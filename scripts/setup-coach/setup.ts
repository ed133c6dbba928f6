/**
 * The coach setup: install workspace files, merge the host config fragment, and (optionally)
 * schedule the weekly memory consolidation. Everything is checked before anything is written; the
 * sandbox the run leaves in the config (planCoachSandbox: the --sandbox choice, else the config's own,
 * else Docker) is checked against this machine by the caller first (sandbox-choice.ts). The plugin's
 * credentials store (the --credentials choice, else the config's own, else the plugin's default
 * secret) is written and reported, and a token file it names is checked (credentials-in-config.ts).
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { backupHostConfig, loadHostConfig, writeHostConfig } from "./config-file.ts";
import { diffConfigs, type ConfigChange } from "./config-diff.ts";
import { assertValidAgentId, assertValidTelegramUserId, buildCoachFragment, loadFragmentTemplate } from "./fragment.ts";
import { getPath, isJsonObject, type JsonObject, type JsonValue } from "./json-tree.ts";
import { mergeCoachFragment, type KeptValue } from "./merge-config.ts";
import type { SandboxChoice } from "./sandbox-choice.ts";
import { configuredSandbox, planSandbox, type ConfiguredSandbox, type SandboxPlan } from "./sandbox-in-config.ts";
import {
  checkTokenFile,
  configuredCredentials,
  effectiveCredentials,
  planCredentials,
  type ConfiguredCredentials,
  type CredentialsChoice,
  type CredentialsPlan,
  type EffectiveCredentials,
  type TokenFileCheck,
} from "./credentials-in-config.ts";
import { CoachSetupError } from "./setup-error.ts";
import { configuredDebriefs, planDebriefs, type DebriefsPlan } from "./debriefs-in-config.ts";
import { consolidationCronArgs, scheduleConsolidation, type ScheduleOutcome } from "./weekly-consolidation.ts";
import { installWorkspaceFiles, type WorkspaceInstallReport } from "./workspace-files.ts";
import { home as homeSetting } from "../../common/settings/host-variables.ts";
import { readSetting } from "../../common/settings/setting.ts";

export interface CoachSetupOptions {
  workspace: string;
  configFile: string;
  agentId: string;
  /**
   * The --sandbox choice, if one was given: it replaces a different sandbox block. Without it the
   * config's own choice is kept, and a config without one gets Docker. (The caller checks the result
   * against this machine first, with planCoachSandbox.)
   */
  sandbox?: SandboxChoice;
  /** The athlete's numeric Telegram user id: admitted without pairing, and the approver of Strava writes. */
  telegramUserId?: string;
  /**
   * The --credentials choice, if one was given: it replaces the plugin's credentialStore (and tokenFile).
   * Without it the config's own choice is kept, and a config without one keeps the plugin's default.
   */
  credentials?: CredentialsChoice;
  /**
   * The --debriefs choice ("15m", "off"), if one was given: it replaces the plugin's debriefs setting.
   * Without it the config's own is kept, and a config without one gets the coach's default (the fragment's).
   */
  debriefs?: string;
  dryRun: boolean;
  env: Readonly<Record<string, string | undefined>>;
  /** When set, run `<openclawBin> cron add ...` against the running Gateway after the config is written. */
  schedule?: { openclawBin: string };
  now?: Date;
}

export interface CoachSetupReport {
  agentId: string;
  sandbox: {
    /** What the run did with the coach's sandbox block, and why. */
    plan: SandboxPlan;
    /** The block as the written config holds it (or would, in a dry run): what the report describes. */
    inConfig: ConfiguredSandbox;
  };
  telegramUserId?: string;
  credentials: {
    /** What the run did with the plugin's credentialStore and tokenFile, and why. */
    plan: CredentialsPlan;
    /** The plugin config's credential keys as the written config holds them (or would, in a dry run). */
    inConfig: ConfiguredCredentials;
    /** The store the plugin will use with that config, its defaults filled in. */
    effective: EffectiveCredentials;
    /** The token file, when the plugin reads one: there, 0600, with what the plugin needs. */
    tokenFile?: TokenFileCheck;
  };
  /** What the run did with the plugin's debriefs setting, and the value the config holds after it. */
  debriefs: DebriefsPlan;
  workspaceDir: string;
  configFile: string;
  dryRun: boolean;
  workspace: WorkspaceInstallReport;
  config: {
    existed: boolean;
    changes: ConfigChange[];
    kept: KeptValue[];
    notes: string[];
    /** Backup of the previous file, made only when something changed. */
    backup?: string;
    written: boolean;
    json5FormattingLost: boolean;
  };
  consolidation: { args: string[]; scheduled?: ScheduleOutcome };
  /** Environment variables the fragment's SecretRefs read (the Gateway needs them set). */
  secretEnvVars: string[];
  /**
   * Whether the config loads the fitness plugin from a folder (plugins.load.paths). A plugin installed as a
   * package is recorded in the host's own state, not in the config, so false does not mean it is missing.
   */
  pluginLoadedFromPath: boolean;
}

export async function runCoachSetup(options: CoachSetupOptions): Promise<CoachSetupReport> {
  const planned = await planSetup(options);
  const { changes, merged, loaded, configFile } = planned;
  const workspace = await installWorkspaceFiles(planned.workspaceDir, { dryRun: options.dryRun });
  let backup: string | undefined;
  const willWrite = changes.length > 0 && !options.dryRun;
  if (willWrite) {
    if (loaded.exists) backup = await backupHostConfig(configFile, options.now);
    await writeHostConfig(configFile, merged.config);
  }
  const args = consolidationCronArgs(options.agentId);
  let scheduled: ScheduleOutcome | undefined;
  if (options.schedule && !options.dryRun) {
    scheduled = await scheduleConsolidation(options.schedule.openclawBin, args, options.env);
  }
  return {
    ...plannedReport(options, planned),
    workspace,
    config: {
      existed: loaded.exists,
      changes,
      kept: merged.kept,
      notes: merged.notes,
      ...(backup === undefined ? {} : { backup }),
      written: willWrite,
      json5FormattingLost: willWrite && loaded.usesJson5Syntax,
    },
    consolidation: { args, ...(scheduled === undefined ? {} : { scheduled }) },
  };
}

/** What a run decides before it writes anything: the config as loaded, each setting's plan, the fragment and the merge. */
interface PlannedSetup {
  workspaceDir: string;
  configFile: string;
  loaded: Awaited<ReturnType<typeof loadHostConfig>>;
  sandbox: SandboxPlan;
  credentials: CredentialsPlan;
  debriefs: DebriefsPlan;
  fragment: JsonObject;
  merged: ReturnType<typeof mergeCoachFragment>;
  changes: ConfigChange[];
}

/** Everything checked and decided, nothing written: a bad option or a config that must not be merged stops here. */
async function planSetup(options: CoachSetupOptions): Promise<PlannedSetup> {
  assertValidAgentId(options.agentId);
  if (options.telegramUserId !== undefined) assertValidTelegramUserId(options.telegramUserId);
  const workspaceDir = path.resolve(options.workspace);
  const configFile = path.resolve(options.configFile);
  const loaded = await loadHostConfig(configFile);
  refuseOtherWorkspace(loaded.config, options.agentId, workspaceDir, options.env);
  const sandbox = planSandbox(options.sandbox, configuredSandbox(loaded.config, options.agentId));
  const credentials = planCredentials(options.credentials, configuredCredentials(loaded.config));
  const template = loadFragmentTemplate();
  const debriefs = planDebriefs(options.debriefs, configuredDebriefs(loaded.config), fragmentDebriefs(template));
  const fragment = buildCoachFragment(template, {
    agentId: options.agentId,
    workspace: workspaceDir,
    ...(sandbox.choice === undefined ? {} : { sandbox: sandbox.choice }),
    ...(options.telegramUserId === undefined ? {} : { telegramUserId: options.telegramUserId }),
    ...(credentials.choice === undefined ? {} : { credentials: credentials.choice }),
    debriefs: debriefs.value,
  });
  const merged = mergeCoachFragment(loaded.config, fragment, {
    env: options.env,
    sandbox: sandbox.action === "replace" ? "replace" : "keep",
    credentials: credentials.action === "replace" ? "replace" : "keep",
    debriefs: debriefs.action === "replace" ? "replace" : "keep",
  });
  const changes = diffConfigs(loaded.config, merged.config);
  return { workspaceDir, configFile, loaded, sandbox, credentials, debriefs, fragment, merged, changes };
}

/** The report's parts that describe the config as written (or as it would be, in a dry run). */
function plannedReport(
  options: CoachSetupOptions,
  { workspaceDir, configFile, sandbox, credentials, debriefs, fragment, merged }: PlannedSetup,
): Omit<CoachSetupReport, "workspace" | "config" | "consolidation"> {
  const inConfig = configuredCredentials(merged.config);
  const effective = effectiveCredentials(inConfig, readSetting(options.env, homeSetting) ?? homedir());
  return {
    agentId: options.agentId,
    sandbox: { plan: sandbox, inConfig: configuredSandbox(merged.config, options.agentId) },
    ...(options.telegramUserId === undefined ? {} : { telegramUserId: options.telegramUserId }),
    credentials: {
      plan: credentials,
      inConfig,
      effective,
      ...(effective.kind === "token-file" ? { tokenFile: checkTokenFile(effective.path, effective.tokenFile) } : {}),
    },
    debriefs,
    workspaceDir,
    configFile,
    dryRun: options.dryRun,
    secretEnvVars: envSecretIds(fragment),
    pluginLoadedFromPath: loadsFitnessPluginFromPath(merged.config, configFile, options.env),
  };
}

/**
 * The sandbox a run with this --sandbox choice (or none) leaves in the config file, for the check
 * that comes before anything is written. A missing file has no sandbox yet.
 */
export async function planCoachSandbox(configFile: string, agentId: string, explicit: SandboxChoice | undefined): Promise<SandboxPlan> {
  assertValidAgentId(agentId);
  const loaded = await loadHostConfig(path.resolve(configFile));
  return planSandbox(explicit, configuredSandbox(loaded.config, agentId));
}

/** The coach's default debriefs setting: the fragment template's. */
function fragmentDebriefs(template: JsonObject): string {
  const value = getPath(template, ["plugins", "entries", "fitness", "config", "debriefs"]);
  if (typeof value !== "string") throw new CoachSetupError("the coach fragment must set plugins.entries.fitness.config.debriefs");
  return value;
}

/** Whether a folder in plugins.load.paths (relative ones from the config file's folder) has the fitness plugin's manifest. */
function loadsFitnessPluginFromPath(config: JsonObject, configFile: string, env: CoachSetupOptions["env"]): boolean {
  const paths = getPath(config, ["plugins", "load", "paths"]);
  if (!Array.isArray(paths)) return false;
  const home = readSetting(env, homeSetting) ?? homedir();
  return paths.some((entry) => {
    if (typeof entry !== "string") return false;
    try {
      const folder = path.resolve(path.dirname(configFile), entry.replace(/^~(?=$|\/)/, home));
      const manifest = JSON.parse(readFileSync(path.join(folder, "openclaw.plugin.json"), "utf8")) as { id?: unknown };
      return manifest.id === "fitness";
    } catch {
      return false;
    }
  });
}

function envSecretIds(node: JsonValue): string[] {
  if (Array.isArray(node)) return node.flatMap(envSecretIds);
  if (!isJsonObject(node)) return [];
  const own = node["source"] === "env" && typeof node["id"] === "string" ? [node["id"]] : [];
  return [...own, ...Object.values(node).flatMap(envSecretIds)];
}

/** Installing files into a directory the host does not use for this agent would only mislead. */
function refuseOtherWorkspace(config: JsonObject, agentId: string, workspaceDir: string, env: CoachSetupOptions["env"]): void {
  const configured = getPath(config, ["agents", "entries", agentId, "workspace"]);
  if (typeof configured !== "string") return;
  const home = readSetting(env, homeSetting) ?? homedir();
  const expanded = path.resolve(configured.replace(/^~(?=$|\/)/, home));
  if (expanded !== workspaceDir) {
    throw new CoachSetupError(
      `the host config already gives agent "${agentId}" the workspace ${configured}, not ${workspaceDir}. ` +
        `Run setup with --workspace ${configured}, or change agents.entries.${agentId}.workspace first.`,
    );
  }
}
