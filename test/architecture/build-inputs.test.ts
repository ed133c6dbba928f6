/**
 * The plugin's build inputs hold every folder its entry reaches. tsconfig.build.json's `include` is the list the
 * build compiles from and the list the real-host checks copy a checkout by (test/host/plugin-package.ts): a
 * folder the entry imports but the list leaves out builds here, where the whole tree is on disk, and then fails in
 * the host's copy ("Cannot find module"), as `common/` once did and `intervals/` did after it.
 *
 * The entry's relative imports are followed with TypeScript's own scanner (`preProcessFile`), type-only imports
 * included (the build compiles them too); each file reached names its top-level folder.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Every file the entry reaches through relative imports, as paths from the repository root. */
function reachedFrom(entry: string): Set<string> {
  const reached = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (reached.has(file)) continue;
    reached.add(file);
    const scanned = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true);
    for (const { fileName } of scanned.importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const target = normalize(join(dirname(file), fileName));
      if (existsSync(join(root, target))) pending.push(target);
    }
  }
  return reached;
}

describe("the plugin's build inputs", () => {
  it("include every top-level folder the plugin's entry reaches", () => {
    const include = (JSON.parse(readFileSync(join(root, "tsconfig.build.json"), "utf8")) as { include: string[] }).include;
    const folders = new Set([...reachedFrom("index.ts")].filter((file) => file.includes(sep)).map((file) => file.split(sep)[0] as string));
    expect(folders.has("tools")).toBe(true);
    expect([...folders].filter((folder) => !include.includes(folder)).sort()).toEqual([]);
  });
});
