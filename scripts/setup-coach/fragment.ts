/**
 * The coach agent's host configuration fragment (openclaw.fragment.json), specialised for one
 * agent id, workspace, sandbox choice, credentials store and athlete. The JSON file is the single source of truth: it is
 * written for the agent id "coach" with the Docker sandbox and validated as-is by the real host;
 * other ids, the other sandbox choices, the token file and the athlete's Telegram access are derived
 * from it here.
 */
import { readFileSync } from "node:fs";
import { CoachSetupError } from "./setup-error.ts";
import { cloneJson, ensureObject, isJsonObject, type JsonObject, type JsonValue } from "./json-tree.ts";
import { sandboxBlock, type SandboxChoice } from "./sandbox-choice.ts";
import { pluginConfigFor, type CredentialsChoice } from "./credentials-in-config.ts";

export const fragmentPath = new URL("../../agents/coach/openclaw.fragment.json", import.meta.url);

const agentIdPattern = /^[a-z][a-z0-9_-]{0,63}$/;

export function assertValidAgentId(agentId: string): void {
  if (!agentIdPattern.test(agentId)) {
    throw new CoachSetupError(
      `--agent-id "${agentId}" is not a valid agent id: use 1 to 64 lowercase letters, digits, "-" or "_", starting with a letter (for example "coach").`,
    );
  }
}

/** Name of the environment variable the bot token SecretRef points at, e.g. TELEGRAM_COACH_BOT_TOKEN. */
export function botTokenEnvName(channel: string, accountId: string): string {
  const part = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]+/g, "_");
  return `${part(channel)}_${part(accountId)}_BOT_TOKEN`;
}

export function loadFragmentTemplate(path: URL | string = fragmentPath): JsonObject {
  const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
  if (!isJsonObject(parsed)) throw new CoachSetupError(`${String(path)} must hold a JSON object`);
  return parsed;
}

/** The template's own agent id: the single key of agents.entries. */
export function templateAgentId(template: JsonObject): string {
  const agents = template["agents"];
  const entries = isJsonObject(agents) ? agents["entries"] : undefined;
  const ids = isJsonObject(entries) ? Object.keys(entries) : [];
  const [only] = ids;
  if (ids.length !== 1 || only === undefined) {
    throw new CoachSetupError("the coach fragment must define exactly one agent under agents.entries");
  }
  return only;
}

const telegramUserIdPattern = /^[1-9]\d{0,19}$/;

export function assertValidTelegramUserId(id: string): void {
  if (!telegramUserIdPattern.test(id)) {
    throw new CoachSetupError(
      `--telegram-user-id "${id}" is not a Telegram user id: it is the athlete's numeric id (for example 123456789), not a @username. ` +
        "`openclaw pairing list telegram` shows it for someone who has messaged the bot.",
    );
  }
}

export interface CoachFragmentOptions {
  agentId: string;
  /** Workspace path written into the agent entry (absolute, or `~/...` as the host expands it). */
  workspace: string;
  /** Where the coach's tools run; the template's own block (Docker) when absent. */
  sandbox?: SandboxChoice;
  /**
   * The athlete's numeric Telegram user id: the only sender the coach's account admits (no pairing),
   * and the approver of the coach's Strava writes.
   */
  telegramUserId?: string;
  /** Where the fitness plugin reads the Strava credentials; the template's secret when absent. */
  credentials?: CredentialsChoice;
  /** The plugin's `debriefs` setting ("15m", "off"); the template's when absent. */
  debriefs?: string;
}

/**
 * The fragment for `agentId`: the template with its agent id, account id and bot token variable
 * renamed, the chosen sandbox, and the athlete's access when their Telegram id is known.
 */
