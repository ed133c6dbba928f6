/**
 * The esbuild options every bundle of this package shares: the MCP server (server.mjs), the plugin's
 * dist/index.js (plugin.ts), the hosted MCP function and the voice Lambdas (hosted-function.ts,
 * voice-functions.ts), plus the benchmark's pass-through servers. Plain JavaScript,
 * because the MCP server is built on `npm install`, before anything could compile TypeScript.
 *
 * - ES modules for Node 24 (the runtime everywhere, Lambda's nodejs24.x included), dependencies bundled
 *   (each bundle runs the versions its tests ran), their ES module builds preferred;
 * - a real `require` for the CommonJS dependencies left inside a bundle that load Node's built-ins;
 * - class and function names as written. Error classes take their `name` from their class
 *   (common/named-error.ts); an unminified bundle keeps it unless esbuild renames a class (two modules of one
 *   bundle declaring the same top-level name, or a class that refers to itself), which
 *   test/common/bundled-error-names.test.ts rules out for the server and the plugin. The minified bundles
 *   (`minifiedNodeBundleOptions`) keep names with esbuild's `keepNames` instead. It is not set here because
 *   it wraps every function of every dependency in a call that redefines its `name` when the function is
 *   created, closures made on each request included: the long-running server paid for it in resident memory
 *   (BENCHMARKS.md, "Where the server's memory goes").
 */

/** @type {import("esbuild").BuildOptions} */
export const nodeBundleOptions = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
  mainFields: ["module", "main"],
  banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
  legalComments: "none",
  logLevel: "warning",
};

/**
 * A minified bundle (the Lambda functions): identifiers shortened, so class and function names are kept
 * explicitly.
 * @type {import("esbuild").BuildOptions}
 */
export const minifiedNodeBundleOptions = { ...nodeBundleOptions, minify: true, keepNames: true };

/** esbuild's errors as `file:line:column: text`, at most five: what a build run by hand or by the launcher prints. */
export function describeBuildError(error) {
  if (Array.isArray(error?.errors) && error.errors.length > 0) {
    return error.errors
      .slice(0, 5)
      .map(
        (problem) =>
          `${problem.location ? `${problem.location.file}:${problem.location.line}:${problem.location.column}: ` : ""}${problem.text}`,
      )
      .join("; ");
  }
  return error instanceof Error ? error.message : String(error);
}
