import type { BuildOptions } from "esbuild";

/** See build-server.mjs. */
export declare const serverBundleOptions: BuildOptions;
export declare const root: string;
export declare const buildsDirectory: string;
export declare const manifestPath: string;

export interface BuildManifest {
  build: string;
  entry: string;
  sources: Record<string, { size: number; mtimeMs: number; sha256: string }>;
}

export declare function buildServer(): Promise<BuildManifest>;
export declare function sourcesChanged(manifest: Pick<BuildManifest, "sources">): boolean;
export declare function describeBuildError(error: unknown): string;
