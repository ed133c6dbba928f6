import type { BuildOptions } from "esbuild";

/** See bundle-options.mjs. */
export declare const nodeBundleOptions: BuildOptions;
/** See bundle-options.mjs. */
export declare const minifiedNodeBundleOptions: BuildOptions;
/** See bundle-options.mjs. */
export declare function describeBuildError(error: unknown): string;
