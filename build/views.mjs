/**
 * Builds the MCP Apps views (views/<name>-view.ts) into self-contained HTML documents:
 * each view's script (the ext-apps SDK's `App` and our drawing code, bundled and minified by esbuild) and
 * its CSS inlined into one page that loads nothing from anywhere, under a content security policy that
 * allows no connection (the resource's `_meta.ui.csp` declares no domain; the page repeats the MCP Apps specification's
 * restrictive default so a host that forgets to apply it changes nothing) and runs only the page's own script,
 * named by its SHA-256 hash computed here.
 *
 * Output: dist/mcp-app-views/<content hash>/<name>.html and dist/mcp-app-views/manifest.json, which names the
 * build and every file of ours that went into it (size, modification time, SHA-256) plus npm's record of the
 * installed dependencies, like the server's own build: `currentViews(sourcesChanged)` rebuilds only when one of
 * them changed, by the server build's own check (build-server.mjs `sourcesChanged`, passed in: that module
 * builds the views while it is still being loaded, so this one cannot import it). Plain JavaScript for the same reason as the
 * server's build: it runs on `npm install`, before anything could compile TypeScript.
 *
 * Who calls it: the server's bundles embed the views at build time (embed-at-build.mjs); the TypeScript
 * sources (tests, tsx) read them through view-html.ts. By hand: `node mcp-adapter/apps/build-views.mjs`.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const viewsBuildDirectory = join(root, "dist", "mcp-app-views");
const manifestPath = join(viewsBuildDirectory, "manifest.json");

/** The views by name, each built from views/<name>-view.ts. */
export const viewNames = ["ride", "load"];

/** npm rewrites this on every install: a changed dependency changes it. */
const installedDependencies = "node_modules/.package-lock.json";
const thisFile = relative(root, fileURLToPath(import.meta.url));

/**
 * The content security policy of a page whose one script is `inlineScript`: the MCP Apps specification's
 * restrictive default (what a host must apply to a resource that declares no domain), with nothing to fetch,
 * frame or submit to, and with scripts narrowed from any inline script ('unsafe-inline') to this one, by its
 * hash: a script or event handler that an injection put into the page would not run. The page loads no
 * script file, so no source ('self') is allowed either. Styles keep 'unsafe-inline', as the default has it:
 * a style runs no code, and nothing may be fetched for one.
 */
export function viewContentSecurityPolicy(inlineScript) {
  const scriptHash = createHash("sha256").update(inlineScript, "utf8").digest("base64");
  return (
    `default-src 'none'; script-src 'sha256-${scriptHash}'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; ` +
    "media-src 'self' data:; connect-src 'none'; font-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'"
  );
}

/** @type {import("esbuild").BuildOptions} */
const viewBundleOptions = {
  bundle: true,
  platform: "browser",
  format: "esm",
  // What the hosts' web views run: Claude's and ChatGPT's apps and current browsers.
  target: ["es2022", "chrome110", "safari16", "firefox115"],
  minify: true,
  legalComments: "none",
  charset: "utf8",
  logLevel: "silent",
};

/**
 * Builds every view and returns `{ build, views: { name: file }, sources, html: { name: text } }`; writes the
 * HTML under a directory named by its hash and the manifest beside it (both replaced atomically).
 */
export async function buildViews() {
  const { build, stop } = await import("esbuild");
  const scratch = join(viewsBuildDirectory, "scratch");
  const result = await build({
    ...viewBundleOptions,
    absWorkingDir: root,
    entryPoints: Object.fromEntries(viewNames.map((name) => [name, join(root, "views", `${name}-view.ts`)])),
    outdir: scratch,
    write: false,
    metafile: true,
  });
  // The async API runs esbuild as a child process: stop it, so the process that asked can exit.
  await stop();
  const html = {};
  for (const name of viewNames) {
    const output = (extension) => result.outputFiles.find((file) => relative(scratch, file.path) === `${name}.${extension}`)?.text ?? "";
    html[name] = page(name, output("js"), output("css"));
  }
  const hash = createHash("sha256");
  for (const name of viewNames) hash.update(name).update(html[name]);
  const id = hash.digest("hex").slice(0, 16);
  const target = join(viewsBuildDirectory, id);
  const staging = join(viewsBuildDirectory, `.staging-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const name of viewNames) writeFileSync(join(staging, `${name}.html`), html[name]);
  try {
    renameSync(staging, target);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // the same build is already there
  }
  const now = new Date();
  utimesSync(target, now, now);

  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.includes("node_modules/"));
  inputs.push(thisFile);
  if (existsSync(join(root, installedDependencies))) inputs.push(installedDependencies);
  const sources = {};
  for (const input of [...new Set(inputs)].sort()) {
    const path = join(root, input);
    const { size, mtimeMs } = statSync(path);
    sources[input] = { size, mtimeMs, sha256: createHash("sha256").update(readFileSync(path)).digest("hex") };
  }
  const manifest = { build: id, views: Object.fromEntries(viewNames.map((name) => [name, `${id}/${name}.html`])), sources };
  const temporary = `${manifestPath}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(manifest, null, 1)}\n`);
  renameSync(temporary, manifestPath);
  removeOldBuilds(target);
  return { ...manifest, html };
}

/**
 * The views' HTML by name and the files they were built from: the last build when none of its sources
 * changed since (`sourcesChanged(manifest)` says), else a new one.
 */
export async function currentViews(sourcesChanged) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    if (!sourcesChanged(manifest)) {
      const html = Object.fromEntries(
        viewNames.map((name) => [name, readFileSync(join(viewsBuildDirectory, manifest.views[name]), "utf8")]),
      );
      return { ...manifest, html };
    }
  } catch {
    // no build yet, or one removed meanwhile: build
  }
  return buildViews();
}

/** One view's document: its CSS and its script inlined, nothing to load. */
function page(name, script, css) {
  // Inside a <script> element, "</script" would end it and "<!--" would change how it is parsed.
  const safeScript = script.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
  return (
    "<!doctype html>\n" +
    '<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<meta http-equiv="Content-Security-Policy" content="${viewContentSecurityPolicy(safeScript)}">\n` +
    `<meta name="mcp-app-view" content="${name}">\n` +
    `<style>${css.replace(/<\/(style)/gi, "<\\/$1")}</style>\n</head>\n` +
    '<body>\n<main id="view"><p class="waiting">Waiting for the data…</p></main>\n' +
    `<script type="module">${safeScript}</script>\n</body>\n</html>\n`
  );
}

/** Builds other than `keep`, untouched for a day (a server that loaded one has long read it). */
function removeOldBuilds(keep) {
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of readdirSync(viewsBuildDirectory)) {
    const path = join(viewsBuildDirectory, name);
    if (path === keep || path === manifestPath || name.endsWith(".tmp")) continue;
    try {
      if (statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
    } catch {
      // another build removed it first
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const built = await buildViews();
  const sizes = viewNames.map((name) => `${name} ${Math.round(built.html[name].length / 1024)} KiB`).join(", ");
  process.stderr.write(
    `built the MCP Apps views into ${relative(root, join(viewsBuildDirectory, built.build))}/ (${sizes}) in ${Math.round(performance.now() - started)} ms\n`,
  );
}
