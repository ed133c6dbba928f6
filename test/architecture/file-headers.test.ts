/**
 * Every product file opens with a `/** *\/` header saying what it holds and why (after a `#!` line, for a
 * script): the house style, so a reader who opens any file, or an editor that shows a module's documentation on
 * hover, learns what it is for before reading its code.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { productFiles, repositoryRoot } from "./product-files.ts";

/** The file's first line that is not a `#!` line. */
function openingLine(file: string): string {
  const lines = readFileSync(join(repositoryRoot, file), "utf8").split("\n");
  return (lines[0]?.startsWith("#!") ? lines[1] : lines[0]) ?? "";
}

describe("file headers", () => {
  it("open every product file", () => {
    expect(productFiles.length).toBeGreaterThan(100);
    const without = productFiles.filter((file) => !openingLine(file).startsWith("/**"));
    expect(without, "files to open with a /** */ header saying what they hold and why").toEqual([]);
  });
});
