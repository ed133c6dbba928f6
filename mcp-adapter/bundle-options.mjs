/**
 * How Form A's TypeScript becomes the JavaScript that `npm start` runs (mcp-adapter/start.mjs). The
 * benchmark builds its comparison servers with the same options, so every build it measures is made the
 * same way: one ESM bundle for Node 24, dependencies left in node_modules, and code splitting so dynamic
 * imports stay lazy (the AWS SDK and the sandbox load only when used).
 *
 * @type {import("esbuild").BuildOptions}
 */
export const serverBundleOptions = {
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node24",
  packages: "external",
};
