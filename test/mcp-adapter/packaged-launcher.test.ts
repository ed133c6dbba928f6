/**
 * The published package's MCP server bin can load what it imports: every file the launcher (mcp-adapter/start.mjs)
 * reaches through relative imports before the built server is in package.json's `files`. An installed package has
 * only those files, so a launcher import left out of the list works in every checkout and fails for everyone who
 * installs the package ("Cannot find module").
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repositoryRoot } from "./mcp-child.ts";

const shipped = (JSON.parse(readFileSync(join(repositoryRoot, "package.json"), "utf8")) as { files: string[] }).files;

/** The files `entry` reaches through relative imports (static and dynamic), itself included. */
function reachedFrom(entry: string): string[] {
  const reached = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (reached.has(file)) continue;
    reached.add(file);
    for (const { fileName } of ts.preProcessFile(readFileSync(join(repositoryRoot, file), "utf8"), true, true).importedFiles) {
      const target = normalize(join(dirname(file), fileName));
      if (fileName.startsWith(".") && existsSync(join(repositoryRoot, target))) pending.push(target);
    }
  }
  return [...reached];
}

describe("the package's MCP server bin", () => {
  it("ships every file it imports before the built server", () => {
    const reached = reachedFrom("mcp-adapter/start.mjs");
    expect(reached).toContain("common/built-artifacts.mjs");
    const missing = reached.filter((file) => !shipped.some((entry) => file === entry || file.startsWith(`${entry}/`)));
    expect(missing, "files to add to package.json's files").toEqual([]);
  });
});
