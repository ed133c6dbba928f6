/**
 * The views' HTML by name, read from their last build in the artifact cache (dist/mcp-app-views/: the manifest
 * names each view's file). The server reads what was built and never builds: `npm install` builds the views with
 * the server, the launcher rebuilds both when a source changed in a checkout, and the test runner brings them up
 * to date before a run (build/views.mjs). The server's bundles replace this module with the HTML built with them
 * (build/embedded-assets.mjs), so this file runs only from the TypeScript sources (tests, tsx). Imported only when
 * a client reads a view.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const viewsDirectory = fileURLToPath(new URL("../../dist/mcp-app-views/", import.meta.url));
const manifestPath = join(viewsDirectory, "manifest.json");

function readBuiltViews(): Record<string, string> {
  let views: Record<string, string>;
  try {
    views = (JSON.parse(readFileSync(manifestPath, "utf8")) as { views: Record<string, string> }).views;
  } catch (error) {
    throw new Error(
      `The MCP Apps views are not built (${manifestPath} could not be read: ${(error as Error).message}): ` +
        "run npm run build:views, or npm install, in the checkout.",
      { cause: error },
    );
  }
  return Object.fromEntries(Object.entries(views).map(([name, file]) => [name, readFileSync(join(viewsDirectory, file), "utf8")]));
}

export const viewHtml: Readonly<Record<string, string>> = readBuiltViews();
