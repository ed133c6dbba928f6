// The coach's host config fragment (every key the coach needs, in the 2026.9 host's form) and the
// merge rules that put it into an existing config without clobbering anything.
import { describe, expect, it } from "vitest";
import { diffConfigs, formatChanges } from "../../../scripts/setup-coach/config-diff.ts";
import { buildCoachFragment, loadFragmentTemplate } from "../../../scripts/setup-coach/fragment.ts";
import { getPath, type JsonObject, type JsonValue } from "../../../scripts/setup-coach/json-tree.ts";
import { defaultWorkspace, mergeCoachFragment } from "../../../scripts/setup-coach/merge-config.ts";
import { CoachSetupError } from "../../../scripts/setup-coach/setup-error.ts";
import type { SandboxChoice } from "../../../scripts/setup-coach/sandbox-choice.ts";

const template = loadFragmentTemplate();
const fragment = (agentId = "coach", workspace = "/srv/coach", extra: { sandbox?: SandboxChoice; telegramUserId?: string } = {}) =>
  buildCoachFragment(template, { agentId, workspace, ...extra });
const merge = (existing: JsonObject, env: Record<string, string> = {}) => mergeCoachFragment(existing, fragment(), { env });
const SPEC_TOOLS = ["fitness", "read", "write", "web_fetch", "web_search"];
/** The value at a dotted path, e.g. at(config, "agents.entries.coach.name"). */
const at = (root: JsonValue, dotted: string) => getPath(root, dotted.split("."));
const keys = (root: JsonValue, dotted: string) => Object.keys((at(root, dotted) as JsonObject | undefined) ?? {});