export function buildCoachFragment(template: JsonObject, options: CoachFragmentOptions): JsonObject {
  assertValidAgentId(options.agentId);
  const from = templateAgentId(template);
  const to = options.agentId;
  const fragment = cloneJson(template);

  const agents = fragment["agents"] as JsonObject;
  const entries = agents["entries"] as JsonObject;
  const entry = entries[from] as JsonObject;
  entry["workspace"] = options.workspace;
  if (options.sandbox) entry["sandbox"] = sandboxBlock(options.sandbox);
  agents["entries"] = { [to]: entry };

  const fitness = ensureObject(fragment, ["plugins", "entries", "fitness"]);
  const { debriefs, debriefAgent: _templateAgent, ...storeConfig } = isJsonObject(fitness["config"]) ? fitness["config"] : {};
  const pluginConfig: JsonObject = options.credentials ? pluginConfigFor(options.credentials, storeConfig) : storeConfig;
  const debriefSetting = options.debriefs ?? debriefs;
  if (debriefSetting !== undefined) pluginConfig["debriefs"] = debriefSetting;
  // The debriefs wake the agent set up here, on the channel it is bound to.
  pluginConfig["debriefAgent"] = to;
  fitness["config"] = pluginConfig;

  const agentToAgent = (fragment["tools"] as JsonObject | undefined)?.["agentToAgent"];
  if (isJsonObject(agentToAgent) && Array.isArray(agentToAgent["allow"])) {
    agentToAgent["allow"] = agentToAgent["allow"].map((id) => (id === from ? to : id));
  }

  const bindings = Array.isArray(fragment["bindings"]) ? fragment["bindings"] : [];
  for (const binding of bindings) {
    if (!isJsonObject(binding) || !isJsonObject(binding["match"])) continue;
    const match = binding["match"];
    if (binding["agentId"] === from) binding["agentId"] = to;
    const channel = match["channel"];
    if (typeof channel !== "string" || match["accountId"] !== from) continue;
    match["accountId"] = to;
    renameChannelAccount(fragment, channel, from, to);
    const account = ensureObject(fragment, ["channels", channel, "accounts", to]);
    // Approvals through this account are the coach's only: another agent's never go out through its bot.
    const approvals = account["execApprovals"];
    if (isJsonObject(approvals)) approvals["agentFilter"] = [to];
    if (options.telegramUserId !== undefined && channel === "telegram") admitAthlete(account, options.telegramUserId);
  }
  return fragment;
}

function admitAthlete(account: JsonObject, userId: string): void {
  assertValidTelegramUserId(userId);
  account["dmPolicy"] = "allowlist";
  account["allowFrom"] = [userId];
  const approvals = isJsonObject(account["execApprovals"]) ? account["execApprovals"] : {};
  account["execApprovals"] = { enabled: true, approvers: [userId], ...approvals };
}

function renameChannelAccount(fragment: JsonObject, channel: string, from: string, to: string): void {
  const channels = fragment["channels"];
  const channelConfig = isJsonObject(channels) ? channels[channel] : undefined;
  const accounts = isJsonObject(channelConfig) ? channelConfig["accounts"] : undefined;
  if (!isJsonObject(accounts) || !isJsonObject(channelConfig)) return;
  const account = accounts[from];
  if (account === undefined) return;
  renameEnvSecretRefs(account, botTokenEnvName(channel, from), botTokenEnvName(channel, to));
  channelConfig["accounts"] = { ...Object.fromEntries(Object.entries(accounts).filter(([key]) => key !== from)), [to]: account };
}

/** Points every `{source: "env", id: fromId}` SecretRef below `node` at `toId`. */
function renameEnvSecretRefs(node: JsonValue, fromId: string, toId: string): void {
  if (Array.isArray(node)) {
    node.forEach((item) => renameEnvSecretRefs(item, fromId, toId));
  } else if (isJsonObject(node)) {
    if (node["source"] === "env" && node["id"] === fromId) node["id"] = toId;
    Object.values(node).forEach((value) => renameEnvSecretRefs(value, fromId, toId));
  }
}
