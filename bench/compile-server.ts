/**
 * Builds a server entry point (the pass-throughs) into JavaScript with the options
 * build/server.mjs uses for the MCP server, to run on plain node.
 */
import { copyFileSync, mkdirSync, symlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { build } from "esbuild";
import { serverBundleOptions } from "../build/server.mjs";

/** Returns the path of the compiled entry, inside `directory` (which gets package.json and node_modules beside it). */
export async function compileServer(root: string, entry: string, directory: string): Promise<string> {
  const outdir = join(directory, dirname(entry));
  const name = basename(entry, ".ts");
  mkdirSync(directory, { recursive: true });
  await build({ ...serverBundleOptions, entryPoints: { [name]: join(root, entry) }, outdir, logLevel: "warning" });
  // The server reads ../package.json for its name and version; bare imports resolve through node_modules.
  copyFileSync(join(root, "package.json"), join(directory, "package.json"));
  symlinkSync(join(root, "node_modules"), join(directory, "node_modules"), "dir");
  return join(outdir, `${name}.mjs`);
}
