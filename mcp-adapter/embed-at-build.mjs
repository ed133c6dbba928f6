/**
 * What the MCP server reads beside its TypeScript sources, put inside its bundles instead: the views' HTML
 * (apps/view-html.ts) and the plugin's skill files it serves (skills-over-mcp/coaching-skill-file.ts). A bundle runs
 * where those files may not lie next to it (the hosted function is one file), so an esbuild plugin replaces
 * the two modules that read them with their contents. The views' module is imported only when a client
 * reads a view, so in the code-split server bundle its HTML stays in a chunk of its own, loaded on first use.
 *
 * Used by build-server.mjs and hosted/build.ts. `sources` lists the files the views were built from, for the
 * server's build manifest (a changed view source must rebuild the server); the skill files are inputs of the
 * bundle itself, so the manifest names them anyway.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { servedSkillFiles } from "./skills-over-mcp/served-skill-files.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const skillFolder = join(here, "..", "skills", "fitness-coaching");

/**
 * @param {(manifest: { sources: Record<string, unknown> }) => boolean} sourcesChanged build-server.mjs's check
 * @returns {Promise<{ plugin: import("esbuild").Plugin; sources: string[] }>}
 */
export async function embeddedAssets(sourcesChanged) {
  const { currentViews } = await import("./apps/build-views.mjs");
  const views = await currentViews(sourcesChanged);
  /** @type {import("esbuild").Plugin} */
  const plugin = {
    name: "embed-at-build",
    setup(build) {
      build.onLoad({ filter: /[\\/]mcp-adapter[\\/]apps[\\/]view-html\.ts$/ }, () => ({
        contents: `export const viewHtml = ${JSON.stringify(views.html)};`,
        loader: "js",
      }));
      build.onLoad({ filter: /[\\/]mcp-adapter[\\/]skills-over-mcp[\\/]coaching-skill-file\.ts$/ }, () => ({
        contents: [
          ...servedSkillFiles.map(({ path }, index) => `import file${index} from ${JSON.stringify(join(skillFolder, path))};`),
          `export const coachingSkillFiles = { ${servedSkillFiles.map(({ path }, index) => `${JSON.stringify(path)}: file${index}`).join(", ")} };`,
          `export const coachingSkillMarkdown = coachingSkillFiles["SKILL.md"];`,
        ].join("\n"),
        loader: "js",
        resolveDir: here,
      }));
      build.onLoad({ filter: /[\\/]skills[\\/]fitness-coaching[\\/][^\\/]+\.md$/ }, (args) => ({
        contents: readFileSync(args.path, "utf8"),
        loader: "text",
      }));
    },
  };
  return { plugin, sources: Object.keys(views.sources) };
}
