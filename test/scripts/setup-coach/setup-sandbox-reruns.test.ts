// `npm run setup:coach` run again over a config that already gives the coach a sandbox: over each
// choice setup writes (Docker, SSH, none), with each --sandbox value and without one, the report says
// what the written config holds. An explicit --sandbox changes the choice; a rerun without it keeps the
// config's. The machine's side is played by stand-ins at the edge: a `docker` CLI whose engine answers
// (or none at all) and an `ssh` client whose login and checks succeed. The command runs in this process
// (setup-command-run.ts), on the PATH each test gives it.
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPath, type JsonObject, type JsonValue } from "../../../scripts/setup-coach/json-tree.ts";
import { sandboxBlock, type SandboxChoice, type SandboxKind } from "../../../scripts/setup-coach/sandbox-choice.ts";
import { configuredSandbox, planSandbox } from "../../../scripts/setup-coach/sandbox-in-config.ts";
import { runCoachSetup } from "../../../scripts/setup-coach/setup.ts";
import { setupInProcess, type SetupRun } from "./setup-command-run.ts";

const ssh: Extract<SandboxChoice, { kind: "ssh" }> = {
  kind: "ssh",
  target: "coach@sandbox.example.net:2222",
  identityFile: "/etc/coach/id_ed25519",
  knownHostsFile: "/etc/coach/known_hosts",
  workspaceRoot: "/srv/openclaw-sandboxes",
};
const choices: Record<SandboxKind, SandboxChoice> = { docker: { kind: "docker" }, ssh, off: { kind: "off" } };
const sshArgs = [
  "--ssh-target",
  ssh.target,
  "--ssh-identity-file",
  ssh.identityFile ?? "",
  "--ssh-known-hosts-file",
  ssh.knownHostsFile ?? "",
  "--ssh-workspace-root",
  ssh.workspaceRoot ?? "",
];
const flagArgs = (kind: SandboxKind | undefined): string[] =>
  kind === undefined ? [] : ["--sandbox", kind, ...(kind === "ssh" ? sshArgs : [])];

type Run = SetupRun;

let scratch: string;
/** PATH with a docker whose engine answers and an ssh whose login and remote checks succeed. */
let machinePath: string;
/** PATH with the same ssh but no docker at all. */
let noDockerPath: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), "coach-sandbox-reruns-"));
  const withDocker = path.join(scratch, "bin-docker");
  const withoutDocker = path.join(scratch, "bin-no-docker");
  await mkdir(withDocker, { recursive: true });
  await mkdir(withoutDocker, { recursive: true });
  const stand = async (dir: string, name: string, script: string): Promise<void> => {
    await writeFile(path.join(dir, name), script);
    await chmod(path.join(dir, name), 0o755);
  };
  // The check asks only for the engine's version; the ssh check prints a line only for what is missing.
  await stand(
    withDocker,
    "docker",
    `#!/bin/sh\n[ "$1 $2 $3" = "version --format {{.Server.Version}}" ] && echo 27.3.1 && exit 0\nexit 1\n`,
  );
  for (const dir of [withDocker, withoutDocker]) await stand(dir, "ssh", "#!/bin/sh\nexit 0\n");
  // The system's own tools stay reachable; a docker elsewhere on this machine must not be.
  machinePath = [withDocker, "/usr/bin", "/bin"].join(path.delimiter);
  noDockerPath = [withoutDocker, "/usr/bin", "/bin"].join(path.delimiter);
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function setup(pathVariable: string, ...args: string[]): Promise<Run> {
  return await setupInProcess(args, {
    ...process.env,
    PATH: pathVariable,
    OPENCLAW_STATE_DIR: "",
    OPENCLAW_WORKSPACE_DIR: "",
    OPENCLAW_PROFILE: "",
  });
}

/** A config as setup wrote it with `existing` (in process: the same code the command runs). */
async function installed(name: string, existing: SandboxChoice): Promise<{ workspace: string; config: string }> {
  const workspace = path.join(scratch, name, "workspace-coach");
  const config = path.join(scratch, name, "openclaw.json");
  await mkdir(path.dirname(config), { recursive: true });
  await runCoachSetup({ workspace, configFile: config, agentId: "coach", sandbox: existing, dryRun: false, env: { HOME: scratch } });
  return { workspace, config };
}

const blockIn = async (config: string): Promise<JsonValue | undefined> =>
  getPath(JSON.parse(await readFile(config, "utf8")) as JsonObject, ["agents", "entries", "coach", "sandbox"]);

