/**
 * One way to put a file's content in place: common/durable-file.ts (a temporary file 0600, flushed, renamed,
 * the folder flushed). A rename, link or flush written anywhere else in the product is a second way, which
 * sooner or later forgets a step (the folder's flush, the mode, the temporary file after a failure): this test
 * names each such call and the helper to use instead.
 *
 * What counts: in the product's TypeScript and JavaScript (what git tracks outside `test/`, `bench/`, `docs/`,
 * type declarations and configuration), a name imported from `node:fs` or `node:fs/promises` among `rename`,
 * `link`, `fsync`, `fdatasync` (and their `Sync` forms), the same names read off any object (`fs.renameSync`),
 * and a call of `.sync()` or `.datasync()` (a FileHandle's flush). Files allowed to, with why, are in `allowed`.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const forbiddenNames = new Set(["rename", "renameSync", "link", "linkSync", "fsync", "fsyncSync", "fdatasync", "fdatasyncSync"]);
const flushMethods = new Set(["sync", "datasync"]);

/** Files (or a pattern of them) that may call these themselves, and why. `byPattern`: a room, which may hold none. */
const allowed: Array<{ path: RegExp; why: string; byPattern?: true }> = [
  { path: /^common\/durable-file\.ts$/, why: "the helper itself" },
  {
    path: /^common\/file-lock\.ts$/,
    why: "a stale lock file is renamed aside and linked back to learn whose it is: no content is put in place",
  },
  {
    path: /^build\/|(^|\/)build[-\w]*\.(mjs|ts)$/,
    why: "build code: a build cache is renamed into place whole, and rebuilt when a crash loses it",
    byPattern: true,
  },
];

const root = fileURLToPath(new URL("../../", import.meta.url));
const productFiles = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" })
  .split("\0")
  .filter((path) => /\.(ts|mts|mjs|js)$/.test(path) && !/\.d\.m?ts$/.test(path))
  .filter((path) => !/^(test|bench|docs)\//.test(path) && !/\.config\.(ts|js|mjs)$/.test(path));

const fsModules = new Set(["node:fs", "node:fs/promises", "fs", "fs/promises"]);

/** Each direct rename, link or flush in one file, as `file:line what`. */
function directCallsIn(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith("ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const found: string[] = [];
  const at = (node: ts.Node, what: string): void => {
    found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${what}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && fsModules.has(node.moduleSpecifier.text)) {
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements) {
          const imported = (element.propertyName ?? element.name).text;
          if (forbiddenNames.has(imported)) at(element, `imports ${imported} from ${node.moduleSpecifier.text}`);
        }
    }
    if (ts.isPropertyAccessExpression(node) && forbiddenNames.has(node.name.text)) at(node, `calls ${node.getText(source)}`);
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      flushMethods.has(node.expression.name.text) &&
      node.arguments.length === 0
    )
      at(node, `calls ${node.expression.getText(source)}()`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("atomic writes go through common/durable-file.ts", () => {
  it("no product file renames, links or flushes a file itself", () => {
    const offenders = productFiles.filter((file) => !allowed.some(({ path }) => path.test(file))).flatMap(directCallsIn);
    expect(
      offenders,
      "Put content in place with common/durable-file.ts (writeFileDurably, createFileDurably, StagedFile, moveFileDurably), " +
        "or add the file to `allowed` in this test with why",
    ).toEqual([]);
  });

  it("each allowed file still needs it (a line left over is removed)", () => {
    for (const { path, why } of allowed.filter((entry) => !entry.byPattern)) {
      const needing = productFiles.filter((file) => path.test(file) && directCallsIn(file).length > 0);
      expect(needing, `${path} (${why})`).not.toEqual([]);
    }
  });
});
