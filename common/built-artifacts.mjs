/**
 * Whether a built artifact is current, read at run time: its manifest (dist/<artifact>/manifest.json, written by
 * build/artifact-cache.mjs) names every source file that went into the build with its size, modification time and
 * SHA-256, and a source that is gone or whose bytes changed makes the build stale. The launcher asks this on every
 * start in a checkout, before the server's code loads, so it costs a few stat calls and hashes a file only when
 * its size or time changed.
 *
 * Reading, never building: a stale build is rebuilt by the build code in build/ (the launcher runs it as a process
 * of its own), which the product never imports. Plain JavaScript, as the launcher is.
 */
import { readFileSync, statSync } from "node:fs";

/** The manifest at `manifestPath`, or undefined when the artifact was never built (or its manifest is unreadable). */
export function readBuildManifest(manifestPath) {
  try {
    return JSON.parse(readFileSync(manifestPath, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * True when a source named in the manifest is gone or its bytes changed (size and time first, then content).
 * The paths are joined as strings, not with path.join: the manifest's paths are relative and already normal
 * (the build writes them with forward slashes), and normalising a few hundred of them on every start cost more
 * than their stat calls.
 */
export function sourcesChanged(manifest, base) {
  const prefix = base.endsWith("/") ? base : `${base}/`;
  for (const input in manifest.sources) {
    const recorded = manifest.sources[input];
    let stat;
    try {
      stat = statSync(prefix + input, { throwIfNoEntry: false });
    } catch {
      return true; // unreadable: the build will say why
    }
    if (stat === undefined) return true;
    if (stat.size === recorded.size && stat.mtimeMs === recorded.mtimeMs) continue;
    if (stat.size !== recorded.size || sha256(readFileSync(prefix + input)) !== recorded.sha256) return true;
  }
  return false;
}

/** The SHA-256 of `bytes` in hex, as a manifest records each source's. */
export function sha256(bytes) {
  // node:crypto is loaded only when a file's size or time changed, not on every start; `process` is the
  // global, as an ES module import of node:process costs each start a few milliseconds (mcp-adapter/start.mjs).
  return process.getBuiltinModule("node:crypto").createHash("sha256").update(bytes).digest("hex");
}
