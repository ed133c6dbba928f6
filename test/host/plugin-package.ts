/**
 * The two shapes in which the host gets this plugin:
 * - a local path (a checkout): TypeScript entry ./index.ts, loaded by the host through jiti;
 * - an npm package: `npm pack` output, which ships compiled JavaScript (dist/) and no TypeScript.
 * Both are built in the scratch folder from the working tree, so edits happening in the tree while
 * the host reads its copy cannot disturb a check (the host verifies its source did not change while
 * loading it), and no dist/ is left in the tree (a local path with a dist/ beside index.ts loads dist/).
 */
import { spawn } from "node:child_process";
import { cp, mkdir, readdir, readFile, symlink } from "node:fs/promises";
import { basename, join } from "node:path";

/**
 * What a checkout holds for the plugin at run time: the manifest, the skill and every source folder the
 * build compiles (tsconfig.build.json's include, so a folder the entry imports cannot be left out of the
 * copy as `common/` once was); node_modules is linked, not copied.
 */
export async function copyPluginCheckout(repoRoot: string, destination: string): Promise<string> {
  const buildConfig = JSON.parse(await readFile(join(repoRoot, "tsconfig.build.json"), "utf8")) as { include?: string[] };
  await copyEntries(repoRoot, destination, ["package.json", "openclaw.plugin.json", "skills", ...(buildConfig.include ?? [])]);
  await symlink(join(repoRoot, "node_modules"), join(destination, "node_modules"), "dir");
  return destination;
}

export interface PackedPlugin {
  /** The package root that was packed, with its built dist/. */
  root: string;
  tarball: string;
  /** Paths inside the tarball, without the leading "package/". */
  files: string[];
}

/** `npm pack` (whose prepack builds dist/ with build/) of a copy of the package's build inputs, build code and shipped files. */
export async function packPlugin(repoRoot: string, scratch: string): Promise<PackedPlugin> {
  const packageJson = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8")) as { files?: string[] };
  const buildConfig = JSON.parse(await readFile(join(repoRoot, "tsconfig.build.json"), "utf8")) as { include?: string[] };
  const entries = new Set([
    "package.json",
    "tsconfig.json",
    "tsconfig.build.json",
    // What prepack runs (npm run build) and the views' browser code it bundles into the server; neither is shipped.
    "build",
    "views",
    ...(buildConfig.include ?? []),
    // Whole top-level folders of the shipped files: build inputs may import their siblings.
    ...(packageJson.files ?? []).filter((entry) => entry !== "dist").map((entry) => entry.split("/")[0] as string),
  ]);
  const stage = join(scratch, "pack-source");
  await copyEntries(repoRoot, stage, [...entries]);
  await symlink(join(repoRoot, "node_modules"), join(stage, "node_modules"), "dir");
  const out = join(scratch, "pack-out");
  await mkdir(out, { recursive: true });
  await run("npm", ["pack", "--pack-destination", out, "--loglevel=error"], stage);
  const tarballs = (await readdir(out)).filter((name) => name.endsWith(".tgz"));
  if (tarballs.length !== 1) throw new Error(`npm pack left ${tarballs.length} tarballs in ${out}`);
  const tarball = join(out, tarballs[0] as string);
  const listing = await run("tar", ["-tzf", tarball], out);
  return {
    root: stage,
    tarball,
    files: listing
      .split("\n")
      .filter(Boolean)
      .map((line) => line.replace(/^package\//, "")),
  };
}

async function copyEntries(from: string, to: string, entries: string[]): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of entries) {
    await cp(join(from, entry), join(to, entry), {
      recursive: true,
      filter: (source) => !["node_modules", "dist", ".DS_Store"].includes(basename(source)),
    });
  }
}

function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`${command} ${args.join(" ")} failed (${code}):\n${(stdout + stderr).trim().slice(-3000)}`)),
    );
  });
}
