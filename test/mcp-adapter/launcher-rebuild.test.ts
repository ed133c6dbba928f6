/**
 * The launcher in a checkout whose build is missing or stale: it has the server built before the server's code
 * loads (logged as `server_built`), runs what was built, and on a source that does not compile stops with a
 * message naming the file and line, with nothing on standard output (protocol only over stdio). The build runs
 * as a process of its own: the launcher loads no build code.
 *
 * On a copy of the checkout's tracked files (node_modules linked), so that nothing here edits the checkout the
 * other tests run from.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseEnv, repositoryRoot } from "./mcp-child.ts";

let checkout: string;

beforeAll(() => {
  checkout = mkdtempSync(join(tmpdir(), "launcher-checkout-"));
  const tracked = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repositoryRoot,
    encoding: "utf8",
  })
    .split("\0")
    .filter(Boolean);
  for (const file of tracked) {
    if (!existsSync(join(repositoryRoot, file))) continue; // deleted in the working tree, not yet committed
    cpSync(join(repositoryRoot, file), join(checkout, file), { preserveTimestamps: true });
  }
  symlinkSync(join(repositoryRoot, "node_modules"), join(checkout, "node_modules"), "dir");
});
afterAll(() => rmSync(checkout, { recursive: true, force: true }));

const initialize = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "launcher-test", version: "1" } },
})}\n`;

/** One stdio start of the copy's launcher, answering `initialize` and stopping at the end of standard input. */
function startOnce(): { status: number | null; stdout: string; stderrLines: Record<string, unknown>[] } {
  const run = spawnSync(process.execPath, [join(checkout, "mcp-adapter", "start.mjs"), "--stdio"], {
    input: initialize,
    encoding: "utf8",
    env: baseEnv({}),
    timeout: 120_000,
  });
  const stderrLines = run.stderr
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { status: run.status, stdout: run.stdout, stderrLines };
}

describe("the launcher in a checkout", () => {
  it("builds a missing build, then runs it", () => {
    expect(existsSync(join(checkout, "dist"))).toBe(false);
    const run = startOnce();
    expect(run.stderrLines.find((line) => line["event"] === "server_built")).toMatchObject({ reason: "no build yet" });
    expect(JSON.parse(run.stdout.split("\n")[0] ?? "")).toMatchObject({ id: 1, result: { protocolVersion: "2025-11-25" } });
    expect(existsSync(join(checkout, "dist", "mcp-server", "manifest.json"))).toBe(true);
  });

  it("runs a current build without building", () => {
    const run = startOnce();
    expect(run.stderrLines.some((line) => line["event"] === "server_built")).toBe(false);
    expect(JSON.parse(run.stdout.split("\n")[0] ?? "")).toMatchObject({ id: 1 });
  });

  it("stops on a source that does not compile, naming it, with nothing on standard output", () => {
    const broken = join(checkout, "tools", "get-athlete.ts");
    appendFileSync(broken, "\nexport const broken = ;\n");
    const run = startOnce();
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    const failure = run.stderrLines.find((line) => line["event"] === "startup_failed");
    expect(String(failure?.["message"])).toMatch(
      /^Could not build the server \(the sources changed since the last build\): .*tools\/get-athlete\.ts:\d+:\d+: /s,
    );
  });
});
