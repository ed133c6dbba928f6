/**
 * The README's layout section is how a newcomer finds their way: every folder the repository holds must
 * be named there, and every folder named there must exist. Read from git's list of tracked files, so a
 * build output or a local cache (ignored by git) never counts.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

function layoutBlock(): string {
  const readme = readFileSync(`${root}README.md`, "utf8");
  const section = readme.split(/^## Layout$/m)[1]?.split(/^## /m)[0];
  const block = section?.split("```")[1];
  if (block === undefined) throw new Error("README.md has no code block under '## Layout'");
  return block;
}

/** Folders named at the start of a layout line, or beside another name on it (`test/  bench/`). */
function namedFolders(block: string): Set<string> {
  const names = new Set<string>();
  for (const line of block.split("\n")) {
    const head = line.split(/\s{3,}/)[0] ?? "";
    for (const word of head.split(/\s+/)) {
      if (!/^[a-z][\w.-]*(\/[\w.-]+)*\/$/.test(word)) continue;
      // `skills/fitness-coaching/` names `skills` too.
      const parts = word.slice(0, -1).split("/");
      parts.forEach((_, i) => names.add(parts.slice(0, i + 1).join("/")));
    }
  }
  return names;
}

const tracked = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean);

describe("README.md layout section", () => {
  const named = namedFolders(layoutBlock());

  it("names every top-level folder the repository holds", () => {
    const topLevel = new Set(tracked.filter((path) => path.includes("/") && !path.startsWith(".")).map((path) => path.split("/")[0]!));
    expect([...topLevel].filter((folder) => !named.has(folder)).sort()).toEqual([]);
  });

  it("names only folders that exist", () => {
    const missing = [...named].filter((folder) => !tracked.some((path) => path.startsWith(`${folder}/`)));
    expect(missing.sort()).toEqual([]);
  });
});
