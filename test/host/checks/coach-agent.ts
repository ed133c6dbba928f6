/**
 * The coach agent in the real host: `npm run setup:coach` installs the coach workspace and merges the
 * coach fragment into a one-agent host config that loads the fitness plugin from a local path; then
 * the host's own answers are checked: the merged config validates, the fitness-coaching skill is
 * ready and user-invocable for the coach, and the coach's effective tools are exactly the 11
 * `fitness_*` tools plus read, write, web_fetch and web_search.
 *
 * Effective tools come from the Gateway's `tools.effective` RPC for a coach session (created with
 * `sessions.create`, no model run): the host's server-side projection of what a session of that agent
 * gets after profile, allow and deny policy. Not `/tools/invoke` (it adds the requested tool to the
 * policy) and not `tools.catalog` (every tool the host knows, whatever the agent's policy).
 *
 * Setup runs as on a machine without a container engine (DOCKER_HOST points at no socket, whatever this
 * machine has): without --sandbox it must stop, say why and write nothing; with `--sandbox docker
 * --skip-sandbox-check` it writes the full container sandbox, which is what the checks below read.
 *
 * What cannot be checked here: a turn in a Docker container (no engine on this machine).
 * `tools.effective` is computed without the sandbox layer, so that layer is read on its own with
 * `openclaw sandbox explain` (it can only narrow the list, and it admits all 15). Real turns, unsandboxed
 * and on the SSH backend, are coach-conversation.ts.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { HostCheckModule } from "../host-check-module.ts";
import type { RunningGateway } from "../host-context.ts";
import { fitnessHostConfig } from "../fitness-host-config.ts";
import { expectedOptionalTools, expectedTools } from "../fitness-plugin-assertions.ts";
import { copyPluginCheckout } from "../plugin-package.ts";
import { pick } from "../pick-fields.ts";
import { runSetupCoach } from "../run-setup-coach.ts";

const coach = "coach";
/** No Docker engine answers here, whatever this machine has. */
const noDockerEngine = { DOCKER_HOST: "unix:///nonexistent/docker.sock" };
const coachCoreTools = ["read", "write", "web_fetch", "web_search"];
/**
 * Tools the coach must not have: exec/runtime, files beyond read/write, browser/canvas/devices,
 * messaging and cross-session, host control. Most exist for the main agent of the same host (checked
 * below), so their absence for the coach is the policy's doing, not the host's.
 */
const forbiddenTools = [
  "exec",
  "process",
  "code_execution",
  "terminal",
  "apply_patch",
  "edit",
  "ls",
  "browser",
  "canvas",
  "computer",
  "mobile_ui",
  "nodes",
  "message",
  "conversations_send",
  "conversations_turn",
  "conversations_list",
  "tts",
  "sessions",
  "sessions_send",
  "sessions_spawn",
  "sessions_list",
  "sessions_history",
  "sessions_search",
  "sessions_yield",
  "session_status",
  "subagents",
  "agents_list",
  "agents_wait",
  "gateway",
  "cron",
  "automations",
  "plugins",
  "secrets",
  "openclaw",
  "skill_workshop",
];
/** Of those, the ones the main agent (full profile) must have in this host, so the absence list is not vacuous. */
const mainMustHave = ["exec", "process", "edit", "apply_patch", "message", "sessions_send", "sessions_spawn", "gateway", "session_status"];

interface EffectiveTools {
  agentId: string;
  profile: string;
  groups: Array<{ id: string; source: string; tools: Array<{ id: string; source: string; pluginId?: string }> }>;
  notices?: unknown[];
}

interface SandboxExplain {
  agentId: string;
  sandbox: {
    mode: string;
    scope: string;
    workspaceAccess: string;
    effectiveHostWorkspaceRoot: string;
    sessionIsSandboxed: boolean;
    tools: { allow: string[]; deny: string[] };
  };
}

