/**
 * Merges the coach fragment into an existing host config without clobbering it.
 *
 * Rules: missing keys are added; existing values are kept (a differing one is reported, never
 * overwritten); arrays merge by identity (bindings by agentId + match, plain lists as sets), so
 * running the merge twice changes nothing the second time. On top of that, the rules that keep an
 * existing install working once a second agent appears, mirroring what `openclaw agents add`
 * does on 2026.9.x (checked against openclaw 2026.9.6):
 * - an implicit sole agent ("main", or the only entry) becomes an explicit entry with its
 *   workspace pinned, and keeps ambient ownership (system agent, heartbeat, talk) and every
 *   channel it already served (a channel-wide binding), because an explicit roster has no default;
 * - a channel configured at its root (one implicit account) keeps that account as `default`
 *   when the coach's account is added, because the host ignores root credentials once
 *   `accounts` exists;
 * - an unset tools.agentToAgent.allow (everyone may reach everyone) becomes the full roster,
 *   not just the coach, so adding the coach does not cut other agents off from each other;
 * - the coach's channel account never becomes the channel's default account, because other agents'
 *   messages sent without an account (heartbeats to "the owner", cron announcements, the message
 *   tool) go out through the default one: an existing default is pinned, or a disabled placeholder
 *   holds the slot (checked against openclaw 2026.9.6: with the coach's bot as the only Telegram
 *   account, the main agent's heartbeat alert reached the athlete through it);
 * - an existing sandbox block of the coach is kept whole unless the caller replaces it (an explicit
 *   --sandbox choice, sandbox-in-config.ts): adding the fragment's keys to it could switch its backend
 *   or mode without anyone choosing that;
 * - the fitness plugin's credentialStore and tokenFile are replaced only by an explicit --credentials
 *   choice (credentials-in-config.ts), its debriefs only by an explicit --debriefs (debriefs-in-config.ts);
 *   its other settings are only added to.
 */
import path from "node:path";
import { templateAgentId } from "./fragment.ts";
import { chosenCredentialKeys, pluginConfigPath } from "./credentials-in-config.ts";
import { chosenDebriefKeys } from "./debriefs-in-config.ts";
import {
  canonicalJson,
  cloneJson,
  ensureObject,
  findKeyPaths,
  getPath,
  isJsonObject,
  jsonEqual,
  type JsonObject,
  type JsonValue,
} from "./json-tree.ts";
import { CoachSetupError } from "./setup-error.ts";
import { openclawProfile, openclawStateDir, openclawWorkspaceDir } from "../../common/settings/host-variables.ts";
import { readSetting } from "../../common/settings/setting.ts";

/** An existing value that differs from what the fragment suggests; it was kept, not replaced. */
export interface KeptValue {
  path: string;
  existing: JsonValue;
  suggested: JsonValue;
  reason: string;
}

export interface MergeResult {
  config: JsonObject;
  kept: KeptValue[];
  /** Changes made beyond adding fragment keys, and warnings, in plain words. */
  notes: string[];
}

export interface MergeContext {
  /** Environment used to find the host's default workspace (OPENCLAW_STATE_DIR and friends). */
  env: Readonly<Record<string, string | undefined>>;
  /** An existing sandbox block of the coach is kept whole (the default) or replaced by the fragment's. */
  sandbox?: "keep" | "replace";
  /** The plugin's credentialStore and tokenFile are kept (the default) or replaced by the fragment's. */
  credentials?: "keep" | "replace";
  /** The plugin's debriefs setting is kept (the default) or replaced by the fragment's (an explicit --debriefs). */
  debriefs?: "keep" | "replace";
}

/** Keys under `channels` that are not channels. */
const channelSettingKeys = new Set(["defaults", "modelByChannel"]);
/** Root-level channel keys that define an implicit (default) account. */
const rootCredentialKeys = ["botToken", "tokenFile", "token", "appToken"];
/** Tool-policy keys the host refuses to see together in one scope. */
const exclusivePolicyKeys: Record<string, string> = { allow: "alsoAllow", alsoAllow: "allow" };

