import type { Plugin } from "esbuild";

/** See embedded-assets.mjs. */
export declare function embeddedAssets(): Promise<{ plugin: Plugin; sources: string[] }>;
