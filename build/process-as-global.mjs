/**
 * An esbuild plugin for the MCP server's bundle: `import process from "node:process"` (the MCP SDK's stdio
 * transport writes it) becomes the global `process`, the very object that import gives.
 *
 * Why: Node makes an ES module's view of a built-in by reading every one of its exports once, and for
 * node:process that runs each lazy getter (process.report, allowedNodeEnvironmentFlags and the rest load their
 * own modules), a few milliseconds of every start spent on nothing the server uses; the global costs nothing.
 * Only a default import from an import statement is rewritten: a named import (`import { env } from
 * "node:process"`) finds no such export and fails the build, and `require("process")` from CommonJS is left to
 * Node, so nothing changes meaning without a build error saying so.
 */

/** @type {import("esbuild").Plugin} */
export const processAsGlobal = {
  name: "process-as-global",
  setup(build) {
    build.onResolve({ filter: /^(node:)?process$/ }, (args) =>
      args.kind === "import-statement" ? { path: "process", namespace: "process-as-global" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "process-as-global" }, () => ({
      contents: "export default globalThis.process;",
      loader: "js",
    }));
  },
};