export function mergeCoachFragment(existing: JsonObject, fragmentIn: JsonObject, context: MergeContext): MergeResult {
  refuseUnmergeable(existing);
  const config = cloneJson(existing);
  const fragment = cloneJson(fragmentIn);
  const kept: KeptValue[] = [];
  const notes: string[] = [];
  const coachId = templateAgentId(fragment);

  prepareRoster(config, fragment, coachId, context, notes);
  prepareAgentToAgent(config, coachId, notes);
  keepImplicitChannelAccounts(config, fragment, notes);
  keepCoachAccountsOffDefault(config, fragment, coachId, notes);
  settleExistingSandbox(config, fragment, coachId, context.sandbox ?? "keep");
  if (context.credentials === "replace") replaceChosenPluginKeys(config, fragment, chosenCredentialKeys);
  if (context.debriefs === "replace") replaceChosenPluginKeys(config, fragment, chosenDebriefKeys);
  allowFragmentPlugins(config, fragment, notes);
  fillMissing(config, fragment, [], kept);
  return { config, kept, notes };
}

function refuseUnmergeable(existing: JsonObject): void {
  const includes = findKeyPaths(existing, "$include");
  if (includes.length > 0) {
    throw new CoachSetupError(
      `the host config splits itself with $include (${includes.join(", ")}); merging into included files is not supported. ` +
        "Merge agents/coach/openclaw.fragment.json by hand, or inline the included sections and run setup again.",
    );
  }
  const legacyList = getPath(existing, ["agents", "list"]);
  if (Array.isArray(legacyList) && legacyList.length > 0) {
    throw new CoachSetupError(
      "the host config still uses the legacy agents.list roster. Run `openclaw doctor --fix` to migrate it to agents.entries, then run setup again.",
    );
  }
  const entries = getPath(existing, ["agents", "entries"]);
  if (entries !== undefined && !isJsonObject(entries)) {
    throw new CoachSetupError("agents.entries in the host config must be an object keyed by agent id");
  }
}

/** Makes an implicit or sole agent explicit before the coach joins the roster (see the file comment). */
function prepareRoster(config: JsonObject, fragment: JsonObject, coachId: string, context: MergeContext, notes: string[]): void {
  const entries = getPath(config, ["agents", "entries"]);
  const ids = isJsonObject(entries) ? Object.keys(entries) : [];
  const hasDefaultMarker =
    isJsonObject(entries) && Object.values(entries).some((entry) => isJsonObject(entry) && entry["default"] === true);
  const ownershipSet = getPath(config, ["agents", "ownership"]) !== undefined;

  if (hasDefaultMarker && !ownershipSet) {
    // A legacy `default: true` owner still serves ambient traffic; stamping explicit ownership would take that away.
    delete (fragment["agents"] as JsonObject)["ownership"];
    notes.push("agents.ownership left unset: an agent is marked `default: true` and keeps serving unbound traffic.");
    return;
  }
  const others = ids.filter((id) => id !== coachId);
  if (ownershipSet || ids.includes(coachId) || others.length > 1) return;

  const owner = others[0] ?? "main";
  const ownerEntry = ensureObject(config, ["agents", "entries", owner]);
  if (ownerEntry["workspace"] === undefined) {
    ownerEntry["workspace"] = defaultWorkspace(config, context.env);
    notes.push(
      `agents.entries.${owner} made explicit with workspace ${String(ownerEntry["workspace"])} (its current workspace), so it keeps its files and memory.`,
    );
  }
  const ambientOwners: string[][] = [["agents", "defaults", "systemAgent"], ["agents", "defaults", "heartbeat"], ["talk"]];
  for (const ownerPath of ambientOwners) {
    const node = ensureObject(config, ownerPath);
    if (node["agentId"] === undefined) {
      node["agentId"] = owner;
      notes.push(`${ownerPath.join(".")}.agentId set to "${owner}": with more than one agent the host needs an explicit owner.`);
    }
  }
  const channels = getPath(config, ["channels"]);
  if (!isJsonObject(channels)) return;
  const bindings = Array.isArray(config["bindings"]) ? config["bindings"] : [];
  for (const channel of Object.keys(channels)) {
    if (channelSettingKeys.has(channel)) continue;
    const alreadyBound = bindings.some((binding) => getPath(binding, ["match", "channel"]) === channel);
    if (alreadyBound) continue;
    bindings.push({ agentId: owner, match: { channel, accountId: "*" } });
    notes.push(
      `bindings: ${channel} (all accounts) bound to "${owner}", which served it before; the coach's own account binding is more specific and wins for that account.`,
    );
  }
  config["bindings"] = bindings;
}

/** The workspace the host gives its sole default agent, as OpenClaw 2026.9 resolves it. */
export function defaultWorkspace(config: JsonObject, env: MergeContext["env"]): string {
  const configured = getPath(config, ["agents", "defaults", "workspace"]);
  if (typeof configured === "string" && configured.trim() !== "") return configured;
  const workspace = readSetting(env, openclawWorkspaceDir);
  if (workspace) return workspace;
  const state = readSetting(env, openclawStateDir);
  if (state) return path.join(state, "workspace");
  const profile = readSetting(env, openclawProfile);
  if (profile && profile !== "default") return `~/.openclaw-${profile}/workspace`;
  return "~/.openclaw/workspace";
}

