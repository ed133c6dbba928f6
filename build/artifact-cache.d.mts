/** See artifact-cache.mjs. */
export declare const root: string;

/** One artifact's folder under dist/ and its manifest. */
export interface ArtifactCache {
  directory: string;
  manifestPath: string;
}

/** Each source file of a build: its size, modification time and SHA-256, by path relative to the root. */
export type BuildSources = Record<string, { size: number; mtimeMs: number; sha256: string }>;

export interface BuildManifest {
  build: string;
  sources: BuildSources;
}

export declare function artifactCache(artifact: string, base?: string): ArtifactCache;
export declare function readManifest<Manifest extends BuildManifest = BuildManifest>(cache: ArtifactCache): Manifest | undefined;
export declare function storeBuild<Fields extends object>(
  cache: ArtifactCache,
  build: { files: { path: string; contents: string | Uint8Array }[]; inputs: string[]; fields: (build: string) => Fields },
  base?: string,
): BuildManifest & Fields;
export declare function sourcesChanged(manifest: Pick<BuildManifest, "sources">, base: string): boolean;