/** What the report says about the sandbox: the block it names, its first line's kind, and its next step. */
function reportedSandbox(stdout: string): { block: unknown; checked: string | undefined; step: SandboxKind | undefined } {
  const block = /^Sandbox agents\.entries\.coach\.sandbox = (.+)$/m.exec(stdout)?.[1];
  const checked = /^Sandbox \((\w+)\): /.exec(stdout)?.[1];
  const steps: Array<[SandboxKind, RegExp]> = [
    ["docker", /Keep Docker running on this host/],
    ["ssh", /The coach's workspace of record is now the copy on /],
    ["off", /The coach runs WITHOUT a sandbox/],
  ];
  const said = steps.filter(([, pattern]) => pattern.test(stdout)).map(([kind]) => kind);
  expect(said.length, `one sandbox step in:\n${stdout}`).toBe(1);
  return { block: block === undefined ? undefined : JSON.parse(block), checked, step: said[0] };
}

const kinds: SandboxKind[] = ["docker", "ssh", "off"];
const matrix = kinds.flatMap((existing) => [...kinds, undefined].map((flag) => [existing, flag] as const));

describe("setup:coach run again over an existing sandbox choice: the report and the written config agree", () => {
  it.each(matrix.map(([existing, flag]) => [existing, flag ?? "not given", flag] as const))(
    "existing %s, --sandbox %s",
    async (existing, _label, flag) => {
      const { workspace, config } = await installed(`${existing}-${flag ?? "none"}`, choices[existing]);
      const before = await blockIn(config);
      const run = await setup(machinePath, "--workspace", workspace, "--config", config, ...flagArgs(flag));
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);

      const expected = flag ?? existing;
      const written = await blockIn(config);
      expect(written).toEqual(flag === undefined ? before : sandboxBlock(choices[flag]));
      const reported = reportedSandbox(run.stdout);
      expect(reported.block).toEqual(written);
      expect(reported.checked).toBe(expected);
      expect(reported.step).toBe(expected);
      expect(run.stdout).not.toMatch(/kept agents\.entries\.coach\.sandbox/);
      if (flag === undefined) {
        expect(run.stdout).toContain("kept from the config (agents.entries.coach.sandbox); run setup with --sandbox to change it");
        expect(run.stdout).toContain("kept: already in the config");
      } else if (flag === existing) {
        expect(run.stdout).toContain(`kept: it already is what --sandbox ${flag} asks`);
      } else {
        expect(run.stdout).toContain(`changed from ${JSON.stringify(before)}, as --sandbox ${flag} asked`);
        expect((await readdir(path.dirname(config))).filter((file) => file.startsWith("openclaw.json.bak-"))).toHaveLength(1);
      }
    },
  );
});

describe("setup:coach run again on a machine without Docker", () => {
  it("--sandbox off over a Docker sandbox: writes mode off and says so (it kept mode all and said off before)", async () => {
    const { workspace, config } = await installed("no-docker-to-off", choices.docker);
    const run = await setup(noDockerPath, "--workspace", workspace, "--config", config, "--sandbox", "off");
    expect(run.code, run.stderr).toBe(0);
    expect(await blockIn(config)).toEqual({ mode: "off" });
    expect(reportedSandbox(run.stdout)).toEqual({ block: { mode: "off" }, checked: "off", step: "off" });
  });

  it("no --sandbox over an unsandboxed coach: keeps mode off (it refused before)", async () => {
    const { workspace, config } = await installed("no-docker-keep-off", choices.off);
    const run = await setup(noDockerPath, "--workspace", workspace, "--config", config);
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).not.toContain("Nothing was written");
    expect(await blockIn(config)).toEqual({ mode: "off" });
    expect(reportedSandbox(run.stdout)).toEqual({ block: { mode: "off" }, checked: "off", step: "off" });
  });

  it("no --sandbox over a Docker sandbox: stops, says the kept choice cannot run here and how to go on, writes nothing", async () => {
    const { workspace, config } = await installed("no-docker-keep-docker", choices.docker);
    const before = await readFile(config, "utf8");
    const run = await setup(noDockerPath, "--workspace", workspace, "--config", config);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^Sandbox \(docker\): /);
    expect(run.stdout).toContain("check: the docker command is not installed here");
    expect(run.stdout).toContain("kept from the config (agents.entries.coach.sandbox)");
    expect(run.stdout).toContain("keep it as it is anyway with --skip-sandbox-check, or change it with one of:");
    expect(run.stdout.trimEnd().endsWith("Nothing was written.")).toBe(true);
    expect(await readFile(config, "utf8")).toBe(before);
    const anyway = await setup(noDockerPath, "--workspace", workspace, "--config", config, "--skip-sandbox-check");
    expect(anyway.code, anyway.stdout).toBe(0);
    expect(anyway.stdout).toContain("Writing the config anyway (--skip-sandbox-check)");
    expect(reportedSandbox(anyway.stdout)).toEqual({ block: sandboxBlock(choices.docker), checked: "docker", step: "docker" });
  });

  it("no --sandbox and no sandbox in the config: still the default, Docker, which stops here and writes nothing", async () => {
    const config = path.join(scratch, "fresh", "openclaw.json");
    const run = await setup(noDockerPath, "--workspace", path.join(scratch, "fresh", "ws"), "--config", config, "--skip-sandbox-check");
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("the default: no --sandbox given and no agents.entries.coach.sandbox in the config");
    expect(run.stdout).toContain("Choose how the coach runs and run setup again with one of:");
  });
});

