import type { Plugin } from "esbuild";

/** See embed-at-build.mjs. */
export declare function embeddedAssets(
  sourcesChanged: (manifest: { sources: Record<string, { size: number; mtimeMs: number; sha256: string }> }) => boolean,
): Promise<{ plugin: Plugin; sources: string[] }>;
