/**
 * Build code stays apart from the product: no module the product runs imports build/ (the server reads what was
 * built, from dist/, never the builder), so a server, the plugin, the hosted function or the voice functions never
 * load esbuild or run a build while they serve. The launcher (mcp-adapter/start.mjs), which rebuilds the server in a
 * checkout when a source changed, checks with run-time code (common/built-artifacts.mjs) and runs the build as a
 * process of its own. The lint says the same per file (eslint.config.js); this reads every tracked file of the
 * product, .mjs included, with TypeScript's own scanner (static and dynamic imports, `export ... from`, type imports).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
/** Folders that are not the product: the build itself, the tests and the benchmarks may import build code. */
const notProduct = ["build/", "test/", "bench/"];

const productFiles = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" })
  .split("\0")
  .filter((path) => /\.(ts|mts|mjs|js)$/.test(path) && !notProduct.some((folder) => path.startsWith(folder)));

/** The build/ files `file` imports, by path from the root. */
function buildImports(file: string): string[] {
  return ts
    .preProcessFile(readFileSync(join(root, file), "utf8"), true, true)
    .importedFiles.map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => normalize(join(dirname(file), specifier)))
    .filter((target) => target === "build" || target.startsWith("build/"));
}

describe("build code apart", () => {
  it("is imported by no module of the product", () => {
    expect(productFiles.length).toBeGreaterThan(100);
    const offenders = productFiles.flatMap((file) => buildImports(file).map((target) => `${file} -> ${target}`));
    expect(offenders, "product modules that import build code (read the built artifact from dist/ instead)").toEqual([]);
  });
});
