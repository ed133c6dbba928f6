/**
 * The settings inventory is the one place a variable is declared: the settings page's table and the MCP
 * server's usage text are made from it, every name is declared once, and no product code reads the
 * environment by name around it.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { usage } from "../../mcp-adapter/usage-text.ts";
import { allSettings } from "../../common/settings/inventory.ts";
import { readSetting } from "../../common/settings/setting.ts";
import { port } from "../../common/settings/server-variables.ts";
import { pageWithTable, settingsPage } from "../../scripts/settings-reference.ts";

const root = new URL("../../", import.meta.url);

describe("the settings inventory", () => {
  it("makes the settings page's table (npm run docs:settings)", () => {
    const page = readFileSync(settingsPage, "utf8");
    expect(page).toBe(pageWithTable(page));
    for (const setting of allSettings()) expect(page).toContain(`| \`${setting.name}\` |`);
  });

  it("makes the MCP server's list of variables in its usage text", () => {
    for (const setting of allSettings().filter((candidate) => candidate.readBy.includes("MCP server")))
      expect(usage).toContain(setting.name);
  });

  it("declares every name once", () => {
    const names = allSettings().map((setting) => setting.name);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it("reads through the declaration, with its message", () => {
    expect(readSetting({ PORT: " 8080 " }, port)).toBe(8080);
    expect(readSetting({ PORT: "" }, port)).toBeUndefined();
    expect(() => readSetting({ PORT: "eighty" }, port)).toThrow(
      'PORT must be a whole number from 0 to 65535 (0 picks a free port); got "eighty".',
    );
  });

  it("is the only reader of variables by name in the product's code", () => {
    const sources = execFileSync("git", ["ls-files", "*.ts", "*.mjs"], { cwd: root, encoding: "utf8" })
      .split("\n")
      .filter((path) => path !== "" && !/^(test|bench)\//.test(path) && !path.startsWith("common/settings/"));
    const declared = new Set(allSettings().map((setting) => setting.name));
    // The launcher runs before any TypeScript can: it reads NODE_OPTIONS (declared) itself.
    const launchers = new Set(["mcp-adapter/start.mjs"]);
    const found: string[] = [];
    for (const path of sources) {
      const text = readFileSync(new URL(path, root), "utf8");
      for (const match of text.matchAll(/(?:process\.env|\benv)(?:\[["']([A-Z][A-Z0-9_]+)["']\]|\.([A-Z][A-Z0-9_]+))(?!\s*\?\?=)/g)) {
        const name = match[1] ?? match[2] ?? "";
        if (launchers.has(path) && declared.has(name)) continue;
        found.push(`${path}: ${name}`);
      }
    }
    expect(found).toEqual([]);
  });
});
