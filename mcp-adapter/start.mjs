/**
 * What `npm start` runs: Form A (mcp-adapter/cli.ts) as plain JavaScript on Node, with no TypeScript
 * loader living in the server process.
 *
 * Why not `tsx mcp-adapter/cli.ts`: tsx keeps a module-loader thread and its transpiled sources in the
 * process for its whole life, about 20 MB of a server whose memory target is 120 MB, and its loader hooks
 * sit in front of every import (BENCHMARKS.md). Why not a prebuilt dist/: a fresh clone would need a
 * build step before `npm start`, and a stale build would run old code. So each start bundles the
 * sources with esbuild (about a quarter of a second; dependencies stay in node_modules), writes the
 * bundle to .cache/mcp-server/ and imports it. Arguments (`--stdio`) and signals reach the server as usual;
 * nothing is printed on standard output, which is protocol only in stdio mode.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildSync } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const entry = join(root, "mcp-adapter", "cli.ts");
const outDirectory = join(root, ".cache", "mcp-server");
const outfile = join(outDirectory, "cli.mjs");

let code;
try {
  const result = buildSync({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    write: false,
    logLevel: "silent",
  });
  code = result.outputFiles[0]?.contents;
  if (code === undefined) throw new Error("esbuild produced no output");
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

// Written under a name of its own, then renamed: two servers starting at once never import half a file.
mkdirSync(outDirectory, { recursive: true });
const scratch = `${outfile}.${process.pid}.tmp`;
writeFileSync(scratch, code);
renameSync(scratch, outfile);
await import(pathToFileURL(outfile).href);
