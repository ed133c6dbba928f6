/**
 * Builds the MCP Apps views (views/<name>-view.ts) into self-contained HTML documents:
 * each view's script (the ext-apps SDK's `App` and our drawing code, bundled and minified by esbuild) and
 * its CSS inlined into one page that loads nothing from anywhere, under a content security policy that
 * allows no connection (the resource's `_meta.ui.csp` declares no domain; the page repeats the MCP Apps specification's
 * restrictive default so a host that forgets to apply it changes nothing) and runs only the page's own script,
 * named by its SHA-256 hash computed here.
 *
 * Output: dist/mcp-app-views/<content hash>/<name>.html and dist/mcp-app-views/manifest.json (`views` names each
 * view's file), in the artifact cache every build shares (artifact-cache.mjs): `currentViews()` rebuilds only when a
 * source of the last build changed. Plain JavaScript for the same reason as the server's build: it runs on
 * `npm install`, before anything could compile TypeScript.
 *
 * Who calls it: the server's bundles embed the views at build time (embedded-assets.mjs), which also keeps this
 * artifact current on `npm install` and whenever the launcher rebuilds the server; the test runner brings it up to
 * date before a run (test/support/current-builds.ts). The TypeScript sources read the built files at run time
 * (mcp-adapter/apps/view-html.ts), never this module. By hand: `npm run build:views` (`node build/views.mjs`).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { artifactCache, readManifest, root, sourcesChanged, storeBuild } from "./artifact-cache.mjs";
import { describeBuildError } from "./bundle-options.mjs";

/** The views' builds (dist/mcp-app-views/) and their manifest; mcp-adapter/apps/view-html.ts reads them there. */
export const viewsCache = artifactCache("mcp-app-views");

/** The views by name, each built from views/<name>-view.ts. */
export const viewNames = ["ride", "load"];

/** The build code of this artifact: a change to how the views are built rebuilds them too. */
const builderFiles = ["build/views.mjs", "build/artifact-cache.mjs"];

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
 * Builds every view and returns `{ build, views: { name: file }, sources, html: { name: text } }`; the HTML is
 * stored in the artifact cache under its hash, with the manifest beside it.
 */
export async function buildViews() {
  const { build, stop } = await import("esbuild");
  const scratch = join(viewsCache.directory, "scratch");
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
  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.includes("node_modules/"));
  const manifest = storeBuild(viewsCache, {
    files: viewNames.map((name) => ({ path: `${name}.html`, contents: html[name] })),
    inputs: [...inputs, ...builderFiles],
    fields: (id) => ({ views: Object.fromEntries(viewNames.map((name) => [name, `${id}/${name}.html`])) }),
  });
  return { ...manifest, html };
}

/**
 * The views' HTML by name and the files they were built from: the last build when none of its sources
 * changed since, else a new one.
 */
export async function currentViews() {
  const manifest = readManifest(viewsCache);
  if (manifest !== undefined && !sourcesChanged(manifest, root)) {
    try {
      const html = Object.fromEntries(
        viewNames.map((name) => [name, readFileSync(join(viewsCache.directory, manifest.views[name]), "utf8")]),
      );
      return { ...manifest, html };
    } catch {
      // a build removed meanwhile: build again
    }
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const built = await buildViews().catch((error) => {
    process.stderr.write(`${describeBuildError(error)}\n`);
    process.exit(1);
  });
  const sizes = viewNames.map((name) => `${name} ${Math.round(built.html[name].length / 1024)} KiB`).join(", ");
  process.stderr.write(
    `built the MCP Apps views into ${relative(root, join(viewsCache.directory, built.build))}/ (${sizes}) in ${Math.round(performance.now() - started)} ms\n`,
  );
}
