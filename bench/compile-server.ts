/**
 * Builds Form A's entry point into one JavaScript file (esbuild, dependencies left in node_modules),
 * to measure the server as compiled JavaScript on plain node beside `npm start`, which runs the
 * TypeScript through tsx (whose loader thread and transpiled sources cost memory of their own).
 */
import { copyFileSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

/** Returns the path of the compiled entry, inside `directory` (which gets package.json and node_modules beside it). */
export async function compileServer(root: string, entry: string, directory: string): Promise<string> {
  const outfile = join(directory, entry.replace(/\.ts$/, ".mjs"));
  mkdirSync(directory, { recursive: true });
  await build({ entryPoints: [join(root, entry)], outfile, bundle: true, platform: "node", format: "esm", target: "node20", packages: "external", logLevel: "warning" });
  // The server reads ../package.json for its name and version; bare imports resolve through node_modules.
  copyFileSync(join(root, "package.json"), join(directory, "package.json"));
  symlinkSync(join(root, "node_modules"), join(directory, "node_modules"), "dir");
  return outfile;
}
