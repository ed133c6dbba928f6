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
 *   manifest names every source file with its size, time and hash, and when one changed since, the
 *   server is rebuilt first (logged as `server_built`), so a stale build never runs. `npm install` builds
 *   it (`prepare`), so normally nothing is built here. An installed package has no sources and runs its
 *   packaged build;
 * - over HTTP, which serves many clients at once, replaces itself (`process.execve`, same process id,
 *   same standard streams) with a Node started with the heap settings of heap-settings.mjs, which V8
 *   reads only when it starts (set from inside, they do not take). Over stdio (one client, whose
 *   start-up is what it feels) the process runs as started;
 * - turns on Node's compile cache (compiled code kept on disk between starts: faster start-up).
 * Nothing is printed on standard output, which is protocol only in stdio mode.
 */
import { existsSync, readFileSync } from "node:fs";
import module from "node:module";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { httpHeapFlags } from "./heap-settings.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const minimum = [24, 11];

function fail(message) {
  const line = { time: new Date().toISOString(), level: "error", event: "startup_failed", service: "mcp", message };
  process.stderr.write(`${JSON.stringify(line)}\n`);
  process.exit(1);
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

// Before anything below is imported: the build check's own module is then compiled from the cache too.
module.enableCompileCache?.();

const manifestPath = join(root, "dist", "mcp-server", "manifest.json");
let manifest;
try {
  manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
} catch {
  manifest = undefined;
}
if (existsSync(join(root, "mcp-adapter", "cli.ts"))) {
  const { buildServer, describeBuildError, sourcesChanged } = await import("./build-server.mjs");
  const reason =
    manifest === undefined ? "no build yet" : sourcesChanged(manifest) ? "the sources changed since the last build" : undefined;
  if (reason !== undefined) {
    const started = performance.now();
    try {
      manifest = await buildServer();
    } catch (error) {
      fail(
        error?.code === "ERR_MODULE_NOT_FOUND"
          ? `The server must be rebuilt (${reason}) but esbuild is not installed: run npm install in ${root}.`
          : `Could not build the server (${reason}): ${describeBuildError(error)}. Fix the source, or run npm install if esbuild is missing.`,
      );
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
}
if (manifest === undefined) fail(`The server is not built (${manifestPath} is missing): run npm run build in ${root}.`);

await import(pathToFileURL(join(root, "dist", "mcp-server", manifest.entry)).href);
