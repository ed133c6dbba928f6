/**
 * Bundles each Lambda function into one file with esbuild: dist/voice/<name>/<name>.mjs, the CodeUri of
 * voice/template.yaml. Run with `npx tsx voice/build.ts [outDir]`; prints each bundle's size.
 *
 * The options every bundle shares are in common/bundle-options.mjs; here, minified ES modules (.mjs), which
 * the nodejs24.x runtime loads natively (`Handler: handler.handler` finds handler.mjs). The AWS SDK is bundled
 * rather than taken from the runtime, so the deployed code runs the SDK version the tests ran.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { minifiedNodeBundleOptions } from "../common/bundle-options.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export const voiceFunctions = [
  { name: "authorizer", entry: "voice/authorizer.ts" },
  { name: "handler", entry: "voice/handler.ts" },
] as const;

export interface BundleReport {
  name: string;
  file: string;
  bytes: number;
  gzipBytes: number;
}

export async function buildVoiceBundles(outDir = join(root, "dist", "voice")): Promise<BundleReport[]> {
  const reports: BundleReport[] = [];
  for (const { name, entry } of voiceFunctions) {
    const dir = join(outDir, name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${name}.mjs`);
    await build({ ...minifiedNodeBundleOptions, entryPoints: [join(root, entry)], outfile: file });
    const files = readdirSync(dir);
    if (files.length !== 1) throw new Error(`${name} bundled to ${files.length} files (${files.join(", ")}); expected one`);
    const bytes = readFileSync(file);
    reports.push({ name, file, bytes: bytes.length, gzipBytes: gzipSync(bytes).length });
  }
  return reports;
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const reports = await buildVoiceBundles(process.argv[2] ? resolve(process.argv[2]) : undefined);
  for (const report of reports) {
    process.stdout.write(`${report.name.padEnd(10)} ${kib(report.bytes).padStart(10)}  (gzip ${kib(report.gzipBytes)})  ${report.file}\n`);
  }
}
