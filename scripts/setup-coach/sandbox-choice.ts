/**
 * Where the coach's tools run, and whether this machine can run it, checked before setup writes
 * anything. The design isolates the coach with `sandbox.mode: "all"`; OpenClaw 2026.9 runs that in a
 * Docker container by default, and without a reachable engine every turn fails
 * (SandboxProvisioningError; the athlete reads "Something went wrong while processing your request").
 * So the operator chooses, knowingly:
 *   docker  mode "all" in a local container (the design's isolation; needs a running Docker engine)
 *   ssh     mode "all" on another machine over SSH (OpenClaw's SSH backend: /bin/sh, python3, GNU stat
 *           and readlink there; its copy of the workspace becomes the real one)
 *   off     no sandbox: read/write run on the gateway host as its user, kept to the coach's workspace
 *           by tools.fs.workspaceOnly (set for every choice)
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { CoachSetupError } from "./setup-error.ts";
import type { JsonObject } from "./json-tree.ts";

export const sandboxKinds = ["docker", "ssh", "off"] as const;
export type SandboxKind = (typeof sandboxKinds)[number];

export type SandboxChoice =
  | { kind: "docker" }
  | { kind: "ssh"; target: string; identityFile?: string; knownHostsFile?: string; workspaceRoot?: string }
  | { kind: "off" };

export interface SandboxCheck {
  choice: SandboxChoice;
  /** Whether the check found what the choice needs on this machine now. */
  runsHere: boolean;
  /** One line: what was checked and what it found. */
  finding: string;
}

/** `user@host[:port]`, as the host's `sandbox.ssh.target` takes it. */
const sshTargetPattern = /^([A-Za-z0-9._-]+)@([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;
/** The host's default remote root for SSH sandboxes. */
export const defaultSshWorkspaceRoot = "/tmp/openclaw-sandboxes";

/** The agent entry's `sandbox` block for a choice. */
export function sandboxBlock(choice: SandboxChoice): JsonObject {
  switch (choice.kind) {
    case "docker":
      return { mode: "all", scope: "agent", workspaceAccess: "rw" };
    case "ssh": {
      const ssh: JsonObject = { target: choice.target };
      if (choice.workspaceRoot) ssh["workspaceRoot"] = choice.workspaceRoot;
      if (choice.identityFile) ssh["identityFile"] = choice.identityFile;
      if (choice.knownHostsFile) ssh["knownHostsFile"] = choice.knownHostsFile;
      return { mode: "all", backend: "ssh", scope: "agent", workspaceAccess: "rw", ssh };
    }
    case "off":
      return { mode: "off" };
  }
}

/** Builds an SSH choice from the command line, or says what is wrong with it. */
export function sshChoice(options: {
  target?: string;
  identityFile?: string;
  knownHostsFile?: string;
  workspaceRoot?: string;
}): SandboxChoice {
  if (!options.target)
    throw new CoachSetupError("--sandbox ssh needs --ssh-target USER@HOST[:PORT] (the machine the coach's tools run on).");
  if (!sshTargetPattern.test(options.target)) {
    throw new CoachSetupError(`--ssh-target "${options.target}" is not USER@HOST[:PORT], for example coach@sandbox.example.net:22.`);
  }
  if (options.workspaceRoot !== undefined && !options.workspaceRoot.startsWith("/")) {
    throw new CoachSetupError(
      `--ssh-workspace-root "${options.workspaceRoot}" must be an absolute path on the SSH machine, for example ${defaultSshWorkspaceRoot}.`,
    );
  }
  return {
    kind: "ssh",
    target: options.target,
    ...(options.identityFile ? { identityFile: options.identityFile } : {}),
    ...(options.knownHostsFile ? { knownHostsFile: options.knownHostsFile } : {}),
    ...(options.workspaceRoot ? { workspaceRoot: options.workspaceRoot } : {}),
  };
}

type Env = Readonly<Record<string, string | undefined>>;
const run = promisify(execFile);

/** Checks, on this machine, what the choice needs; never throws. */
export async function checkSandbox(choice: SandboxChoice, env: Env): Promise<SandboxCheck> {
  switch (choice.kind) {
    case "off":
      return { choice, runsHere: true, finding: "no sandbox to check: the coach's tools will run on this host, as the Gateway's user" };
    case "docker":
      return { choice, ...(await checkDocker(env)) };
    case "ssh":
      return { choice, ...(await checkSsh(choice, env)) };
  }
}

async function checkDocker(env: Env): Promise<Omit<SandboxCheck, "choice">> {
  try {
    // `docker version` answers its client part even without an engine; the server part needs one.
    const { stdout } = await run("docker", ["version", "--format", "{{.Server.Version}}"], { env: { ...env }, timeout: 20_000 });
    return { runsHere: true, finding: `Docker engine ${stdout.trim()} answers (docker version)` };
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string; killed?: boolean };
    if (failure.code === "ENOENT") return { runsHere: false, finding: "the docker command is not installed here" };
    if (failure.killed) return { runsHere: false, finding: "the Docker engine did not answer within 20 s (docker version)" };
    return { runsHere: false, finding: `no Docker engine answers: ${lastLine(failure.stderr) || failure.message}` };
  }
}

/**
 * Logs in the way the host will (batch mode, strict host keys, the same key and known_hosts files) and
 * checks the remote utilities the host's file bridge needs and that the workspace root can be created.
 */
async function checkSsh(choice: Extract<SandboxChoice, { kind: "ssh" }>, env: Env): Promise<Omit<SandboxCheck, "choice">> {
  const [, user, host, port] = sshTargetPattern.exec(choice.target) ?? [];
  const root = choice.workspaceRoot ?? defaultSshWorkspaceRoot;
  const probe = [
    "command -v python3 >/dev/null || echo 'python3 is missing'",
    "stat -c %s / >/dev/null 2>&1 || echo 'stat -c is not supported (GNU stat needed)'",
    "readlink -f / >/dev/null 2>&1 || echo 'readlink -f is not supported (GNU readlink needed)'",
    `mkdir -p '${root}' 2>/dev/null && test -w '${root}' || echo 'cannot create or write ${root}'`,
  ].join("; ");
  const args = [
    "-o",
    "BatchMode=yes",
    "-o",
    "ConnectTimeout=10",
    "-o",
    "StrictHostKeyChecking=yes",
    ...(choice.knownHostsFile ? ["-o", `UserKnownHostsFile=${choice.knownHostsFile}`] : []),
    ...(choice.identityFile ? ["-o", "IdentitiesOnly=yes", "-i", choice.identityFile] : []),
    ...(port ? ["-p", port] : []),
    `${user}@${host?.replace(/^\[|\]$/g, "")}`,
    probe,
  ];
  try {
    const { stdout } = await run("ssh", args, { env: { ...env }, timeout: 30_000 });
    const problems = stdout.trim().split("\n").filter(Boolean);
    return problems.length === 0
      ? {
          runsHere: true,
          finding: `ssh ${choice.target} logs in with strict host key checking, and python3, GNU stat and readlink are there; ${root} is writable`,
        }
      : { runsHere: false, finding: `ssh ${choice.target} logs in, but ${problems.join("; ")}` };
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === "ENOENT")
      return { runsHere: false, finding: "the ssh command is not installed here (the host runs it for the SSH backend)" };
    return { runsHere: false, finding: `ssh ${choice.target} failed: ${lastLine(failure.stderr) || failure.message}` };
  }
}

