/**
 * The build's inputs hold every room the plugin's entry reaches. `tsconfig.build.json`'s `include` lists the rooms the
 * build compiles, and the host checks copy exactly those into the scratch host's checkout of the plugin
 * (test/host/plugin-package.ts): a room the entry imports but `include` leaves out is compiled anyway (TypeScript
 * follows imports) yet missing from that copy, so the host fails to load the plugin from a local path ("Cannot find
 * module"), as it did once with `common/` and then with `intervals/`. Imports are read with TypeScript's own scanner
 * and followed from index.ts and the MCP server's entry, relative specifiers only.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const include = (JSON.parse(readFileSync(join(root, "tsconfig.build.json"), "utf8")) as { include: string[] }).include;

/** Every file reached from `entries` through relative imports (a `.d.mts` stands for its `.mjs`). */
function reached(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const pending = [...entries];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const { fileName } of ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true).importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const target = normalize(join(dirname(file), fileName)).replace(/\.d\.mts$/, ".mjs");
      if (existsSync(join(root, target)) && /\.(ts|mts|mjs|js)$/.test(target)) pending.push(target);
    }
  }
  return seen;
}

describe("the build's inputs", () => {
  it("include every room the plugin's entry and the MCP server's reach", () => {
    const rooms = new Set([...reached(["index.ts", "mcp-adapter/cli.ts"])].map((file) => file.split("/")[0]!));
    const missing = [...rooms].filter((room) => !include.includes(room)).sort();
    expect(missing, "rooms to add to tsconfig.build.json's include").toEqual([]);
  });
});
