/**
 * Builds the MCP server's TypeScript (mcp-adapter/cli.ts and what it imports) into the JavaScript that
 * mcp-adapter/start.mjs runs: an ESM bundle for Node 24 made with esbuild, with code splitting so
 * dynamic imports stay lazy (each transport's modules, the sandbox only without credentials).
 *
 * The dependencies are bundled in too, except the AWS SDK (loaded only with FITNESS_SECRET_NAME, from
 * node_modules): start-up is what a stdio client waits for, and resolving and reading a few hundred
 * small files of the MCP SDK, zod and TypeBox one by one was a large share of it (BENCHMARKS.md).
 *
 * Output: dist/mcp-server/<content hash>/cli.mjs (+ chunks) and dist/mcp-server/manifest.json, in the artifact
 * cache every build shares (artifact-cache.mjs: the hashing, the manifest of sources the launcher checks in a few
 * stat calls, the staged write renamed into place so a server starting meanwhile never loads half a build). The
 * manifest names the views' sources (embedded-assets.mjs) and this build code too: a change to either rebuilds the server.
 *
 * Runs on `npm install` / `npm ci` (the `prepare` script), in `npm run build`, and from the launcher
 * when the sources changed since the last build. By hand: `npm run build:mcp` (`node build/server.mjs`).
 */
import { join, relative } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { artifactCache, root, storeBuild } from "./artifact-cache.mjs";
import { describeBuildError, nodeBundleOptions } from "./bundle-options.mjs";
import { processAsGlobal } from "./process-as-global.mjs";

/** The server's builds (dist/mcp-server/) and its manifest. */
export const serverCache = artifactCache("mcp-server");

/** The build code of this artifact: a change to how the server is built rebuilds it too. */
const builderFiles = [
  "build/server.mjs",
  "build/bundle-options.mjs",
  "build/embedded-assets.mjs",
  "build/artifact-cache.mjs",
  "build/process-as-global.mjs",
];

/** @type {import("esbuild").BuildOptions} */
export const serverBundleOptions = {
  ...nodeBundleOptions,
  outExtension: { ".js": ".mjs" },
  splitting: true,
  external: ["@aws-sdk/*", "@smithy/*"],
};

/**
 * Builds the server into the artifact cache and returns the new manifest: `{ build, entry, sources }`, source
 * paths relative to the repository root.
 */
export async function buildServer() {
  const { build, stop } = await import("esbuild");
  // The views' HTML and the skill files, built in (embedded-assets.mjs).
  const { embeddedAssets } = await import("./embedded-assets.mjs");
  const assets = await embeddedAssets();
  const scratch = join(serverCache.directory, "scratch");
  const result = await build({
    ...serverBundleOptions,
    plugins: [processAsGlobal, assets.plugin],
    absWorkingDir: root,
    entryPoints: { cli: join(root, "mcp-adapter", "cli.ts") },
    outdir: scratch,
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  // The async API runs esbuild as a child process: stop it, so a launcher that rebuilt does not keep it.
  await stop();
  const atStart = loadedAtStart(result.metafile);
  const files = result.outputFiles.map((file) => ({
    path: relative(scratch, file.path),
    contents: atStart.has(relative(root, file.path)) ? asciiOnly(file.text) : file.contents,
  }));
  // Source files only: not the dependencies, nor modules a plugin made up (named "<namespace>:<path>").
  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.includes("node_modules/") && !/^[\w-]+:/.test(input));
  return storeBuild(serverCache, {
    files,
    inputs: [...inputs, ...assets.sources, ...builderFiles],
    fields: (id) => ({ entry: `${id}/cli.mjs` }),
  });
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const manifest = await buildServer();
    process.stderr.write(
      `built the MCP server into ${relative(root, join(serverCache.directory, manifest.build))}/ (${Object.keys(manifest.sources).length} source files)\n`,
    );
  } catch (error) {
    process.stderr.write(`${describeBuildError(error)}\n`);
    process.exit(1);
  }
}