describe("the fragment", () => {
  it("has every key of the coach's host configuration, in the keyed 2026.9 form", () => {
    const f = fragment();
    expect(at(f, "agents.ownership")).toBe("explicit");
    expect(keys(f, "agents.entries")).toEqual(["coach"]); // the key is the agent id (an `id` field is rejected)
    expect(at(f, "agents.entries.coach.id")).toBeUndefined();
    expect(at(f, "agents.entries.coach.name")).toBe("Coach");
    expect(at(f, "agents.entries.coach.workspace")).toBe("/srv/coach");
    expect(keys(f, "agents.entries.coach.identity").sort()).toEqual(["emoji", "name", "theme"]);
    expect(at(f, "agents.entries.coach.tools.profile")).toBe("minimal");
    // profile + allow would intersect to nothing on the 2026.9 host; alsoAllow adds to the profile.
    expect(at(f, "agents.entries.coach.tools.allow")).toBeUndefined();
    expect(at(f, "agents.entries.coach.tools.alsoAllow")).toEqual(SPEC_TOOLS);
    expect(at(f, "agents.entries.coach.tools.sandbox.tools.allow")).toEqual(SPEC_TOOLS);
    expect(at(f, "agents.entries.coach.sandbox")).toMatchObject({ mode: "all", scope: "agent" });
    expect(at(f, "tools.agentToAgent.allow")).toContain("coach");
    expect(at(f, "bindings")).toEqual([{ agentId: "coach", match: { channel: "telegram", accountId: "coach" } }]);
    expect(at(f, "channels.telegram.accounts.coach.botToken")).toEqual({
      source: "env",
      provider: "default",
      id: "TELEGRAM_COACH_BOT_TOKEN",
    });
    expect(at(f, "plugins.entries.fitness")).toEqual({
      enabled: true,
      config: { secretName: "fitness-credentials", cloudRegion: "us-west-2", debriefs: "15m", debriefAgent: "coach" },
    });
  });

  it("keeps the bot token out of the config: a SecretRef in the host's env-ref shape", () => {
    const ref = fragment("coach-2");
    expect(at(ref, "channels.telegram.accounts.coach-2.botToken.provider")).toMatch(/^[a-z][a-z0-9_-]{0,63}$/);
    expect(at(ref, "channels.telegram.accounts.coach-2.botToken.id")).toMatch(/^[A-Z][A-Z0-9_]{0,127}$/);
    expect(at(ref, "channels.telegram.accounts.coach-2.botToken.id")).toBe("TELEGRAM_COACH_2_BOT_TOKEN");
  });

  it("renames every occurrence of the agent id for another id", () => {
    const text = JSON.stringify(fragment("trainer"));
    expect(text).not.toMatch(/"coach"|COACH/);
    const f = fragment("trainer");
    expect(keys(f, "agents.entries")).toEqual(["trainer"]);
    expect(at(f, "tools.agentToAgent.allow")).toEqual(["trainer"]);
    expect(at(f, "bindings")).toEqual([{ agentId: "trainer", match: { channel: "telegram", accountId: "trainer" } }]);
    expect(keys(f, "channels.telegram.accounts")).toEqual(["trainer"]);
  });

  it("rejects an agent id the host would not accept, saying what a good one looks like", () => {
    expect(() => fragment("Coach Bot")).toThrow(/--agent-id "Coach Bot" is not a valid agent id: .*for example "coach"/);
  });

  it("keeps the coach's files to its workspace, and its bot to its own approvals and replies", () => {
    const f = fragment("trainer");
    expect(at(f, "agents.entries.trainer.tools.fs")).toEqual({ workspaceOnly: true });
    // No other agent's approvals through this bot; no message-tool sends through it (its replies are not actions).
    expect(at(f, "channels.telegram.accounts.trainer.execApprovals")).toEqual({ target: "dm", agentFilter: ["trainer"] });
    expect(at(f, "channels.telegram.accounts.trainer.actions")).toEqual({ sendMessage: false });
    expect(at(f, "channels.telegram.accounts.trainer.dmPolicy")).toBeUndefined(); // pairing, the host's default
  });

  it("writes the sandbox block of each choice", () => {
    expect(at(fragment("coach", "/w", { sandbox: { kind: "docker" } }), "agents.entries.coach.sandbox")).toEqual({
      mode: "all",
      scope: "agent",
      workspaceAccess: "rw",
    });
    expect(at(fragment("coach", "/w", { sandbox: { kind: "off" } }), "agents.entries.coach.sandbox")).toEqual({ mode: "off" });
    const ssh = {
      kind: "ssh",
      target: "coach@box:2222",
      identityFile: "/k/id",
      knownHostsFile: "/k/known",
      workspaceRoot: "/srv/sandboxes",
    } as const;
    expect(at(fragment("coach", "/w", { sandbox: ssh }), "agents.entries.coach.sandbox")).toEqual({
      mode: "all",
      backend: "ssh",
      scope: "agent",
      workspaceAccess: "rw",
      ssh: { target: "coach@box:2222", workspaceRoot: "/srv/sandboxes", identityFile: "/k/id", knownHostsFile: "/k/known" },
    });
  });

  it("with the athlete's Telegram id: admits only them, without pairing, and makes them the approver of writes", () => {
    const f = fragment("coach", "/w", { telegramUserId: "5550001" });
    expect(at(f, "channels.telegram.accounts.coach.dmPolicy")).toBe("allowlist");
    expect(at(f, "channels.telegram.accounts.coach.allowFrom")).toEqual(["5550001"]);
    expect(at(f, "channels.telegram.accounts.coach.execApprovals")).toEqual({
      enabled: true,
      approvers: ["5550001"],
      target: "dm",
      agentFilter: ["coach"],
    });
    expect(() => fragment("coach", "/w", { telegramUserId: "@maya" })).toThrow(
      /--telegram-user-id "@maya" is not a Telegram user id: it is the athlete's numeric id/,
    );
    expect(() => fragment("coach", "/w", { telegramUserId: "0123" })).toThrow(CoachSetupError);
  });
});

