// `npm run setup:coach` end to end on scratch workspaces and config files: it checks the sandbox it
// would configure before writing anything, creates the files, never overwrites one, backs the config
// up before changing it, and a second run changes nothing. The first run and the usage error are the
// command as a process (its exit code and streams); the other runs are the same code in this process
// (setup-command-run.ts).
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import JSON5 from "json5";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPath, type JsonValue } from "../../../scripts/setup-coach/json-tree.ts";
import { formatSetupReport } from "../../../scripts/setup-coach/setup-report.ts";
import { runCoachSetup, type CoachSetupOptions } from "../../../scripts/setup-coach/setup.ts";
import { coachWorkspaceFiles } from "../../../scripts/setup-coach/workspace-files.ts";
import { setupInProcess, type SetupRun } from "./setup-command-run.ts";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const TSX = path.join(REPO, "node_modules/.bin/tsx");
const SCRIPT = path.join(REPO, "scripts/setup-coach.ts");
const plaintextToken = "987654:plaintext-bot-token";

type Run = SetupRun;

/** No Docker engine answers there, whatever this machine has: the docker CLI finds no daemon at it. */
const noDockerEngine = { DOCKER_HOST: "unix:///nonexistent/docker.sock" };

async function setup(...args: string[]): Promise<Run> {
  return await setupWith({}, ...args);
}

async function setupWith(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return await setupInProcess(args, { ...process.env, ...commandEnv, ...env });
}

/** What the command's own process sees besides its parent's environment. */
const commandEnv = { OPENCLAW_STATE_DIR: "", OPENCLAW_WORKSPACE_DIR: "", OPENCLAW_PROFILE: "", ...noDockerEngine };

