/**
 * Builds a server entry point (Form A's variants, the pass-throughs) into JavaScript the way
 * mcp-adapter/start.mjs builds Form A for `npm start`: esbuild, bundled with code splitting (dynamic
 * imports stay lazy), dependencies left in node_modules, run on plain node.
 */
import { copyFileSync, mkdirSync, symlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { build } from "esbuild";

/** Returns the path of the compiled entry, inside `directory` (which gets package.json and node_modules beside it). */
export async function compileServer(root: string, entry: string, directory: string): Promise<string> {
  const outdir = join(directory, dirname(entry));
  const name = basename(entry, ".ts");
  mkdirSync(directory, { recursive: true });
  await build({
    entryPoints: { [name]: join(root, entry) },
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
  // The server reads ../package.json for its name and version; bare imports resolve through node_modules.
  copyFileSync(join(root, "package.json"), join(directory, "package.json"));
  symlinkSync(join(root, "node_modules"), join(directory, "node_modules"), "dir");
  return join(outdir, `${name}.mjs`);
}
