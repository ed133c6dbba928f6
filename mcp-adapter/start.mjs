#!/usr/bin/env node
/**
 * Starts the MCP server from its built JavaScript: HTTP by default, stdio with --stdio. This is the package's
 * `bin` (openclaw-fitness-mcp) and what `npm start` runs; MCP clients start it as
 * `<checkout>/node_modules/node/bin/node <checkout>/mcp-adapter/start.mjs --stdio`, with no npm and no
 * build in between.
 *
 * What it does before the server's own code loads:
 * - refuses a Node older than 24.11 with a message naming the Node 24 this checkout installed (this
 *   file is plain JavaScript any Node can parse, so the message is what an old Node prints);
 * - in a checkout (the TypeScript sources are beside it), makes sure the build is current: the build's
 *   manifest names every source file with its size, time and hash (common/built-artifacts.mjs reads it), and
 *   when one changed since, the server is rebuilt first by the build code run as a process of its own
 *   (build/server.mjs; logged as `server_built`), so a stale build never runs and no build code is loaded
 *   here. `npm install` builds it (`prepare`), so normally nothing is built here. An installed package has
 *   no sources and runs its packaged build;
 * - over HTTP, which serves many clients at once, replaces itself (`process.execve`, same process id,
 *   same standard streams) with a Node started with the heap settings of heap-settings.mjs, which V8
 *   reads only when it starts (set from inside, they do not take). Over stdio (one client, whose
 *   start-up is what it feels) the process runs as started;
 * - turns on Node's compile cache (compiled code kept on disk between starts: faster start-up).
 * Nothing is printed on standard output, which is protocol only in stdio mode.
 */
// `process` and `performance` are the globals, and node:child_process loads only to rebuild: an ES module
// import of a built-in makes Node read each of its exports, which for node:process runs every lazy getter,
// and every start a stdio client waits for would pay for both.
import { existsSync } from "node:fs";
import module from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { httpHeapFlags } from "./heap-settings.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const minimum = [24, 11];

function fail(message) {
  const line = { time: new Date().toISOString(), level: "error", event: "startup_failed", service: "mcp", message };
  process.stderr.write(`${JSON.stringify(line)}\n`);
  process.exit(1);
}

/**
 * Builds the server with the build code (build/server.mjs), run as a process of its own so that nothing of the
 * build is loaded into this one. Its output is kept off standard output (protocol only over stdio) and shown
 * only when the build fails.
 */
function rebuild(reason) {
  if (!existsSync(join(root, "node_modules", "esbuild"))) {
    fail(`The server must be rebuilt (${reason}) but esbuild is not installed: run npm install in ${root}.`);
  }
  const started = performance.now();
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const build = spawnSync(process.execPath, [join(root, "build", "server.mjs")], { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  if (build.status !== 0) {
    const said = `${build.stderr ?? ""}${build.stdout ?? ""}`.trim().slice(0, 2000) || build.error?.message || `exit ${build.status}`;
    fail(`Could not build the server (${reason}): ${said}. Fix the source, or run npm install if esbuild is missing.`);
  }
  const line = {
    time: new Date().toISOString(),
    level: "info",
    event: "server_built",
    service: "mcp",
    reason,
    ms: Math.round(performance.now() - started),
  };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}

const [major, minor] = process.versions.node.split(".").map(Number);
if (major < minimum[0] || (major === minimum[0] && minor < minimum[1])) {
  const pinned = join(root, "node_modules", "node", "bin", "node");
  fail(
    `This server needs Node ${minimum.join(".")} or newer; this is Node ${process.versions.node} (${process.execPath}). ` +
      (existsSync(pinned)
        ? `Start it with the Node 24 that npm install put in this checkout: ${pinned} ${fileURLToPath(import.meta.url)} [--stdio] (docs/operators/connecting-clients.md).`
        : "Install Node 24 (https://nodejs.org), or run npm install in the checkout, which brings Node 24 for its scripts."),
  );
}

// An operator's own choice of these settings, given to node or in NODE_OPTIONS, is kept.
const args = process.argv.slice(2);
const serving = !args.some((arg) => arg === "--stdio" || arg === "--help" || arg === "-h" || arg === "--version");
const given = [...process.execArgv, ...(process.env["NODE_OPTIONS"] ?? "").split(/\s+/)];
const missing = httpHeapFlags.filter((flag) => !given.some((option) => option.startsWith(flag.split("=")[0])));
if (serving && missing.length > 0 && typeof process.execve === "function") {
  process.execve(
    process.execPath,
    [process.execPath, ...process.execArgv, ...missing, fileURLToPath(import.meta.url), ...args],
    process.env,
  );
}

// Before anything below is imported: the build check's module is then compiled from the cache too.
module.enableCompileCache?.();

const { readBuildManifest, sourcesChanged } = await import("../common/built-artifacts.mjs");
const manifestPath = join(root, "dist", "mcp-server", "manifest.json");
let manifest = readBuildManifest(manifestPath);
if (existsSync(join(root, "mcp-adapter", "cli.ts"))) {
  const reason =
    manifest === undefined ? "no build yet" : sourcesChanged(manifest, root) ? "the sources changed since the last build" : undefined;
  if (reason !== undefined) {
    rebuild(reason);
    manifest = readBuildManifest(manifestPath);
  }
}
if (manifest === undefined) fail(`The server is not built (${manifestPath} is missing): run npm run build in ${root}.`);

await import(pathToFileURL(join(root, "dist", "mcp-server", manifest.entry)).href);
