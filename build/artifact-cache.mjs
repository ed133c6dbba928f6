/**
 * The one cache of built artifacts (the MCP server's bundle, the MCP Apps views): one folder per artifact
 * under dist/, one hashing scheme, one manifest format, one staleness check.
 *
 * - `dist/<artifact>/<content hash>/` holds one build's files. The hash is the SHA-256 of every file's path and
 *   bytes, in path order (first 16 hex digits), so the same sources always land in the same folder and a
 *   checkout rebuilds only the artifact whose sources changed.
 * - `dist/<artifact>/manifest.json` names the current build (`build`, plus the artifact's own fields: the
 *   server's `entry`, the views' `views`) and every file of ours that went into it, with its size,
 *   modification time and SHA-256, plus npm's record of the installed dependencies, so a check costs a few
 *   stat calls and reads a file only when its size or time changed. The check itself is run-time code
 *   (common/built-artifacts.mjs), which the launcher runs on every start in a checkout without loading this file.
 * - Two processes building at once cannot corrupt it: each writes its build into a staging folder of its own
 *   and renames it into place (a folder already there holds the same bytes, so the loser drops its copy), and
 *   the manifest is written to a temporary file of its own and renamed over the old one, so a reader sees the
 *   old manifest or the new one, never half of either. Builds other than the current one are removed once
 *   untouched for a day (a process started from one has long loaded it).
 *
 * Plain JavaScript: the server is built on `npm install` (`prepare`), before anything could compile TypeScript.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { readBuildManifest, sha256 } from "../common/built-artifacts.mjs";

/** The repository's root: source paths in a manifest are relative to it. */
export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** npm rewrites this on every install: a changed dependency changes it. */
const installedDependencies = "node_modules/.package-lock.json";

const dayMs = 24 * 60 * 60 * 1000;

/** The folder of one artifact's builds and its manifest, under `base`'s dist/ (the repository's by default). */
export function artifactCache(artifact, base = root) {
  const directory = join(base, "dist", artifact);
  return { directory, manifestPath: join(directory, "manifest.json") };
}

/** The artifact's current manifest, or undefined when it was never built (or its manifest is unreadable). */
export function readManifest(cache) {
  return readBuildManifest(cache.manifestPath);
}

/**
 * Stores one build: `files` (`{ path, contents }`, paths relative to the build's folder) under its content hash,
 * then the manifest naming it, the `inputs` it was built from (paths relative to `base`; npm's record of the
 * dependencies is added) and the artifact's own `fields(build)`. Returns the manifest.
 */
export function storeBuild(cache, { files, inputs, fields }, base = root) {
  const ordered = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const hash = crypto().createHash("sha256");
  for (const file of ordered) hash.update(file.path).update(file.contents);
  const build = hash.digest("hex").slice(0, 16);
  const target = join(cache.directory, build);
  const staging = join(cache.directory, `.staging-${process.pid}-${crypto().randomUUID()}`);
  for (const file of ordered) {
    const path = join(staging, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.contents);
  }
  try {
    renameSync(staging, target);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // the same build is already there
  }

  const sources = {};
  const all = [...inputs];
  if (existsSync(join(base, installedDependencies))) all.push(installedDependencies);
  for (const input of [...new Set(all)].sort()) {
    const path = join(base, input);
    const { size, mtimeMs } = statSync(path);
    sources[input] = { size, mtimeMs, sha256: sha256(readFileSync(path)) };
  }
  const manifest = { build, ...fields(build), sources };
  const temporary = `${cache.manifestPath}.${process.pid}-${crypto().randomUUID()}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(manifest, null, 1)}\n`);
  // "Now" as the file system keeps time, which every folder's time below comes from: this process's clock may
  // differ from it (a clock that was moved), and then builds in use would look a day old.
  const now = statSync(temporary).mtime;
  utimesSync(target, now, now);
  renameSync(temporary, cache.manifestPath);
  removeOldBuilds(cache, target, now.getTime());
  return manifest;
}

/** The staleness check is run-time code (the launcher runs it on every start in a checkout without loading this file). */
export { sourcesChanged } from "../common/built-artifacts.mjs";

/** node:crypto, loaded when a build is stored. */
function crypto() {
  return process.getBuiltinModule("node:crypto");
}

/** Builds other than `keep`, and leftovers of builds that failed, untouched for a day before `nowMs` (file-system time). */
function removeOldBuilds(cache, keep, nowMs) {
  const dayAgo = nowMs - dayMs;
  for (const name of readdirSync(cache.directory)) {
    const path = join(cache.directory, name);
    if (path === keep || path === cache.manifestPath) continue;
    try {
      if (statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
    } catch {
      // another build removed it first
    }
  }
}
