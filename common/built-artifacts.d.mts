/** See built-artifacts.mjs. */
export declare function readBuildManifest<Manifest = unknown>(manifestPath: string): Manifest | undefined;
export declare function sourcesChanged(
  manifest: { sources: Record<string, { size: number; mtimeMs: number; sha256: string }> },
  base: string,
): boolean;
export declare function sha256(bytes: string | Uint8Array): string;
