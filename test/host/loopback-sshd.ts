/**
 * An OpenSSH server on loopback for the SSH sandbox backend in host checks: Debian's `sshd` with a
 * scratch configuration (its own host key, one authorized client key, no passwords, no PAM), run in
 * the foreground on a free port and stopped with the check. Nothing outside the scratch folder is
 * configured, apart from sshd's fixed privilege-separation directory (`/run/sshd`), which is created
 * when missing, as the Debian service does at start.
 *
 * `.ci/run` installs `openssh-server` when `sshd` is missing; `findSshd()` says why the SSH checks
 * cannot run otherwise.
 */
import { spawn, execFile, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "../support/free-port.ts";

const run = promisify(execFile);
const sshdCandidates = ["/usr/sbin/sshd", "/usr/local/sbin/sshd"];

export interface LoopbackSshd {
  /** `user@127.0.0.1:PORT`, the backend's `ssh.target`. */
  target: string;
  port: number;
  user: string;
  /** Private key the gateway authenticates with (mode 0600). */
  identityFile: string;
  /** known_hosts holding this server's host key, for strict host key checking. */
  knownHostsFile: string;
  /** sshd's own log (standard error), for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

/** The sshd binary, or why there is none. */
export function findSshd(): { path: string } | { missing: string } {
  const path = sshdCandidates.find((candidate) => existsSync(candidate));
  return path
    ? { path }
    : {
        missing: `no sshd in ${sshdCandidates.join(" or ")}: install Debian's openssh-server (.ci/run does: apt-get install openssh-server)`,
      };
}

export async function startLoopbackSshd(dir: string): Promise<LoopbackSshd> {
  const found = findSshd();
  if ("missing" in found) throw new Error(found.missing);
  await mkdir(dir, { recursive: true });
  const user = userInfo().username;
  const hostKey = join(dir, "ssh_host_ed25519_key");
  const identityFile = join(dir, "id_ed25519");
  const authorizedKeys = join(dir, "authorized_keys");
  const knownHostsFile = join(dir, "known_hosts");
  await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "openclaw-host-check-sshd", "-f", hostKey]);
  await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "openclaw-host-check-gateway", "-f", identityFile]);
  await writeFile(authorizedKeys, await readFile(`${identityFile}.pub`));
  await chmod(authorizedKeys, 0o600);
  const port = await freePort();
  const hostPublic = (await readFile(`${hostKey}.pub`, "utf8")).trim().split(" ").slice(0, 2).join(" ");
  await writeFile(knownHostsFile, `[127.0.0.1]:${port} ${hostPublic}\n`);
  const config = join(dir, "sshd_config");
  await writeFile(
    config,
    [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${hostKey}`,
      `AuthorizedKeysFile ${authorizedKeys}`,
      `PidFile ${join(dir, "sshd.pid")}`,
      "PubkeyAuthentication yes",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "UsePAM no",
      `AllowUsers ${user}`,
      ...(user === "root" ? ["PermitRootLogin prohibit-password"] : []),
      // The scratch folder sits under the temporary directory, whose modes sshd's StrictModes rejects.
      "StrictModes no",
      "X11Forwarding no",
      "AllowTcpForwarding no",
      "PrintMotd no",
      "LogLevel ERROR",
      "",
    ].join("\n"),
  );
  if (process.getuid?.() === 0) await mkdir("/run/sshd", { recursive: true, mode: 0o755 });
  const child: ChildProcess = spawn(found.path, ["-D", "-e", "-f", config], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  child.stderr?.on("data", (chunk: Buffer) => (log = (log + chunk.toString()).slice(-8000)));
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));

  const target = `${user}@127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`sshd exited (${child.exitCode}) before it answered:\n${log}`);
    try {
      await run("ssh", sshClientArgs({ port, user, identityFile, knownHostsFile }, "true"), { timeout: 10_000 });
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`sshd on 127.0.0.1:${port} did not accept the test key within 15 s: ${(error as Error).message}\n${log}`, {
          cause: error,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    target,
    port,
    user,
    identityFile,
    knownHostsFile,
    log: () => log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await closed;
    },
  };
}

/** ssh client arguments that reach this server non-interactively, with strict host key checking. */
export function sshClientArgs(
  server: { port: number; user: string; identityFile: string; knownHostsFile: string },
  command: string,
): string[] {
  return [
    "-o",
    "BatchMode=yes",
    "-o",
    "StrictHostKeyChecking=yes",
    "-o",
    `UserKnownHostsFile=${server.knownHostsFile}`,
    "-o",
    "IdentitiesOnly=yes",
    "-i",
    server.identityFile,
    "-p",
    String(server.port),
    `${server.user}@127.0.0.1`,
    command,
  ];
}