/** `npm run setup:coach` as a process of its own, for what only a process shows: its exit code and its two streams. */
async function setupAsCommand(...args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(TSX, [SCRIPT, ...args], { cwd: REPO, env: { ...process.env, ...commandEnv } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const at = (root: JsonValue, dotted: string) => getPath(root, dotted.split("."));
const backupsOf = async (file: string) =>
  (await readdir(path.dirname(file))).filter((name) => name.startsWith(`${path.basename(file)}.bak-`));

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), "coach-setup-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("setup:coach on an existing install", () => {
  let workspace: string;
  let config: string;
  const original = `{
  // the athlete's existing gateway
  gateway: { mode: "local" },
  channels: { telegram: { botToken: "${plaintextToken}" } },
}
`;
  let first: Run;

  beforeAll(async () => {
    workspace = path.join(scratch, "existing/workspace-coach");
    config = path.join(scratch, "existing/openclaw.json");
    await mkdir(workspace, { recursive: true });
    await writeFile(config, original);
    await writeFile(path.join(workspace, "USER.md"), "# My own notes\n- Distance: mi\n");
    first = await setupAsCommand("--workspace", workspace, "--config", config, "--sandbox", "docker", "--skip-sandbox-check");
  });

  it("said, before writing, that the Docker sandbox cannot run here yet", () => {
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.indexOf("Sandbox (docker)")).toBe(0);
    expect(first.stdout).toMatch(/check: (no Docker engine answers|the docker command is not installed)/);
    expect(first.stdout).toContain("Writing the config anyway (--skip-sandbox-check)");
  });

  it("creates the missing workspace files from the repository and keeps the existing one", async () => {
    expect(first.code, first.stderr).toBe(0);
    for (const file of coachWorkspaceFiles) {
      const installed = await readFile(path.join(workspace, file.target), "utf8");
      if (file.target === "USER.md") {
        expect(installed).toBe("# My own notes\n- Distance: mi\n");
        expect(first.stdout).toMatch(/kept {4}USER\.md \(already there, left as it is\)/);
      } else {
        expect(installed).toBe(await readFile(path.join(REPO, file.source), "utf8"));
        expect(first.stdout).toContain(`create  ${file.target}`);
      }
    }
  });

  it("backs the config up, unchanged, before changing it", async () => {
    const backups = await backupsOf(config);
    expect(backups).toHaveLength(1);
    expect(await readFile(path.join(path.dirname(config), backups[0] ?? ""), "utf8")).toBe(original);
    expect(first.stdout).toContain(`backup  ${path.join(path.dirname(config), backups[0] ?? "")}`);
    expect(first.stdout).toMatch(/comments and JSON5 formatting were not preserved/);
  });

  it("writes a config with every key the coach needs, keeping what was there", async () => {
    const merged = JSON5.parse(await readFile(config, "utf8")) as JsonValue;
    expect(at(merged, "gateway.mode")).toBe("local");
    expect(at(merged, "channels.telegram.botToken")).toBe(plaintextToken);
    expect(at(merged, "agents.ownership")).toBe("explicit");
    expect(at(merged, "agents.entries.coach.name")).toBe("Coach");
    expect(at(merged, "agents.entries.coach.workspace")).toBe(workspace);
    expect(at(merged, "agents.entries.coach.identity")).toMatchObject({ name: "Coach", emoji: "🏋️" });
    expect(at(merged, "agents.entries.coach.tools.profile")).toBe("minimal");
    expect(at(merged, "agents.entries.coach.tools.alsoAllow")).toEqual(["fitness", "read", "write", "web_fetch", "web_search"]);
    expect(at(merged, "agents.entries.coach.sandbox")).toMatchObject({ mode: "all", scope: "agent" });
    expect(at(merged, "tools.agentToAgent.allow")).toEqual(["main", "coach"]);
    expect(at(merged, "bindings")).toContainEqual({ agentId: "coach", match: { channel: "telegram", accountId: "coach" } });
    expect(at(merged, "channels.telegram.accounts.coach.botToken")).toEqual({
      source: "env",
      provider: "default",
      id: "TELEGRAM_COACH_BOT_TOKEN",
    });
    expect(at(merged, "plugins.entries.fitness")).toEqual({
      enabled: true,
      config: { secretName: "fitness-credentials", cloudRegion: "us-west-2", debriefs: "15m", debriefAgent: "coach" },
    });
  });

  it("prints a readable diff and never the plaintext token", () => {
    expect(first.stdout).toContain('+ agents.entries.coach.tools.profile = "minimal"');
    expect(first.stdout).toContain("+ channels.telegram.accounts.default = {}");
    expect(first.stdout).toContain(
      "openclaw cron add --name 'coach weekly memory consolidation' --declaration-key coach-weekly-memory-consolidation",
    );
    expect(first.stdout + first.stderr).not.toContain(plaintextToken);
  });

  it("explains its usage when a required option is missing", async () => {
    const run = await setupAsCommand("--config", config);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Both --workspace and --config are required/);
    expect(run.stderr).toMatch(/Usage: npm run setup:coach/);
  });

  it("changes nothing on a second run: no write, no new backup, every file kept", async () => {
    const before = await readFile(config, "utf8");
    const beforeMtime = (await stat(config)).mtimeMs;
    const second = await setup("--workspace", workspace, "--config", config, "--sandbox", "docker", "--skip-sandbox-check");
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("no changes: the coach is already configured");
    expect(second.stdout).not.toMatch(/create {2}/);
    expect(await readFile(config, "utf8")).toBe(before);
    expect((await stat(config)).mtimeMs).toBe(beforeMtime);
    expect(await backupsOf(config)).toHaveLength(1);
  });

  it("says to install the plugin, which it configures but does not install, unless the config loads it from a folder", async () => {
    expect(first.stdout).toContain(
      "If the fitness plugin is not installed yet (openclaw plugins list shows it when it is): this setup configures it but does",
    );
    const loading = path.join(scratch, "existing/loads-plugin.json");
    await writeFile(loading, JSON.stringify({ plugins: { allow: ["fitness"], load: { paths: [REPO] } } }));
    const run = await setup("--workspace", workspace, "--config", loading, "--sandbox", "docker", "--skip-sandbox-check");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain("If the fitness plugin is not installed yet");
  });
});

