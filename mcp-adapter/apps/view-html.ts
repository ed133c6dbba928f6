/**
 * The views' HTML by name, read from their last build in the artifact cache (dist/mcp-app-views/: the manifest
 * names each view's file). The server's bundles replace this module with the HTML built with them
 * (build/embedded-assets.mjs), so this file runs only from the TypeScript sources (tests, tsx, `npm run hosted`).
 * Imported only when a client reads a view.
 *
 * A build older than a view's sources is built again first, as the launcher does for the server: by the build
 * code run as a process of its own (`node build/views.mjs`), so nothing of the build is loaded here, and an edited
 * view is never served as it was. `npm install` builds the views with the server, and the test runner brings them
 * up to date before a run, so normally nothing is built here.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readBuildManifest, sourcesChanged } from "../../common/built-artifacts.mjs";

interface ViewsManifest {
  views: Record<string, string>;
  sources: Record<string, { size: number; mtimeMs: number; sha256: string }>;
}

const root = fileURLToPath(new URL("../../", import.meta.url));
const viewsDirectory = join(root, "dist", "mcp-app-views");
const manifestPath = join(viewsDirectory, "manifest.json");

/** The views' manifest, built again when missing or older than a source. */
function currentManifest(): ViewsManifest {
  const manifest = readBuildManifest<ViewsManifest>(manifestPath);
  if (manifest !== undefined && !sourcesChanged(manifest, root)) return manifest;
  const build = spawnSync(process.execPath, [join(root, "build", "views.mjs")], { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  const rebuilt = build.status === 0 ? readBuildManifest<ViewsManifest>(manifestPath) : undefined;
  if (rebuilt === undefined) {
    const said = `${build.stderr ?? ""}`.trim().slice(0, 2000) || build.error?.message || `exit ${build.status}`;
    throw new Error(
      `The MCP Apps views ${manifest === undefined ? "are not built" : "changed since their build"} and could not be built (${said}): ` +
        "fix the view's source, or run npm install in the checkout.",
    );
  }
  return rebuilt;
}

function readBuiltViews(): Record<string, string> {
  const { views } = currentManifest();
  return Object.fromEntries(Object.entries(views).map(([name, file]) => [name, readFileSync(join(viewsDirectory, file), "utf8")]));
}

export const viewHtml: Readonly<Record<string, string>> = readBuiltViews();
