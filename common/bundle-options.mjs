/**
 * The esbuild options every bundle of this package shares: the MCP server (mcp-adapter/build-server.mjs),
 * the plugin's dist/index.js (scripts/bundle-plugin.ts) and the voice Lambdas (voice/build.ts), plus the
 * benchmark's pass-through servers. Plain JavaScript, because the MCP server is built on `npm install`,
 * before anything could compile TypeScript.
 *
 * - ES modules for Node 24 (the runtime everywhere, Lambda's nodejs24.x included), dependencies bundled
 *   (each bundle runs the versions its tests ran), their ES module builds preferred;
 * - a real `require` for the CommonJS dependencies left inside a bundle that load Node's built-ins;
 * - class and function names kept, because error classes take their `name` from their class
 *   (common/named-error.ts) and a minifier, or two modules with a class of the same name, would change it.
 */

/** @type {import("esbuild").BuildOptions} */
export const nodeBundleOptions = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
  mainFields: ["module", "main"],
  keepNames: true,
  banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
  legalComments: "none",
  logLevel: "warning",
};
