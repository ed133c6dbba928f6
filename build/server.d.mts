import type { BuildOptions } from "esbuild";
import type { ArtifactCache, BuildManifest } from "./artifact-cache.mjs";

/** See server.mjs. */
export declare const serverBundleOptions: BuildOptions;
export declare const serverCache: ArtifactCache;

export interface ServerManifest extends BuildManifest {
  /** The entry module, relative to serverCache.directory. */
  entry: string;
}

export declare function buildServer(): Promise<ServerManifest>;