function prepareAgentToAgent(config: JsonObject, coachId: string, notes: string[]): void {
  const current = getPath(config, ["tools", "agentToAgent", "allow"]);
  if (Array.isArray(current) && current.length > 0) return; // set semantics: fillMissing adds the coach
  const entries = getPath(config, ["agents", "entries"]);
  const roster = [...new Set([...(isJsonObject(entries) ? Object.keys(entries) : []), coachId])];
  if (roster.length > 1) {
    ensureObject(config, ["tools", "agentToAgent"])["allow"] = roster;
    notes.push(
      `tools.agentToAgent.allow was unset (every agent could reach every other); it now lists the whole roster (${roster.join(", ")}) so that stays true with the coach added.`,
    );
  }
}

/** Keeps a channel's implicit root-level account alive when the fragment adds a named account. */
function keepImplicitChannelAccounts(config: JsonObject, fragment: JsonObject, notes: string[]): void {
  const fragmentChannels = getPath(fragment, ["channels"]);
  if (!isJsonObject(fragmentChannels)) return;
  for (const channel of Object.keys(fragmentChannels)) {
    if (!isJsonObject(getPath(fragmentChannels, [channel, "accounts"]))) continue;
    const existing = getPath(config, ["channels", channel]);
    if (!isJsonObject(existing)) continue;
    const accounts = existing["accounts"];
    if (isJsonObject(accounts) && Object.keys(accounts).length > 0) continue;
    if (!rootCredentialKeys.some((key) => existing[key] !== undefined)) continue;
    if (existing["defaultAccount"] !== undefined) continue;
    existing["accounts"] = { ...(isJsonObject(accounts) ? accounts : {}), default: {} };
    notes.push(
      `channels.${channel}.accounts.default added: your existing ${channel} bot (configured at channels.${channel}) keeps running as the "default" account next to the coach's account.`,
    );
  }
}

/** The accounts the fragment binds to the coach, by channel (the coach's own bot accounts). */
function coachAccounts(fragment: JsonObject, coachId: string): Array<{ channel: string; accountId: string }> {
  const bindings = Array.isArray(fragment["bindings"]) ? fragment["bindings"] : [];
  return bindings.flatMap((binding) => {
    const channel = getPath(binding, ["match", "channel"]);
    const accountId = getPath(binding, ["match", "accountId"]);
    return getPath(binding, ["agentId"]) === coachId && typeof channel === "string" && typeof accountId === "string" && accountId !== "*"
      ? [{ channel, accountId }]
      : [];
  });
}

/** Keeps the coach's account from being the channel's default account (see the file comment). */
function keepCoachAccountsOffDefault(config: JsonObject, fragment: JsonObject, coachId: string, notes: string[]): void {
  for (const { channel, accountId } of coachAccounts(fragment, coachId)) {
    const existing = getPath(config, ["channels", channel]);
    const channelConfig = isJsonObject(existing) ? existing : undefined;
    const pinned = channelConfig?.["defaultAccount"];
    if (typeof pinned === "string") {
      if (pinned.trim().toLowerCase() === accountId) {
        notes.push(
          `WARNING channels.${channel}.defaultAccount is "${pinned}", the coach's own account: other agents' messages sent without an account (heartbeats, announcements) would reach the athlete through the coach's bot. Point it at another account.`,
        );
      }
      continue;
    }
    const accounts = isJsonObject(channelConfig?.["accounts"]) ? (channelConfig["accounts"] as JsonObject) : {};
    const ids = Object.keys(accounts).filter((id) => id.trim().toLowerCase() !== accountId);
    if (ids.some((id) => id.trim().toLowerCase() === "default")) continue;
    const target = ensureObject(config, ["channels", channel]);
    const [first] = ids.map((id) => id.trim().toLowerCase()).sort();
    if (first !== undefined) {
      target["defaultAccount"] = first;
      notes.push(
        `channels.${channel}.defaultAccount set to "${first}" (the account the host used by default before): otherwise the coach's account could become the default one, and other agents' messages would go out through the coach's bot.`,
      );
    } else {
      ensureObject(target, ["accounts"])["default"] = { enabled: false };
      notes.push(
        `channels.${channel}.accounts.default added, disabled: with the coach's bot as the only ${channel} account it would be the default one, and other agents' messages sent without an account (the main agent's heartbeat alerts, announcements) would reach the athlete through it. Configure your own bot as accounts.default to get them on ${channel}.`,
      );
    }
  }
}