describe("setup:coach's sandbox check and choices", () => {
  const paths = (name: string) => ({ workspace: path.join(scratch, name, "ws"), config: path.join(scratch, name, "openclaw.json") });

  it("without --sandbox and no Docker engine: says what will not work, offers the three choices, writes nothing", async () => {
    const { workspace, config } = paths("no-engine");
    const run = await setup("--workspace", workspace, "--config", config);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^Sandbox \(docker\): sandbox.mode "all" in a Docker container/);
    expect(run.stdout).toMatch(/every coach turn would fail with a sandbox error/);
    for (const choice of ["--sandbox docker", "--sandbox ssh --ssh-target USER@HOST[:PORT]", "--sandbox off"])
      expect(run.stdout).toContain(choice);
    expect(run.stdout.trimEnd().endsWith("Nothing was written.")).toBe(true);
    await expect(stat(path.join(scratch, "no-engine"))).rejects.toThrow(/ENOENT/);
  });

  it("without --sandbox and a Docker engine that answers: configures the container sandbox", async () => {
    const { workspace, config } = paths("engine");
    const bin = path.join(scratch, "engine-bin");
    await mkdir(bin, { recursive: true });
    // A stand-in for the docker CLI with a running engine (the check only asks for the server version).
    await writeFile(
      path.join(bin, "docker"),
      `#!/bin/sh\n[ "$1 $2 $3" = "version --format {{.Server.Version}}" ] && echo 27.3.1 && exit 0\nexit 1\n`,
    );
    await chmod(path.join(bin, "docker"), 0o755);
    const run = await setupWith({ PATH: `${bin}:${process.env["PATH"] ?? ""}` }, "--workspace", workspace, "--config", config);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("check: Docker engine 27.3.1 answers (docker version)");
    const merged = JSON5.parse(await readFile(config, "utf8")) as JsonValue;
    expect(at(merged, "agents.entries.coach.sandbox")).toEqual({ mode: "all", scope: "agent", workspaceAccess: "rw" });
    expect(run.stdout).toContain("Keep Docker running on this host");
  });

  it("--sandbox off: writes mode off and says plainly that the coach runs unsandboxed", async () => {
    const { workspace, config } = paths("off");
    const run = await setup("--workspace", workspace, "--config", config, "--sandbox", "off");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Sandbox \(off\): NO SANDBOX: the coach's read and write run on this host as the Gateway's user/);
    const merged = JSON5.parse(await readFile(config, "utf8")) as JsonValue;
    expect(at(merged, "agents.entries.coach.sandbox")).toEqual({ mode: "off" });
    expect(at(merged, "agents.entries.coach.tools.fs")).toEqual({ workspaceOnly: true });
    expect(run.stdout).toMatch(/The coach runs WITHOUT a sandbox/);
  });

  it("--sandbox ssh: checks the login before writing, and stops with the ssh error when it fails", async () => {
    const { workspace, config } = paths("ssh");
    const run = await setup("--workspace", workspace, "--config", config, "--sandbox", "ssh", "--ssh-target", "coach@127.0.0.1:1");
    expect(run.code).toBe(1);
    // (a machine without the ssh client says so instead: the host needs it for this backend too)
    expect(run.stdout).toMatch(
      /check: (ssh coach@127\.0\.0\.1:1 failed: .*(Connection refused|connect)|the ssh command is not installed here)/,
    );
    expect(run.stdout).toContain("Fix it and run setup again, or choose another sandbox:");
    await expect(stat(path.join(scratch, "ssh"))).rejects.toThrow(/ENOENT/);
    const bad = await setup("--workspace", workspace, "--config", config, "--sandbox", "ssh", "--ssh-target", "box.example.net");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--ssh-target "box.example.net" is not USER@HOST\[:PORT\]/);
    const missing = await setup("--workspace", workspace, "--config", config, "--sandbox", "ssh");
    expect(missing.stderr).toMatch(/--sandbox ssh needs --ssh-target/);
  });

  it("refuses unknown sandboxes and SSH options without --sandbox ssh, with the usage", async () => {
    const { workspace, config } = paths("usage");
    const unknown = await setup("--workspace", workspace, "--config", config, "--sandbox", "podman");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--sandbox must be one of docker, ssh, off; got "podman"/);
    const stray = await setup("--workspace", workspace, "--config", config, "--sandbox", "off", "--ssh-target", "a@b");
    expect(stray.code).toBe(2);
    expect(stray.stderr).toMatch(/The --ssh-\* options only apply with --sandbox ssh/);
  });

  it("next steps: with the athlete's id no pairing is needed; without it, pairing and its owner caveat", async () => {
    const withId = await setup(
      "--workspace",
      paths("id").workspace,
      "--config",
      paths("id").config,
      "--sandbox",
      "off",
      "--telegram-user-id",
      "5550001",
    );
    expect(withId.code, withId.stderr).toBe(0);
    expect(withId.stdout).toMatch(/Only Telegram user 5550001 may message the coach .* and they approve each\s+Strava write/);
    expect(withId.stdout).not.toMatch(/pairing approve/);
    const withoutId = await setup("--workspace", paths("no-id").workspace, "--config", paths("no-id").config, "--sandbox", "off");
    expect(withoutId.stdout).toContain("openclaw pairing approve telegram <CODE> --account coach");
    expect(withoutId.stdout).toMatch(/makes the athlete\s+the owner of the whole Gateway/);
    expect(withoutId.stdout).toMatch(/Strava writes are held until a Telegram approver allows them/);
    const badId = await setup(
      "--workspace",
      paths("bad-id").workspace,
      "--config",
      paths("bad-id").config,
      "--sandbox",
      "off",
      "--telegram-user-id",
      "maya",
    );
    expect(badId.code).toBe(1);
    expect(badId.stderr).toMatch(/--telegram-user-id "maya" is not a Telegram user id/);
  });
});

