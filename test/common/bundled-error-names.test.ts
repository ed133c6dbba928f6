/**
 * Error classes take their `name` from their class (common/named-error.ts), and the callers see it: the
 * `kind` of a `tool_call_failed` log line, the name an operator greps for. The unminified bundles (the MCP server's
 * server and the plugin's dist/index.js) are built without esbuild's `keepNames` (build/bundle-options.mjs),
 * so a class keeps the name it is written with unless esbuild renames it: when two modules of one bundle
 * declare the same top-level name (`UpstreamError` becoming `UpstreamError2`), or when a class refers to
 * itself (`var UpstreamError = class _UpstreamError extends ...`). Either way its `name` would change.
 *
 * This builds both bundles in memory with the options their build scripts use and checks that every error
 * class of ours in them is bound to its own name, so neither can happen unnoticed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { build, type BuildOptions } from "esbuild";
import { describe, expect, it } from "vitest";
import { nodeBundleOptions } from "../../build/bundle-options.mjs";
import { serverBundleOptions } from "../../build/server.mjs";

const root = resolve(import.meta.dirname, "../..");
const sourceDirectories = [
  "common",
  "strava",
  "intervals",
  "credentials",
  "tools",
  "authorization",
  "mcp-adapter",
  "plugin",
  "voice",
  "scripts",
  "sandbox",
];

/**
 * Our classes that derive from NamedError, by name, from the TypeScript sources (tests excluded). A name
 * declared twice counts when either declaration derives from NamedError.
 */
function ourErrorClasses(): Set<string> {
  const parentsOf = new Map<string, Set<string>>();
  const walk = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) {
        for (const match of readFileSync(path, "utf8").matchAll(/\bclass\s+(\w+)\s+extends\s+(\w+)/g)) {
          parentsOf.set(match[1]!, (parentsOf.get(match[1]!) ?? new Set()).add(match[2]!));
        }
      }
    }
  };
  for (const directory of sourceDirectories) walk(join(root, directory));
  const derives = (name: string, seen: Set<string>): boolean => {
    if (name === "NamedError") return true;
    if (seen.has(name)) return false;
    seen.add(name);
    return [...(parentsOf.get(name) ?? [])].some((parent) => derives(parent, seen));
  };
  return new Set([...parentsOf.keys()].filter((name) => name !== "NamedError" && derives(name, new Set())));
}

async function bundleText(options: BuildOptions): Promise<string> {
  const result = await build({ ...options, absWorkingDir: root, write: false, logLevel: "silent" });
  return result.outputFiles.map((file) => file.text).join("\n");
}

/**
 * For each of `names` declared in `text`: the name its class has at run time. esbuild writes a class as
 * `class Name extends Base` or `var Name = class [InnerName] extends Base`; the inner name, when there is one,
 * is the class's `name`. A renamed class shows up under a spelling of its name (`Name2`, `_Name`).
 */
function runtimeNames(text: string, names: Set<string>): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const record = (written: string, runtime: string): void => {
    const base = written.replace(/^_+/, "").replace(/\d+$/, "");
    if (names.has(base)) found.set(base, [...(found.get(base) ?? []), runtime]);
  };
  for (const match of text.matchAll(/\b(?:var|let|const)\s+([\w$]+)\s*=\s*class(?:\s+([\w$]+))?\s+extends\b/g))
    record(match[1]!, match[2] ?? match[1]!);
  for (const match of text.matchAll(/(?:^|[\s;{}(])class\s+([\w$]+)\s+extends\b/gm)) record(match[1]!, match[1]!);
  return found;
}

describe("error class names in the unminified bundles", () => {
  const ours = ourErrorClasses();

  it("finds our error classes in the sources", () => {
    expect(ours.has("UpstreamStatusError")).toBe(true);
    expect(ours.has("HttpExchangeError")).toBe(true);
    expect(ours.size).toBeGreaterThan(20);
  });

  const bundles: [string, BuildOptions, string[]][] = [
    [
      "the MCP server's server (build/server.mjs)",
      {
        ...serverBundleOptions,
        entryPoints: { cli: join(root, "mcp-adapter", "cli.ts") },
        outdir: join(root, "dist", "mcp-server", "name-check"),
      },
      ["UpstreamStatusError", "UpstreamTimeoutError", "HttpExchangeError", "ToolInputError", "StartupError", "OAuthRequestError"],
    ],
    [
      "the plugin (build/plugin.ts)",
      { ...nodeBundleOptions, entryPoints: [join(root, "index.ts")], outfile: join(root, "dist", "name-check.js") },
      ["UpstreamStatusError", "UpstreamTimeoutError", "HttpExchangeError", "ToolInputError", "PluginConfigError"],
    ],
  ];

  for (const [label, options, expected] of bundles) {
    it(`${label}: every error class of ours keeps its name`, async () => {
      const found = runtimeNames(await bundleText(options), ours);
      for (const name of expected) expect(found.has(name), `${name} is not in ${label}`).toBe(true);
      const renamed = [...found]
        .filter(([name, runtime]) => runtime.some((r) => r !== name))
        .map(([name, runtime]) => `${name} -> ${runtime.join(", ")}`);
      expect(renamed, `renamed in ${label}: give the class a name no other module of the bundle uses`).toEqual([]);
    });
  }
});
