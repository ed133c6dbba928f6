/**
 * Each setting's default is written once, where the setting is declared (common/settings/): everything else
 * that needs it (the core's fallbacks, the usage texts, the messages that name an address, OAuth mode's issuer
 * when PUBLIC_URL is unset) reads the declaration's value. A default restated as a literal elsewhere drifts:
 * the day it changes in one place, a message or a fallback still says the old one.
 *
 * The defaults: every setting's value when unset (`parse(undefined)`), and the `default...` values the
 * declarations export for defaults applied where a setting is read (a port per command, the token file's path).
 * Strings and numbers of more than three characters count. The product's TypeScript and JavaScript outside
 * common/settings/ (and outside `test/`, `bench/`, `docs/`) is read with TypeScript's parser, so comments do
 * not count: a string literal (or a template's text) equal to a default, or containing one that is an address
 * or a list (it holds "/", ":" or ","), or a number literal equal to one, is reported with where it is.
 *
 * Not checked, with why: `exempt` (values that mean many other things) and `allowed` (one file and value each).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { allSettings } from "../../common/settings/inventory.ts";
import * as credentialVariables from "../../common/settings/credential-variables.ts";
import * as intervalsVariables from "../../common/settings/intervals-variables.ts";
import * as sandboxVariables from "../../common/settings/sandbox-variables.ts";
import * as serverVariables from "../../common/settings/server-variables.ts";
import * as stravaVariables from "../../common/settings/strava-variables.ts";
import * as voiceVariables from "../../common/settings/voice-variables.ts";

/** Defaults that are also ordinary values in code, so a literal of theirs is no restatement. */
const exempt: Record<string, string> = {
  "30000": "thirty seconds is how long many unrelated waits last (a lock's staleness, keep-alive, a start-up retry)",
  "5000": "five seconds is how long many unrelated waits last (a shutdown's grace, a health re-check)",
  bearer: "MCP_AUTH's modes are names code compares against (bearer, oauth)",
  info: "LOG_LEVEL's levels are the logger's own names",
  strava: "SANDBOX_FACE's faces are the upstreams' names (strava, intervals.icu), used everywhere",
  "127.0.0.1":
    "the IPv4 loopback address, which code names in its loopback checks and lists; HOST's default is checked as the server's address, 127.0.0.1:3000",
};

/** One file may hold one default's literal, for a reason of its own. */
const allowed: Array<{ file: string; value: string; why: string }> = [
  { file: "sandbox/clubs.ts", value: "3000", why: "a club ride's moving time in seconds, not a port" },
  { file: "sandbox/training-block.ts", value: "3000", why: "a lunch session's 3,000 s (50 minutes), not a port" },
  { file: "sandbox/seed-activities.ts", value: "21600", why: "the sandbox athlete's long ride lasts six hours, as a token does by chance" },
  { file: "views/scales.ts", value: "21600", why: "six hours is one of a chart's time steps" },
];

const root = fileURLToPath(new URL("../../", import.meta.url));
const productFiles = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" })
  .split("\0")
  .filter((path) => /\.(ts|mts|mjs|js)$/.test(path) && !/\.d\.m?ts$/.test(path))
  .filter((path) => !/^(test|bench|docs|common\/settings)\//.test(path) && !/\.config\.(ts|js|mjs)$/.test(path));

/** Every declared default of more than three characters, as text. */
function declaredDefaults(): Set<string> {
  const values = new Set<string>();
  const add = (value: unknown): void => {
    if ((typeof value === "string" || typeof value === "number") && String(value).length > 3) values.add(String(value));
  };
  for (const setting of allSettings()) {
    try {
      add(setting.parse(undefined));
    } catch {
      // a setting that must be set has no default
    }
  }
  for (const module of [credentialVariables, intervalsVariables, sandboxVariables, serverVariables, stravaVariables, voiceVariables])
    for (const [name, value] of Object.entries(module)) if (/^default[A-Z]|Text$/.test(name)) add(value);
  return values;
}

/** Each literal of `file` that restates one of `defaults`, as `file:line value`. */
function restatementsIn(file: string, defaults: Set<string>): Array<{ file: string; value: string; at: string }> {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), "utf8"), ts.ScriptTarget.Latest, true);
  const found: Array<{ file: string; value: string; at: string }> = [];
  const report = (node: ts.Node, value: string): void => {
    found.push({ file, value, at: `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${value}` });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      for (const value of defaults)
        if (Number.isNaN(Number(value)) && (node.text === value || (/[/:,]/.test(value) && node.text.includes(value)))) report(node, value);
    } else if (ts.isNumericLiteral(node) && defaults.has(String(Number(node.text)))) report(node, String(Number(node.text)));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("each setting's default is written once, where it is declared", () => {
  const defaults = declaredDefaults();
  for (const value of Object.keys(exempt)) defaults.delete(value);

  it("finds the defaults it looks for (the inventory and the declarations' exported defaults)", () => {
    for (const value of ["https://www.strava.com/api/v3", "https://intervals.icu/api/v1", "127.0.0.1:3000", "3000", "8900", "21600"])
      expect(defaults).toContain(value);
  });

  it("no product file outside common/settings/ restates one", () => {
    const restated = productFiles
      .flatMap((file) => restatementsIn(file, defaults))
      .filter(({ file, value }) => !allowed.some((entry) => entry.file === file && entry.value === value))
      .map(({ at }) => at);
    expect(
      restated,
      "Read the default from its declaration in common/settings/ (the setting's parse, or its exported default...), " +
        "or add the file to `allowed` in this test with why",
    ).toEqual([]);
  });

  it("each allowed literal is still there (a line left over is removed)", () => {
    for (const entry of allowed) expect(restatementsIn(entry.file, new Set([entry.value])), `${entry.file}: ${entry.why}`).not.toEqual([]);
  });
});
