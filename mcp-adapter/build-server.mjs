/**
 * Builds the MCP server's TypeScript (mcp-adapter/cli.ts and what it imports) into the JavaScript that
 * mcp-adapter/start.mjs runs: an ESM bundle for Node 24 made with esbuild, with code splitting so
 * dynamic imports stay lazy (each transport's modules, the sandbox only without credentials).
 *
 * The dependencies are bundled in too, except the AWS SDK (loaded only with FITNESS_SECRET_NAME, from
 * node_modules): start-up is what a stdio client waits for, and resolving and reading a few hundred
 * small files of the MCP SDK, zod and TypeBox one by one was a large share of it (BENCHMARKS.md).
 *
 * Output: dist/mcp-server/<content hash>/cli.mjs (+ chunks) and dist/mcp-server/manifest.json, which
 * names the current build and every file of ours that went into it (size, modification time, SHA-256),
 * plus npm's record of the installed dependencies (node_modules/.package-lock.json), so the launcher can
 * tell in a few stat calls whether anything changed since. A build is written to a directory of its own
 * and renamed into place, and the manifest is replaced atomically, so a server starting meanwhile never
 * loads half a build; builds of older sources are removed after a day.
 *
 * Runs on `npm install` / `npm ci` (the `prepare` script), in `npm run build`, and from the launcher
 * when the sources changed since the last build. By hand: `node mcp-adapter/build-server.mjs`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { nodeBundleOptions } from "../common/bundle-options.mjs";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const buildsDirectory = join(root, "dist", "mcp-server");
export const manifestPath = join(buildsDirectory, "manifest.json");

/** @type {import("esbuild").BuildOptions} */
export const serverBundleOptions = {
  ...nodeBundleOptions,
  outExtension: { ".js": ".mjs" },
  splitting: true,
  external: ["@aws-sdk/*", "@smithy/*"],
};

/** npm rewrites this on every install: a changed dependency changes it. */
const installedDependencies = "node_modules/.package-lock.json";

/**
 * Builds and returns the new manifest: `{ build, entry, sources: { path: { size, mtimeMs, sha256 } } }`,
 * paths relative to the repository root.
 */
export async function buildServer() {
  const { build, stop } = await import("esbuild");
  // The views' HTML and the skill file, built in (embed-at-build.mjs).
  const { embeddedAssets } = await import("./embed-at-build.mjs");
  const assets = await embeddedAssets(sourcesChanged);
  const result = await build({
    ...serverBundleOptions,
    plugins: [assets.plugin],
    absWorkingDir: root,
    entryPoints: { cli: join(root, "mcp-adapter", "cli.ts") },
    outdir: join(buildsDirectory, "scratch"),
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  // The async API runs esbuild as a child process: stop it, so a launcher that rebuilt does not keep it.
  await stop();
  const scratch = join(buildsDirectory, "scratch");
  const atStart = loadedAtStart(result.metafile);
  const outputs = result.outputFiles.map((file) => ({
    path: relative(scratch, file.path),
    contents: atStart.has(relative(root, file.path)) ? asciiOnly(file.text) : file.contents,
  }));
  const hash = crypto().createHash("sha256");
  for (const output of outputs) hash.update(output.path).update(output.contents);
  const id = hash.digest("hex").slice(0, 16);
  const target = join(buildsDirectory, id);
  const staging = join(buildsDirectory, `.staging-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  for (const output of outputs) {
    const path = join(staging, output.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, output.contents);
  }
  try {
    renameSync(staging, target);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // the same build is already there
  }
  const now = new Date();
  utimesSync(target, now, now);

  const sources = {};
  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.includes("node_modules/"));
  inputs.push(...assets.sources);
  if (existsSync(join(root, installedDependencies))) inputs.push(installedDependencies);
  for (const input of [...new Set(inputs)].sort()) {
    const path = join(root, input);
    const { size, mtimeMs } = statSync(path);
    sources[input] = { size, mtimeMs, sha256: sha256(readFileSync(path)) };
  }
  const manifest = { build: id, entry: `${id}/cli.mjs`, sources };
  const temporary = `${manifestPath}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(manifest, null, 1)}\n`);
  renameSync(temporary, manifestPath);
  removeOldBuilds(target);
  return manifest;
}

/** True when a source named in the manifest is gone or its bytes changed (size and time first, then content). */
export function sourcesChanged(manifest) {
  for (const [input, recorded] of Object.entries(manifest.sources)) {
    let stat;
    try {
      stat = statSync(join(root, input));
    } catch {
      return true;
    }
    if (stat.size === recorded.size && stat.mtimeMs === recorded.mtimeMs) continue;
    if (stat.size !== recorded.size || sha256(readFileSync(join(root, input))) !== recorded.sha256) return true;
  }
  return false;
}

function sha256(bytes) {
  return crypto().createHash("sha256").update(bytes).digest("hex");
}

/**
 * node:crypto, loaded when first needed: the launcher imports this module on every start in a checkout, and
 * its check hashes a file only when the file's size or time changed.
 */
function crypto() {
  return process.getBuiltinModule("node:crypto");
}

/**
 * The output files every start loads before it serves (paths as esbuild's metafile names them): the entry and
 * what it imports statically, transitively. The transports, the sandbox, undici and the views load later.
 */
function loadedAtStart(metafile) {
  const entry = Object.keys(metafile.outputs).find((path) => metafile.outputs[path].entryPoint === "mcp-adapter/cli.ts");
  const loaded = new Set();
  const visit = (path) => {
    if (loaded.has(path) || metafile.outputs[path] === undefined) return;
    loaded.add(path);
    for (const imported of metafile.outputs[path].imports) if (imported.kind === "import-statement") visit(imported.path);
  };
  visit(entry);
  return loaded;
}

/**
 * A file's text with every character beyond ASCII written as a `\uXXXX` escape, for the files every start
 * loads. esbuild already writes strings, templates, regular expressions and names that way (its default
 * `charset: "ascii"`), but not the comments it keeps (the MCP SDK's have dashes and arrows): one such character
 * makes V8 hold the whole file as two-byte text, which it hashes and scans slower at every start. In a comment
 * the escape is text like any other (and in a string or a pattern it would mean the same character). Files
 * loaded later are left as they are: escaped the same way, undici's chunk (loaded on the first upstream
 * request) left the HTTP server 8 MiB larger under load in bench:memory (BENCHMARKS.md, start-up).
 */
function asciiOnly(text) {
  return text.replace(/[\u0080-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Builds other than `keep`, untouched for a day (a server started from one has long loaded it). */
function removeOldBuilds(keep) {
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of readdirSync(buildsDirectory)) {
    const path = join(buildsDirectory, name);
    if (path === keep || path === manifestPath) continue;
    try {
      if (statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
    } catch {
      // another build removed it first
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const manifest = await buildServer();
    process.stderr.write(
      `built the MCP server into ${relative(root, join(buildsDirectory, manifest.build))}/ (${Object.keys(manifest.sources).length} source files)\n`,
    );
  } catch (error) {
    process.stderr.write(`${describeBuildError(error)}\n`);
    process.exit(1);
  }
}

/** esbuild's errors as `file:line:column: text`, at most five. */
export function describeBuildError(error) {
  if (Array.isArray(error?.errors) && error.errors.length > 0) {
    return error.errors
      .slice(0, 5)
      .map(
        (problem) =>
          `${problem.location ? `${problem.location.file}:${problem.location.line}:${problem.location.column}: ` : ""}${problem.text}`,
      )
      .join("; ");
  }
  return error instanceof Error ? error.message : String(error);
}