describe("a sandbox block setup does not write", () => {
  it("is kept as it is without --sandbox, said so and not checked; --sandbox replaces it", async () => {
    const workspace = path.join(scratch, "other", "ws");
    const config = path.join(scratch, "other", "openclaw.json");
    await mkdir(path.dirname(config), { recursive: true });
    const other = { mode: "non-main", scope: "session" };
    await writeFile(
      config,
      JSON.stringify({ agents: { ownership: "explicit", entries: { main: {}, coach: { workspace, sandbox: other } } } }),
    );
    const kept = await setup(noDockerPath, "--workspace", workspace, "--config", config);
    expect(kept.code, kept.stdout).toBe(0);
    expect(kept.stdout).toMatch(/^Sandbox \(as configured\): agents\.entries\.coach\.sandbox = \{"mode":"non-main","scope":"session"\}/);
    expect(kept.stdout).toContain("The coach's sandbox block is a form this setup does not write: it was kept as it is and not checked.");
    expect(await blockIn(config)).toEqual(other);
    const replaced = await setup(noDockerPath, "--workspace", workspace, "--config", config, "--sandbox", "off");
    expect(replaced.code, replaced.stdout).toBe(0);
    expect(await blockIn(config)).toEqual({ mode: "off" });
    expect(replaced.stdout).toContain('changed from {"mode":"non-main","scope":"session"}, as --sandbox off asked');
  });
});

describe("planSandbox", () => {
  it("keeps a block that already says what --sandbox asks, with the settings the operator added", () => {
    const block = { ...sandboxBlock(ssh), prune: { idleHours: 2 } };
    const config = { agents: { entries: { coach: { sandbox: block } } } } as JsonObject;
    expect(planSandbox(ssh, configuredSandbox(config, "coach"))).toMatchObject({ action: "keep", explicit: true });
    expect(planSandbox({ ...ssh, target: "coach@other.example.net" }, configuredSandbox(config, "coach"))).toMatchObject({
      action: "replace",
      previous: block,
    });
    expect(planSandbox(undefined, configuredSandbox(config, "coach"))).toEqual({
      action: "keep",
      choice: ssh,
      explicit: false,
      previous: block,
    });
    expect(planSandbox(undefined, { kind: "none" })).toEqual({ action: "add", choice: { kind: "docker" }, explicit: false });
    // Every key of the Docker block is in an SSH block too: the kind decides first.
    expect(planSandbox({ kind: "docker" }, configuredSandbox(config, "coach"))).toMatchObject({ action: "replace" });
  });

  it("reads Docker from mode all with no backend or backend docker, and anything else as a form of its own", () => {
    const read = (sandbox: JsonValue) => configuredSandbox({ agents: { entries: { coach: { sandbox } } } } as JsonObject, "coach");
    expect(read({ mode: "all" })).toMatchObject({ kind: "choice", choice: { kind: "docker" } });
    expect(read({ mode: "all", backend: "docker" })).toMatchObject({ kind: "choice", choice: { kind: "docker" } });
    expect(read({ mode: "all", backend: "ssh" })).toMatchObject({ kind: "other" });
    expect(read({ mode: "all", backend: "podman" })).toMatchObject({ kind: "other" });
    expect(read({ scope: "agent" })).toMatchObject({ kind: "other" });
  });
});
