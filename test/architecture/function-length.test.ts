/**
 * Named steps, not closures used as modules: no top-level product function is longer than 60 lines. A long
 * function that builds a server, a route table or an endpoint out of closures hides its steps from a reader and
 * from the tests, which can then reach them only through a whole process; a step with a name of its own can be
 * read alone and tested in process.
 *
 * What counts: every function declared at a module's top level (`function f() {}`, `const f = () => {}`,
 * `const f = function () {}`, an exported default function) and every method of a class declared at the top
 * level, in the product's TypeScript and JavaScript (what git tracks outside `test/`, `bench/`, `docs/`, type
 * declarations and generated files). Its length is the lines from its first to its last, nested functions
 * included: a closure is part of the function that holds it.
 *
 * At most three exceptions, each a table of data written as a function for its types (a route table, a seed
 * routine) and saying so in its file's header; they are listed in `tables` with why. A folder not yet brought
 * under the rule is listed in `notYetChecked` with why: its long functions are printed (LONG:) instead of
 * failing, and a line whose folder has none left fails, so it is removed when the last one goes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { productFiles, repositoryRoot as root } from "./product-files.ts";

const maxLines = 60;

/** Functions allowed over the limit because they are tables of data ("file: function" -> why). At most three. */
const tables: Record<string, string> = {};

/** Folders whose long functions are reported but do not fail yet ("folder/" -> why). */
const notYetChecked: Record<string, string> = {};

interface LongFunction {
  file: string;
  name: string;
  lines: number;
}

/** The top-level functions and top-level classes' methods of one file, with their lengths in lines. */
function functionsOf(file: string): LongFunction[] {
  const text = readFileSync(join(root, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith("ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const found: LongFunction[] = [];
  const lineOf = (position: number): number => source.getLineAndCharacterOfPosition(position).line;
  const measure = (node: ts.Node, name: string): void => {
    found.push({ file, name, lines: lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1 });
  };
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement)) measure(statement, statement.name?.text ?? "default");
    else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const value = declaration.initializer;
        if (value && (ts.isArrowFunction(value) || ts.isFunctionExpression(value))) measure(value, declaration.name.getText(source));
      }
    } else if (
      ts.isExportAssignment(statement) &&
      (ts.isArrowFunction(statement.expression) || ts.isFunctionExpression(statement.expression))
    )
      measure(statement.expression, "default");
    else if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members) {
        if (ts.isMethodDeclaration(member) || ts.isConstructorDeclaration(member) || ts.isGetAccessor(member) || ts.isSetAccessor(member)) {
          measure(member, `${statement.name?.text ?? "class"}.${member.name?.getText(source) ?? "constructor"}`);
        }
      }
    }
  }
  return found;
}

const long = productFiles.flatMap(functionsOf).filter((fn) => fn.lines > maxLines);
const key = (fn: LongFunction): string => `${fn.file}: ${fn.name}`;
const pendingFolder = (fn: LongFunction): string | undefined => Object.keys(notYetChecked).find((folder) => fn.file.startsWith(folder));

describe("named steps", () => {
  it(`has no top-level product function over ${maxLines} lines, but the tables named (at most three)`, () => {
    expect(Object.keys(tables).length).toBeLessThanOrEqual(3);
    for (const fn of long.filter((fn) => pendingFolder(fn) !== undefined && tables[key(fn)] === undefined)) {
      process.stderr.write(`LONG: ${key(fn)} (${fn.lines} lines), in ${pendingFolder(fn)}: ${notYetChecked[pendingFolder(fn)!]}\n`);
    }
    const unexpected = long
      .filter((fn) => pendingFolder(fn) === undefined && tables[key(fn)] === undefined)
      .map((fn) => `${key(fn)} (${fn.lines} lines)`);
    expect(unexpected).toEqual([]);
  });

  it("names only tables that are still long, and folders that still have a long function", () => {
    const longKeys = new Set(long.map(key));
    expect(Object.keys(tables).filter((name) => !longKeys.has(name))).toEqual([]);
    expect(Object.keys(notYetChecked).filter((folder) => !long.some((fn) => fn.file.startsWith(folder)))).toEqual([]);
  });
});
