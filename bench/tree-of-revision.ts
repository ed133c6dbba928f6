/**
 * Another revision of this repository, extracted and built once into .cache/bench-revisions/COMMIT (git-ignored),
 * so a bench can run its MCP server beside this checkout's in the same run. It borrows this checkout's
 * node_modules: a revision whose dependencies differ must be compared from a checkout of its own.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");

/** The path of `mcp-adapter/start.mjs` in `revision`'s built tree. */
export function mcpServerOfRevision(revision: string): string {
  // Kept by commit, so a branch name that has moved on is built again.
  const commit = execFileSync("git", ["rev-parse", "--short", `${revision}^{commit}`], { cwd: root })
    .toString()
    .trim();
  const tree = join(root, ".cache", "bench-revisions", commit);
  if (!existsSync(join(tree, "dist", "mcp-server", "manifest.json"))) {
    rmSync(tree, { recursive: true, force: true });
    mkdirSync(tree, { recursive: true });
    execFileSync("bash", ["-c", `git archive "${commit}" | tar -x -C "${tree}"`], { cwd: root });
    symlinkSync(join(root, "node_modules"), join(tree, "node_modules"));
    // The server's build script: build/server.mjs, or mcp-adapter/build-server.mjs in revisions before build/.
    const builder = [join(tree, "build", "server.mjs"), join(tree, "mcp-adapter", "build-server.mjs")].find((path) => existsSync(path));
    if (builder === undefined) throw new Error(`revision ${commit} has no build script of the server`);
    execFileSync(process.execPath, [builder], { cwd: tree, stdio: "inherit" });
  }
  return join(tree, "mcp-adapter", "start.mjs");
}