describe("merging into an existing config", () => {
  it("into an empty config: adds the coach and keeps the implicit main agent as an explicit one", () => {
    const { config: c, notes } = merge({}, { HOME: "/home/a" });
    expect(keys(c, "agents.entries")).toEqual(["main", "coach"]);
    expect(at(c, "agents.entries.main.workspace")).toBe("~/.openclaw/workspace");
    expect(at(c, "agents.defaults.systemAgent.agentId")).toBe("main");
    expect(at(c, "talk.agentId")).toBe("main");
    expect(at(c, "tools.agentToAgent.allow")).toEqual(["main", "coach"]);
    expect(notes.join("\n")).toMatch(/agents.entries.main made explicit/);
  });

  it("keeps an existing root-level Telegram bot running as the default account, owned by its agent", () => {
    const existing = { channels: { telegram: { botToken: "123:plain", dmPolicy: "pairing" } } };
    const c = merge(existing).config;
    expect(at(c, "channels.telegram.botToken")).toBe("123:plain");
    expect(keys(c, "channels.telegram.accounts").sort()).toEqual(["coach", "default"]);
    expect(at(c, "bindings")).toEqual([
      { agentId: "main", match: { channel: "telegram", accountId: "*" } },
      { agentId: "coach", match: { channel: "telegram", accountId: "coach" } },
    ]);
  });

  it("is idempotent: merging into its own result changes nothing", () => {
    for (const existing of [
      {},
      { channels: { telegram: { botToken: "x" } } },
      { agents: { ownership: "explicit", entries: { a: {}, b: {} } } },
    ]) {
      const once = merge(existing as JsonObject).config;
      const twice = merge(once);
      expect(diffConfigs(once, twice.config)).toEqual([]);
      expect(twice.kept).toEqual([]);
      expect(twice.notes).toEqual([]);
    }
  });

  it("never overwrites an existing value and reports the difference instead", () => {
    const existing = {
      agents: {
        ownership: "explicit",
        entries: { main: {}, coach: { workspace: "/srv/coach", identity: { emoji: "🔥" }, tools: { profile: "coding" } } },
      },
    };
    const { config: c, kept } = merge(existing);
    expect(at(c, "agents.entries.coach.identity")).toEqual({ emoji: "🔥", name: "Coach", theme: "casual strength and endurance coach" });
    expect(at(c, "agents.entries.coach.tools.profile")).toBe("coding");
    expect(kept.map((k) => k.path).sort()).toEqual(["agents.entries.coach.identity.emoji", "agents.entries.coach.tools.profile"]);
  });

  it("merges lists as sets and bindings by agent and route, never duplicating", () => {
    const existing = {
      agents: { ownership: "explicit", entries: { main: {}, ops: {} } },
      tools: { agentToAgent: { allow: ["main", "ops", "coach"] } },
      bindings: [
        { agentId: "coach", match: { accountId: "coach", channel: "telegram" } },
        { agentId: "ops", match: { channel: "slack", accountId: "*" } },
      ],
      plugins: { allow: ["memory-core"] },
    };
    const c = merge(existing).config;
    expect(at(c, "tools.agentToAgent.allow")).toEqual(["main", "ops", "coach"]);
    expect(at(c, "bindings")).toHaveLength(2);
    expect(at(c, "plugins.allow")).toEqual(["memory-core", "fitness"]);
  });

  it("extends an existing agent-to-agent allow list with the coach instead of replacing it", () => {
    const existing = { agents: { ownership: "explicit", entries: { main: {}, ops: {} } }, tools: { agentToAgent: { allow: ["main"] } } };
    expect(at(merge(existing).config, "tools.agentToAgent.allow")).toEqual(["main", "coach"]);
  });

  it("does not take over a route another agent already owns", () => {
    const existing = {
      agents: { ownership: "explicit", entries: { main: {} } },
      bindings: [{ agentId: "main", match: { channel: "telegram", accountId: "coach" } }],
    };
    const { config, kept } = merge(existing);
    expect(at(config, "bindings")).toEqual(existing.bindings);
    expect(kept[0]?.reason).toMatch(/already bound to another agent/);
  });

  it("does not add alsoAllow next to an existing allow list (the host rejects both in one scope)", () => {
    const existing = {
      agents: { ownership: "explicit", entries: { main: {}, coach: { workspace: "/srv/coach", tools: { allow: ["read"] } } } },
    };
    const { config, kept } = merge(existing);
    expect(at(config, "agents.entries.coach.tools.allow")).toEqual(["read"]);
    expect(at(config, "agents.entries.coach.tools.alsoAllow")).toBeUndefined();
    expect(kept.find((k) => k.path === "agents.entries.coach.tools.allow")?.reason).toMatch(/rejects alsoAllow and allow in one scope/);
  });

  it("refuses the legacy agents.list roster and $include, saying how to fix it", () => {
    expect(() => merge({ agents: { list: [{ id: "main" }] } })).toThrow(CoachSetupError);
    expect(() => merge({ agents: { list: [{ id: "main" }] } })).toThrow(/openclaw doctor --fix/);
    expect(() => merge({ agents: { $include: "./agents.json5" } })).toThrow(/\$include \(agents.\$include\)/);
  });

  it("never lets the coach's bot become the channel's default account, so other agents' messages cannot go out through it", () => {
    // No Telegram before: a disabled placeholder holds the default slot.
    const empty = merge({});
    expect(at(empty.config, "channels.telegram.accounts.default")).toEqual({ enabled: false });
    expect(empty.notes.join("\n")).toMatch(/accounts.default added, disabled: with the coach's bot as the only telegram account/);
    // A root-level bot stays the default account (as before), nothing pinned.
    const root = merge({ channels: { telegram: { botToken: "123:plain" } } });
    expect(at(root.config, "channels.telegram.accounts.default")).toEqual({});
    expect(at(root.config, "channels.telegram.defaultAccount")).toBeUndefined();
    // Named accounts without a default: the one the host used is pinned.
    const named = merge({ channels: { telegram: { accounts: { personal: { botToken: "1:x" }, zeta: { botToken: "2:y" } } } } });
    expect(at(named.config, "channels.telegram.defaultAccount")).toBe("personal");
    expect(at(named.config, "channels.telegram.accounts.default")).toBeUndefined();
    // An explicit default naming the coach's account is kept, with a warning.
    const pinnedToCoach = merge({ channels: { telegram: { defaultAccount: "coach", accounts: { coach: {} } } } });
    expect(at(pinnedToCoach.config, "channels.telegram.defaultAccount")).toBe("coach");
    expect(pinnedToCoach.notes.join("\n")).toMatch(/WARNING channels.telegram.defaultAccount is "coach", the coach's own account/);
  });

  it("keeps an existing sandbox block of the coach whole, never merging keys into it, unless told to replace it whole", () => {
    const existing = {
      agents: {
        ownership: "explicit",
        entries: { main: {}, coach: { workspace: "/srv/coach", sandbox: { mode: "all", scope: "agent", prune: { idleHours: 2 } } } },
      },
    };
    const ssh = buildCoachFragment(template, { agentId: "coach", workspace: "/srv/coach", sandbox: { kind: "ssh", target: "c@box" } });
    const kept = mergeCoachFragment(existing, ssh, { env: {} });
    expect(at(kept.config, "agents.entries.coach.sandbox")).toEqual({ mode: "all", scope: "agent", prune: { idleHours: 2 } }); // no backend slipped in
    // Which to do is the setup's decision (sandbox-in-config.ts), reported in its own words: nothing under "kept" here.
    expect(kept.kept.filter((k) => k.path.endsWith("sandbox"))).toEqual([]);
    const replaced = mergeCoachFragment(existing, ssh, { env: {}, sandbox: "replace" });
    expect(at(replaced.config, "agents.entries.coach.sandbox")).toEqual({
      mode: "all",
      backend: "ssh",
      scope: "agent",
      workspaceAccess: "rw",
      ssh: { target: "c@box" },
    });
    expect(at(replaced.config, "agents.entries.coach.workspace")).toBe("/srv/coach");
  });

  it("finds the default workspace the way the host does", () => {
    expect(defaultWorkspace({ agents: { defaults: { workspace: "/w" } } }, { OPENCLAW_STATE_DIR: "/s" })).toBe("/w");
    expect(defaultWorkspace({}, { OPENCLAW_WORKSPACE_DIR: "/ws", OPENCLAW_STATE_DIR: "/s" })).toBe("/ws");
    expect(defaultWorkspace({}, { OPENCLAW_STATE_DIR: "/s" })).toBe("/s/workspace");
    expect(defaultWorkspace({}, { OPENCLAW_PROFILE: "dev" })).toBe("~/.openclaw-dev/workspace");
    expect(defaultWorkspace({}, {})).toBe("~/.openclaw/workspace");
  });
});

describe("the printed diff", () => {
  it("shows one line per change and masks plaintext credentials", () => {
    const lines = formatChanges(
      diffConfigs(
        { channels: { telegram: { botToken: "123:old" } }, bindings: [] },
        {
          channels: {
            telegram: { botToken: "456:new", accounts: { coach: { botToken: { source: "env", provider: "default", id: "T" } } } },
          },
          bindings: [{ agentId: "coach" }],
        },
      ),
    );
    expect(lines).toEqual([
      '~ channels.telegram.botToken: "<redacted>" -> "<redacted>"',
      '+ channels.telegram.accounts.coach.botToken.source = "env"',
      '+ channels.telegram.accounts.coach.botToken.provider = "default"',
      '+ channels.telegram.accounts.coach.botToken.id = "T"',
      '+ bindings[] = {"agentId":"coach"}',
    ]);
    expect(lines.join("\n")).not.toMatch(/123:old|456:new/);
  });
});
