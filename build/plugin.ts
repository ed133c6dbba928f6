/**
 * Replaces dist/index.js (the plugin entry compiled by tsc) with one self-contained ES module that
 * carries its dependencies (the AWS SDK's Secrets Manager client, TypeBox).
 *
 * Why: the host installs an npm plugin's dependencies in a managed npm project that applies the
 * host's own `overrides` (openclaw 2026.9.6 pins @aws-sdk/core to 3.978.0). That silently replaces
 * the @aws-sdk/core our Secrets Manager client needs (^3.980) and the first secret read fails with
 * "getDefaultSocketTimeout is not a function". A bundled entry runs the exact versions it was tested
 * with, whatever the host overrides. `npm run test:host` checks the installed package end to end.
 */
import { rm } from "node:fs/promises";
import { build } from "esbuild";
import { nodeBundleOptions } from "./bundle-options.mjs";

await build({ ...nodeBundleOptions, entryPoints: ["index.ts"], outfile: "dist/index.js", allowOverwrite: true });
// tsc's source map describes the file this one replaced.
await rm("dist/index.js.map", { force: true });