const module: HostCheckModule = {
  title: "coach agent installed by setup:coach (config, skill, effective tools)",
  async run({ repoRoot, services, report, withHost }) {
    await withHost(async (context) => {
      const pluginDir = await copyPluginCheckout(repoRoot, join(context.dir, "openclaw-fitness"));
      // An operator's host before the coach: one implicit agent (main), the fitness plugin enabled.
      const before: Record<string, unknown> = {
        ...fitnessHostConfig(context, services, { loadPaths: [pluginDir] }),
        agents: context.baseConfig()["agents"],
      };
      await context.writeConfig(before);
      const coachWorkspace = join(context.dir, "workspace-coach");

      await report.check(
        "without --sandbox and with no Docker engine, setup:coach says the coach could not run, offers the three choices, writes nothing",
        async () => {
          const configBefore = await readFile(context.configPath, "utf8");
          const result = await runSetupCoach(
            repoRoot,
            context,
            ["--workspace", coachWorkspace, "--config", context.configPath],
            noDockerEngine,
          );
          assert.equal(result.code, 1, result.output);
          assert.match(result.output, /^Sandbox \(docker\): sandbox\.mode "all" in a Docker container/);
          assert.match(result.output, /every coach turn would fail with a sandbox error/);
          for (const choice of ["--sandbox docker", "--sandbox ssh", "--sandbox off"])
            assert.ok(result.output.includes(choice), `no ${choice} in:\n${result.output}`);
          assert.equal(await readFile(context.configPath, "utf8"), configBefore, "the config changed");
          assert.equal(existsSync(coachWorkspace), false, "the workspace was created");
          return result.output.split("\n")[1]?.trim();
        },
      );

      const setUp = await report.check(
        "npm run setup:coach --sandbox docker --skip-sandbox-check installs the coach workspace and merges the fragment into the host config",
        async () => {
          const result = await runSetupCoach(
            repoRoot,
            context,
            ["--workspace", coachWorkspace, "--config", context.configPath, "--sandbox", "docker", "--skip-sandbox-check"],
            noDockerEngine,
          );
          assert.equal(result.code, 0, `exit ${result.code}:\n${result.output}`);
          assert.match(result.output, /Writing the config anyway \(--skip-sandbox-check\)/);
          assert.match(result.output, /create {2}AGENTS\.md/);
          const merged = await context.readConfig();
          const entries = (merged["agents"] as { entries?: Record<string, { workspace?: string; tools?: unknown }> }).entries ?? {};
          assert.equal(entries[coach]?.workspace, coachWorkspace, "coach workspace");
          // The main agent's tool policy is untouched: no tools key added to it or to the defaults.
          assert.equal(entries["main"]?.tools, undefined, "agents.entries.main.tools was added");
          assert.equal(
            (merged["agents"] as { defaults?: { tools?: unknown } }).defaults?.tools,
            undefined,
            "agents.defaults.tools was added",
          );
          // The plugin's config gains only the coach's debriefs (the default interval, this agent as the debrief agent).
          const expectedPlugins = structuredClone(before["plugins"]) as { entries: { fitness: { config: Record<string, unknown> } } };
          Object.assign(expectedPlugins.entries.fitness.config, { debriefs: "15m", debriefAgent: coach });
          assert.deepEqual(merged["plugins"], expectedPlugins, "the plugin config changed beyond the debriefs");
          return `${(result.ms / 1000).toFixed(1)} s; agents ${Object.keys(entries).join(", ")}`;
        },
      );
      if (!setUp) {
        report.blocked("coach host checks", "setup:coach failed");
        return;
      }

      const valid = await report.check("openclaw config validate --json accepts the merged config", async () => {
        const { result, json } = await context.runJson<{ valid: boolean; warnings?: Array<{ path: string; message: string }> }>([
          "config",
          "validate",
          "--json",
        ]);
        assert.equal(json.valid, true, result.stdout);
        assert.deepEqual(json.warnings ?? [], [], "warnings");
        return `valid, no warnings (${(result.ms / 1000).toFixed(1)} s)`;
      });
      if (!valid) {
        report.blocked("coach skill, sandbox and tool checks", "the merged config does not validate");
        return;
      }

      report.note(
        "NOT CHECKED HERE: a turn in a Docker container (no engine on this machine); coach-conversation.ts runs real turns unsandboxed and over SSH. " +
          "tools.effective below is the host's policy projection without the sandbox layer, which is read on its own with sandbox explain.",
      );
      await report.check("openclaw skills info fitness-coaching --agent coach: eligible, model-visible, user-invocable", async () => {
        const { result, json } = await context.runJson<Record<string, unknown>>([
          "skills",
          "info",
          "fitness-coaching",
          "--agent",
          coach,
          "--json",
        ]);
        assert.equal(result.code, 0, result.stderr.slice(-1000));
        const facts = pick(json, [
          "name",
          "eligible",
          "disabled",
          "blockedByAllowlist",
          "blockedByAgentFilter",
          "modelVisible",
          "userInvocable",
          "commandVisible",
        ]);
        assert.deepEqual(facts, {
          name: "fitness-coaching",
          eligible: true,
          disabled: false,
          blockedByAllowlist: false,
          blockedByAgentFilter: false,
          modelVisible: true,
          userInvocable: true,
          commandVisible: true,
        });
        assert.deepEqual(json["missing"], { bins: [], anyBins: [], env: [], config: [], os: [] }, "missing requirements");
        return `${JSON.stringify(facts)} from ${String(json["source"])} (${(result.ms / 1000).toFixed(1)} s)`;
      });

      await report.check(
        "openclaw sandbox explain --agent coach: mode all, scope agent, rw on the coach workspace, sandbox tool policy admits the five",
        async () => {
          const { result, json } = await context.runJson<SandboxExplain>(["sandbox", "explain", "--agent", coach, "--json"]);
          assert.equal(result.code, 0, result.stderr.slice(-1000));
          const box = json.sandbox;
          assert.deepEqual(
            pick(box as unknown as Record<string, unknown>, [
              "mode",
              "scope",
              "workspaceAccess",
              "effectiveHostWorkspaceRoot",
              "sessionIsSandboxed",
            ]),
            { mode: "all", scope: "agent", workspaceAccess: "rw", effectiveHostWorkspaceRoot: coachWorkspace, sessionIsSandboxed: true },
          );
          for (const entry of ["fitness", ...coachCoreTools])
            assert.ok(box.tools.allow.includes(entry), `sandbox allow lacks ${entry}: ${box.tools.allow.join(", ")}`);
          const admitted = box.tools.allow.filter((entry) => forbiddenTools.includes(entry));
          assert.deepEqual(admitted, [], "the sandbox policy admits forbidden tools");
          for (const entry of ["browser", "canvas", "gateway", "telegram"])
            assert.ok(box.tools.deny.includes(entry), `sandbox deny lacks ${entry}`);
          return `allow [${box.tools.allow.join(", ")}], deny ${box.tools.deny.length} entries incl. browser, canvas, gateway and the messaging channels (${(result.ms / 1000).toFixed(1)} s)`;
        },
      );

      // After the CLI answers, not beside them: a CLI run and a starting gateway on the same state
      // directory contend for its lifecycle lock (the gateway then exits asking for doctor --fix).
      let gateway: RunningGateway | undefined;
      const started = await report.check(
        "openclaw gateway run becomes ready with the coach config (channels skipped, bot token set)",
        async () => {
          gateway = await context.startGateway({
            // The telegram account would dial out (no network here) and hold /readyz at 503; the
            // SecretRef still needs a value. Channels only add delivery, not tools: `message` is
            // still offered to the main agent below.
            env: { OPENCLAW_SKIP_CHANNELS: "1", TELEGRAM_COACH_BOT_TOKEN: "123456:not-a-real-token" },
          });
          return gateway.url;
        },
      );

      if (!started || !gateway) {
        report.blocked("coach effective tools", "the gateway did not start");
        return;
      }
      const live = gateway;

      const coachTools = effectiveTools(live, coach);
      // Awaited inside the checks below; marked handled so a failure is reported there, not as a crash.
      coachTools.catch(() => undefined);
      await report.check(
        "tools.effective for a coach session: exactly the 11 fitness_* tools plus read, write, web_fetch, web_search",
        async () => {
          const tools = await coachTools;
          assert.equal(tools.profile, "minimal");
          const ids = toolIds(tools);
          assert.deepEqual([...ids].sort(), [...expectedTools, ...coachCoreTools].sort());
          for (const tool of tools.groups.flatMap((group) => group.tools)) {
            const plugin = tool.id.startsWith("fitness_");
            assert.deepEqual(
              { id: tool.id, source: tool.source, pluginId: tool.pluginId },
              { id: tool.id, source: plugin ? "plugin" : "core", pluginId: plugin ? "fitness" : undefined },
            );
          }
          return `profile ${tools.profile}: ${ids.join(", ")}`;
        },
      );

      const mainTools = effectiveTools(live, "main");
      mainTools.catch(() => undefined);
      await report.check(
        "tools.effective: none of exec, process, edit, apply_patch, browser, canvas, message, sessions_*, gateway, cron ... for the coach; the main agent has them",
        async () => {
          const coachIds = toolIds(await coachTools);
          assert.deepEqual(
            coachIds.filter((id) => forbiddenTools.includes(id)),
            [],
            "forbidden tools offered to the coach",
          );
          const main = await mainTools;
          const mainIds = toolIds(main);
          const missing = mainMustHave.filter((id) => !mainIds.includes(id));
          assert.deepEqual(missing, [], "the main agent lacks tools it should have (the absence check would prove nothing)");
          const absentHere = forbiddenTools.filter((id) => !mainIds.includes(id));
          return `${forbiddenTools.length} names absent for the coach; ${forbiddenTools.length - absentHere.length} of them offered to main here (not in this host's tool set at all: ${absentHere.join(", ")})`;
        },
      );

      await report.check(
        "the main agent keeps its tools after the merge: profile full, the 8 read-only fitness tools, not the optional write tools",
        async () => {
          const main = await mainTools;
          assert.equal(main.profile, "full");
          const mainIds = toolIds(main);
          const fitness = mainIds.filter((id) => id.startsWith("fitness_"));
          // The write tools are optional: only an agent that names the plugin (as the coach does) gets them.
          const readOnly = expectedTools.filter((id) => !expectedOptionalTools.includes(id));
          assert.deepEqual(fitness.sort(), [...readOnly].sort());
          return `${mainIds.length} tools`;
        },
      );

      await live.stop();
    });
  },
};

export default module;

/** `tools.effective` for a fresh (model-less) session of `agentId`. */
async function effectiveTools(gateway: RunningGateway, agentId: string): Promise<EffectiveTools> {
  const created = (await gateway.call("sessions.create", { agentId })) as { key?: string };
  assert.ok(created.key, `sessions.create gave no key: ${JSON.stringify(created).slice(0, 300)}`);
  const tools = (await gateway.call("tools.effective", { sessionKey: created.key })) as EffectiveTools;
  assert.equal(tools.agentId, agentId, `tools.effective answered for ${tools.agentId}`);
  return tools;
}

function toolIds(tools: EffectiveTools): string[] {
  return tools.groups.flatMap((group) => group.tools.map((tool) => tool.id));
}
