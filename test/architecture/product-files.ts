/**
 * The product's source files, as the architecture tests count them: the TypeScript and JavaScript git tracks
 * (or would: new files not yet added count too) outside `test/`, `bench/` and `docs/`, without type declarations
 * and the tools' own configuration files. One list, so that every measure of "the product" counts the same files.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url));

export const productFiles: readonly string[] = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
  cwd: repositoryRoot,
  encoding: "utf8",
})
  .split("\0")
  .filter((path) => /\.(ts|mts|mjs|js)$/.test(path) && !/\.d\.m?ts$/.test(path))
  .filter((path) => !/^(test|bench|docs)\//.test(path) && !path.endsWith(".config.ts") && !path.endsWith(".config.js"));
