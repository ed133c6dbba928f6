/**
 * What `npm start` runs: Form A (mcp-adapter/cli.ts) as plain JavaScript on Node, with no TypeScript
 * loader living in the server process.
 *
 * Why not `tsx mcp-adapter/cli.ts`: tsx keeps a module-loader thread and its transpiled sources in the
 * process for its whole life, about 20 MB of a server whose memory target is 120 MB, and its loader hooks
 * sit in front of every import (BENCHMARKS.md). Why not a prebuilt dist/: a fresh clone would need a
 * build step before `npm start`, and a stale build would run old code. So each start bundles the
 * sources with esbuild (about a quarter of a second; dependencies stay in node_modules) into
 * .cache/mcp-server/<content hash>/ and imports it. Code splitting keeps cli.ts's dynamic imports lazy (the
 * AWS SDK loads only with FITNESS_SECRET_NAME, the sandbox only without credentials), as they are in the
 * sources. Arguments (`--stdio`) and signals reach the server as usual;
 * nothing is printed on standard output, which is protocol only in stdio mode.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, stop } from "esbuild";
import { serverBundleOptions } from "./bundle-options.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const entry = join(root, "mcp-adapter", "cli.ts");
const cacheDirectory = join(root, ".cache", "mcp-server");
const scratch = join(cacheDirectory, `building-${process.pid}`);

let files;
try {
  // The async API runs esbuild as a child process, stopped right after; the synchronous one would keep a
  // worker thread (a V8 isolate of its own, about 14 MB) alive in the server for its whole life.
  const result = await build({ ...serverBundleOptions, entryPoints: { cli: entry }, outdir: scratch, write: false, logLevel: "silent" });
  files = result.outputFiles;
  if (files.length === 0) throw new Error("esbuild produced no output");
  await stop();
} catch (error) {
  const problems = Array.isArray(error?.errors)
    ? error.errors.slice(0, 5).map((problem) => {
        const where = problem.location ? `${relative(root, problem.location.file)}:${problem.location.line}:${problem.location.column}: ` : "";
        return `${where}${problem.text}`;
      })
    : [error instanceof Error ? error.message : String(error)];
  const line = {
    time: new Date().toISOString(),
    level: "error",
    event: "startup_failed",
    service: "mcp",
    message: `Could not compile ${relative(root, entry)} to start the server: ${problems.join("; ")}. Fix the source, or run npm ci if esbuild is missing.`,
  };
  process.stderr.write(`${JSON.stringify(line)}\n`);
  process.exit(1);
}

// Written to a directory of its own, then renamed to the content's hash: a server never imports half a
// build, and servers started at once from the same sources share one directory.
const hash = createHash("sha256");
for (const file of files) hash.update(relative(scratch, file.path)).update(file.contents);
const built = join(cacheDirectory, hash.digest("hex").slice(0, 16));
rmSync(scratch, { recursive: true, force: true }); // left by a crashed start with this process id
for (const file of files) {
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, file.contents);
}
try {
  renameSync(scratch, built);
} catch {
  rmSync(scratch, { recursive: true, force: true }); // the same build is already there
}
const now = new Date();
utimesSync(built, now, now); // in use: not stale
removeStaleBuilds(built);
await import(pathToFileURL(join(built, "cli.mjs")).href);

/** Builds of older sources, untouched for a day (a server that started from one has long loaded it). */
function removeStaleBuilds(keep) {
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of readdirSync(cacheDirectory)) {
    const path = join(cacheDirectory, name);
    try {
      if (path !== keep && statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
    } catch {
      // another server removed it first
    }
  }
}
