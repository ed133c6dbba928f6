/**
 * The operators' pages speak an operator's words: the contributors' names for the code's folders ("rooms") and
 * mechanisms ("rescue copy", "compare-and-swap") stay on the contributors' pages.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repositoryRoot } from "../mcp-adapter/mcp-child.ts";

const folder = join(repositoryRoot, "docs/operators");

describe("docs/operators/", () => {
  it.each(readdirSync(folder).filter((name) => name.endsWith(".md")))("%s uses no contributors' jargon", (name) => {
    const text = readFileSync(join(folder, name), "utf8");
    expect(text.match(/\brooms?\b|rescue cop(y|ies)|compare-and-swap/gi) ?? []).toEqual([]);
  });
});