/** What a choice means for the coach, one line each, for the operator. */
export function describeChoice(choice: SandboxChoice): string {
  switch (choice.kind) {
    case "docker":
      return 'sandbox.mode "all" in a Docker container on this host (full isolation); every turn needs the engine running';
    case "ssh":
      return `sandbox.mode "all" on ${choice.target} over SSH: the coach's tools run there, on a copy of its workspace seeded once from this host (under ${choice.workspaceRoot ?? defaultSshWorkspaceRoot}), which becomes the real one`;
    case "off":
      return "NO SANDBOX: the coach's read and write run on this host as the Gateway's user, limited to the coach's workspace (tools.fs.workspaceOnly); its tool policy (the 11 fitness tools, read, write, web_fetch, web_search) is the only other limit";
  }
}

/** The three choices as command-line options, for an operator who has to pick one. */
export function choicesHelp(): string[] {
  return [
    "--sandbox docker   keep full container isolation: install and start Docker first",
    "                   (add --skip-sandbox-check to write the config before Docker is running)",
    "--sandbox ssh --ssh-target USER@HOST[:PORT] [--ssh-identity-file FILE] [--ssh-known-hosts-file FILE] [--ssh-workspace-root DIR]",
    "                   the same isolation on another machine over SSH (needs /bin/sh, python3, GNU stat and readlink there)",
    "--sandbox off      run unsandboxed: read/write on this host as the Gateway's user, limited to the coach's workspace",
  ];
}

function lastLine(text: string | undefined): string {
  return (text ?? "").trim().split("\n").filter(Boolean).at(-1)?.trim() ?? "";
}