/** An existing sandbox block of the coach stays exactly as it is, or is replaced whole by the fragment's. */
function settleExistingSandbox(config: JsonObject, fragment: JsonObject, coachId: string, how: "keep" | "replace"): void {
  const path = ["agents", "entries", coachId, "sandbox"];
  const existing = getPath(config, path);
  const suggested = getPath(fragment, path);
  if (existing === undefined || suggested === undefined || jsonEqual(existing, suggested)) return;
  // Replaced: fillMissing then adds the fragment's block where the old one was. Kept: the fragment's is dropped.
  const owner = how === "replace" ? getPath(config, path.slice(0, -1)) : getPath(fragment, path.slice(0, -1));
  if (isJsonObject(owner)) delete owner["sandbox"];
}

/** The fragment's values of `keys` (an explicit choice) take the place of differing ones (fillMissing then adds them). */
function replaceChosenPluginKeys(config: JsonObject, fragment: JsonObject, keys: readonly string[]): void {
  const existing = getPath(config, pluginConfigPath);
  const suggested = getPath(fragment, pluginConfigPath);
  if (!isJsonObject(existing) || !isJsonObject(suggested)) return;
  for (const key of keys) {
    if (suggested[key] !== undefined && !jsonEqual(existing[key], suggested[key])) delete existing[key];
  }
}

/** A plugins.allow allowlist would keep the fitness plugin from loading; add the fragment's plugins to it. */
function allowFragmentPlugins(config: JsonObject, fragment: JsonObject, notes: string[]): void {
  const pluginIds = Object.keys((getPath(fragment, ["plugins", "entries"]) as JsonObject | undefined) ?? {});
  const allow = getPath(config, ["plugins", "allow"]);
  if (Array.isArray(allow)) {
    for (const id of pluginIds) {
      if (!allow.includes(id)) {
        allow.push(id);
        notes.push(`plugins.allow: added "${id}", or the allowlist would keep the plugin from loading.`);
      }
    }
  }
  const deny = getPath(config, ["plugins", "deny"]);
  for (const id of pluginIds) {
    if (Array.isArray(deny) && deny.includes(id)) {
      notes.push(`WARNING plugins.deny lists "${id}": the plugin stays blocked until you remove it from plugins.deny.`);
    }
  }
}

/** Adds what `source` has and `target` lacks; records differing existing values in `kept`. */
function fillMissing(target: JsonObject, source: JsonObject, at: string[], kept: KeptValue[]): void {
  for (const [key, suggested] of Object.entries(source)) {
    const here = [...at, key];
    const existing = target[key];
    const exclusive = exclusivePolicyKeys[key];
    if (existing === undefined && exclusive !== undefined && target[exclusive] !== undefined) {
      kept.push({
        path: [...at, exclusive].join("."),
        existing: target[exclusive],
        suggested: { [key]: suggested },
        reason: `the host rejects ${key} and ${exclusive} in one scope; kept ${exclusive}. Move the suggested entries there yourself if you want them.`,
      });
      continue;
    }
    if (existing === undefined) {
      target[key] = cloneJson(suggested);
    } else if (isJsonObject(existing) && isJsonObject(suggested)) {
      fillMissing(existing, suggested, here, kept);
    } else if (Array.isArray(existing) && Array.isArray(suggested)) {
      mergeArray(existing, suggested, here, kept);
    } else if (!jsonEqual(existing, suggested)) {
      kept.push({ path: here.join("."), existing, suggested, reason: "an existing value is never overwritten" });
    }
  }
}

function mergeArray(existing: JsonValue[], suggested: JsonValue[], at: string[], kept: KeptValue[]): void {
  const isBindings = at.length === 1 && at[0] === "bindings";
  for (const item of suggested) {
    if (isBindings) {
      const match = canonicalJson(getPath(item, ["match"]));
      const sameRoute = existing.find((binding) => canonicalJson(getPath(binding, ["match"])) === match);
      if (sameRoute === undefined) {
        existing.push(cloneJson(item));
      } else if (getPath(sameRoute, ["agentId"]) !== getPath(item, ["agentId"])) {
        kept.push({
          path: `bindings[${existing.indexOf(sameRoute)}]`,
          existing: sameRoute,
          suggested: item,
          reason: "that route is already bound to another agent; kept it. Remove that binding if the coach should answer there.",
        });
      }
    } else if (!existing.some((present) => jsonEqual(present, item))) {
      existing.push(cloneJson(item));
    }
  }
}