describe("setup:coach edge cases (in process, same code the command runs)", () => {
  const options = (name: string, extra: Partial<CoachSetupOptions> = {}): CoachSetupOptions => ({
    workspace: path.join(scratch, name, "ws"),
    configFile: path.join(scratch, name, "openclaw.json"),
    agentId: "coach",
    sandbox: { kind: "docker" },
    dryRun: false,
    env: { HOME: scratch },
    ...extra,
  });

  it("--dry-run reports what it would do and writes nothing", async () => {
    const dry = options("dry", { dryRun: true });
    const text = formatSetupReport(await runCoachSetup(dry));
    expect(text).toMatch(/dry run: nothing written/);
    expect(text).toContain("would create  AGENTS.md");
    expect(text).toContain("would change:");
    await expect(stat(path.join(scratch, "dry"))).rejects.toThrow(/ENOENT/);
  });

  it("creates a missing config file with owner-only permissions and no backup", async () => {
    const fresh = options("fresh");
    await mkdir(path.dirname(fresh.configFile), { recursive: true });
    const report = await runCoachSetup(fresh);
    expect(report.config.existed).toBe(false);
    expect(report.config.backup).toBeUndefined();
    expect((await stat(fresh.configFile)).mode & 0o777).toBe(0o600);
    expect(await backupsOf(fresh.configFile)).toEqual([]);
  });

  it("stops with a clear message, before writing anything, on a config it must not merge", async () => {
    const legacy = options("legacy");
    await mkdir(path.dirname(legacy.configFile), { recursive: true });
    await writeFile(legacy.configFile, JSON.stringify({ agents: { list: [{ id: "main" }] } }));
    await expect(runCoachSetup(legacy)).rejects.toThrow(
      /the host config still uses the legacy agents.list roster\. Run `openclaw doctor --fix`/,
    );
    await expect(stat(legacy.workspace)).rejects.toThrow(/ENOENT/);
    expect(await backupsOf(legacy.configFile)).toEqual([]);
  });

  it("refuses to install into a workspace the config does not use for the agent", async () => {
    const other = options("other-ws");
    await mkdir(path.dirname(other.configFile), { recursive: true });
    await writeFile(
      other.configFile,
      JSON.stringify({ agents: { ownership: "explicit", entries: { main: {}, coach: { workspace: "~/elsewhere" } } } }),
    );
    await expect(runCoachSetup(other)).rejects.toThrow(/already gives agent "coach" the workspace ~\/elsewhere.*--workspace ~\/elsewhere/);
    await writeFile(
      other.configFile,
      JSON.stringify({
        agents: { ownership: "explicit", entries: { main: {}, coach: { workspace: other.workspace.replace(scratch, "~") } } },
      }),
    );
    await expect(runCoachSetup(other)).resolves.toMatchObject({ agentId: "coach" }); // `~` is the athlete's home
  });

  it("--schedule creates the weekly consolidation job through the openclaw CLI, and says so when that fails", async () => {
    const argsFile = path.join(scratch, "schedule/args.txt");
    const fakeOpenclaw = path.join(scratch, "schedule/openclaw");
    await mkdir(path.dirname(argsFile), { recursive: true });
    // A stand-in for the openclaw executable: records its arguments, fails when asked to.
    await writeFile(
      fakeOpenclaw,
      `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\nif [ -f '${argsFile}.fail' ]; then echo 'gateway not reachable' >&2; exit 1; fi\necho '{"ok":true}'\n`,
    );
    await chmod(fakeOpenclaw, 0o755);
    const scheduled = options("schedule", { schedule: { openclawBin: fakeOpenclaw } });

    const ok = await runCoachSetup(scheduled);
    expect(ok.consolidation.scheduled).toEqual({ ok: true, output: '{"ok":true}' });
    expect(formatSetupReport(ok)).toContain("scheduled on the Gateway");
    const args = (await readFile(argsFile, "utf8")).trim().split("\n");
    expect(args.slice(0, 2)).toEqual(["cron", "add"]);
    expect(args[args.indexOf("--declaration-key") + 1]).toBe("coach-weekly-memory-consolidation");
    expect(args[args.indexOf("--agent") + 1]).toBe("coach");
    expect(args[args.indexOf("--session") + 1]).toBe("isolated");
    // The training-load summary is the one fitness tool the scheduled run may call.
    expect(args[args.indexOf("--tools") + 1]).toBe("read,write,fitness_get_activities");
    expect(args[args.indexOf("--message") + 1]).toMatch(/call fitness_get_activities with \{"summary": true\}.*Call no other fitness tool/);

    await writeFile(`${argsFile}.fail`, "");
    const failed = await runCoachSetup(scheduled);
    expect(failed.consolidation.scheduled).toEqual({ ok: false, error: "gateway not reachable" });
    const text = formatSetupReport(failed, "openclaw");
    expect(text).toContain("scheduling FAILED: gateway not reachable");
    expect(text).toContain("openclaw cron add");
  });
});
