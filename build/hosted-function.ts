/**
 * Bundles the hosted function into one file with esbuild: dist/hosted/mcp/lambda-handler.mjs (the
 * CodeUri of mcp-adapter/hosted/template.yaml), with a package.json beside it that gives the server's
 * name and version. `npm run build:hosted [-- outDir]` (`tsx build/hosted-function.ts`); prints the bundle's size.
 *
 * The options every bundle shares (bundle-options.mjs: ES modules for the nodejs24.x runtime,
 * the AWS SDK bundled so the deployed code runs the SDK version the tests ran), minified with class names
 * kept, like the voice functions. The sandbox is left out: a deployment always talks to Strava.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { minifiedNodeBundleOptions } from "./bundle-options.mjs";
import { embeddedAssets } from "./embedded-assets.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export async function buildHostedFunction(
  outDir = join(root, "dist", "hosted", "mcp"),
): Promise<{ file: string; bytes: number; gzipBytes: number }> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, "lambda-handler.mjs");
  await build({
    ...minifiedNodeBundleOptions,
    entryPoints: [join(root, "mcp-adapter", "hosted", "lambda-handler.ts")],
    outfile: file,
    // The embedded sandbox is loaded only without Strava credentials, which a deployment always has.
    external: ["../../sandbox/*"],
    // The views' HTML and the skill file, built in: the function is this one file.
    plugins: [(await embeddedAssets()).plugin],
  });
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name: string; version: string };
  writeFileSync(
    join(outDir, "package.json"),
    `${JSON.stringify({ name: pkg.name, version: pkg.version, type: "module", private: true }, null, 2)}\n`,
  );
  const bytes = statSync(file).size;
  return { file, bytes, gzipBytes: gzipSync(readFileSync(file)).length };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const report = await buildHostedFunction(process.argv[2] ? resolve(process.argv[2]) : undefined);
  process.stdout.write(`${report.file}: ${(report.bytes / 1024).toFixed(0)} KiB (${(report.gzipBytes / 1024).toFixed(0)} KiB gzipped)\n`);
}
