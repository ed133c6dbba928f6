/**
 * `npm run test:host`: the plugin in the real OpenClaw host.
 *
 * 1. Installs Node 24 and openclaw into .cache/openclaw/ when missing (the only step that needs the
 *    network; about a minute and 650 MB the first time, reused after).
 * 2. Runs each module's `prepare` (with the network: the npm package is packed and installed into a
 *    scratch host) while, at the same time,
 * 3. every module in test/host/checks/ (file-name order) runs its checks in a network namespace with only
 *    loopback (`unshare --net`), so nothing can reach the internet: the upstream is the sandbox and
 *    the secret store is moto_server, both started here. Without unshare (not root, no user
 *    namespaces) the checks run unisolated and say so.
 *
 * Prints one PASS/FAIL line per check and exits non-zero when any check fails.
 * Options: --keep (keep scratch folders), --only <text> (modules whose file name contains it),
 *          --no-isolation (skip the network namespace).
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CheckReport } from "./check-report.ts";
import { ensureHost, hostVersions, type InstalledHost } from "./host-install.ts";
import { startHostServices } from "./host-services.ts";
import { withHost } from "./host-context.ts";
import type { HostCheckModule, Prepared } from "./host-check-module.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const cacheDir = join(repoRoot, ".cache", "openclaw");
const isolatedMarker = "FITNESS_HOST_CHECKS_ISOLATED";
/** Where the network phase left the modules' prepared results (a JSON file), for the isolated phase. */
const preparedVariable = "FITNESS_HOST_CHECKS_PREPARED";
const args = process.argv.slice(2);
const keep = args.includes("--keep");
const onlyIndex = args.indexOf("--only");
const only = onlyIndex >= 0 ? args[onlyIndex + 1] : undefined;
const log = (line: string): void => console.log(`[host] ${line}`);

async function main(): Promise<number> {
  const started = performance.now();
  if (process.env[isolatedMarker] === "1") {
    const file = process.env[preparedVariable] ?? "";
    let all: Promise<Record<string, Prepared>> | undefined;
    return await runChecks(started, (module) => (all ??= waitForPrepared(file)).then((prepared) => prepared[module]));
  }
  const host = await ensureHost(cacheDir, log);
  log(
    host.installed.length > 0
      ? `installed ${host.installed.join(" and ")} in ${((performance.now() - started) / 1000).toFixed(0)} s`
      : `using cached Node ${hostVersions.node} and openclaw ${hostVersions.openclaw} from ${cacheDir}`,
  );
  const prepareDir = await mkdtemp(join(tmpdir(), "openclaw-host-prepare-"));
  try {
    const unshare = args.includes("--no-isolation") ? undefined : loopbackOnlyNamespace();
    if (unshare) {
      log("running the checks in a network namespace with loopback only (no internet)");
      // Preparation (with the network) runs here meanwhile; modules that need it wait for its file.
      const preparedFile = join(prepareDir, "prepared.json");
      const preparing = prepareModules(prepareDir, host, npmEnv()).then(async (prepared) => {
        await writeFile(`${preparedFile}.partial`, JSON.stringify(prepared));
        await rename(`${preparedFile}.partial`, preparedFile);
      });
      const code = await rerunInside(unshare, { [preparedVariable]: preparedFile });
      await preparing;
      return code;
    }
    log(
      args.includes("--no-isolation")
        ? "NOTE: --no-isolation: the checks run with the machine's network (they still only use loopback servers)"
        : "NOTE: unshare --net is not available here: the checks run without network isolation (they still only use loopback servers)",
    );
    const prepared = await prepareModules(prepareDir, host, npmEnv());
    return await runChecks(started, async (module) => prepared[module]);
  } finally {
    if (!keep) await rm(prepareDir, { recursive: true, force: true });
  }
}

/** The prepared results, once the network phase has written them. */
async function waitForPrepared(file: string): Promise<Record<string, Prepared>> {
  const deadline = Date.now() + 20 * 60_000;
  for (;;) {
    try {
      return JSON.parse(await readFile(file, "utf8")) as Record<string, Prepared>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    if (Date.now() > deadline) throw new Error(`the preparation (npm pack and install) did not finish within 20 minutes (${file})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Runs each module's `prepare` (network allowed); failures are kept for the module to report. */
async function prepareModules(dir: string, host: InstalledHost, env: Record<string, string>): Promise<Record<string, Prepared>> {
  const prepared: Record<string, Prepared> = {};
  for (const file of await checkModules().catch(() => [])) {
    const module = await loadModule(file).catch(() => undefined);
    if (!module?.prepare) continue;
    const started = performance.now();
    log(`preparing ${file} ...`);
    const moduleDir = join(dir, file.replace(/\.ts$/, ""));
    await mkdir(moduleDir, { recursive: true });
    try {
      const value = await module.prepare({
        repoRoot,
        host,
        dir: moduleDir,
        withHost: (body, options) => withHost({ host, env, keep, ...options }, body),
      });
      prepared[file] = { ok: true, value, ms: performance.now() - started };
    } catch (error) {
      prepared[file] = { ok: false, error: error instanceof Error ? error.message : String(error), ms: performance.now() - started };
    }
  }
  return prepared;
}

async function loadModule(file: string): Promise<HostCheckModule> {
  return ((await import(pathToFileURL(join(repoRoot, "test", "host", "checks", file)).href)) as { default: HostCheckModule }).default;
}

async function runChecks(started: number, preparedFor: (module: string) => Promise<Prepared>): Promise<number> {
  const host = await ensureHost(cacheDir, () => {
    throw new Error("the host is not installed; run npm run test:host with network access first");
  });
  const report = new CheckReport();
  const services = await startHostServices();
  log(`sandbox upstream at ${services.sandbox.apiBase}, Secrets Manager (moto) at ${services.moto.endpoint}`);
  try {
    // Any npm the host runs now may only use the local cache.
    const env = { ...services.env, ...npmEnv(), npm_config_offline: "true" };
    for (const file of await checkModules()) {
      const module = await loadModule(file);
      console.log(`\n== ${module.title} (${file})`);
      try {
        await module.run({
          repoRoot,
          host,
          services,
          report,
          prepared: module.prepare ? await preparedFor(file) : undefined,
          withHost: (body, options) => withHost({ host, env, keep, ...options }, body),
        });
      } catch (error) {
        await report.check(`${file} ran to the end`, () => Promise.reject(error));
      }
    }
  } finally {
    await services.stop();
  }
  console.log(`\n${report.summary(performance.now() - started)}`);
  return report.failed === 0 && report.outcomes.length > 0 ? 0 : 1;
}

/** The host's npm uses the caller's npm cache (the scratch HOME has none). */
function npmEnv(): Record<string, string> {
  return { npm_config_cache: execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).trim() };
}

async function checkModules(): Promise<string[]> {
  const files = (await readdir(join(repoRoot, "test", "host", "checks"))).filter((file) => file.endsWith(".ts")).sort();
  const selected = only ? files.filter((file) => file.includes(only)) : files;
  if (selected.length === 0) throw new Error(`no check module in test/host/checks matches ${only ?? "*.ts"}`);
  return selected;
}

/** `unshare` arguments that give a fresh network namespace in which loopback can be brought up. */
function loopbackOnlyNamespace(): string[] | undefined {
  const candidates =
    process.getuid?.() === 0 ? [["--net"], ["--user", "--map-root-user", "--net"]] : [["--user", "--map-root-user", "--net"]];
  for (const flags of candidates) {
    const probe = spawnSync("unshare", [...flags, "--", "sh", "-c", "ip link set lo up"], { stdio: "ignore" });
    if (probe.status === 0) return flags;
  }
  return undefined;
}

function rerunInside(flags: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(
      "unshare",
      [
        ...flags,
        "--",
        "sh",
        "-c",
        'ip link set lo up && exec "$@"',
        "sh",
        process.execPath,
        ...process.execArgv,
        fileURLToPath(import.meta.url),
        ...args,
      ],
      { stdio: "inherit", env: { ...process.env, ...env, [isolatedMarker]: "1" } },
    );
    const forward = (signal: NodeJS.Signals): void => {
      child.kill(signal);
    };
    process.on("SIGINT", forward);
    process.on("SIGTERM", forward);
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`[host] FAIL: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
